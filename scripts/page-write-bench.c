// The system calls of one listing page written atomically, timed on their own (docs/performance.md,
// "The cold listing's writes and records"). Build and run on the file system to measure, in an
// empty folder:
//   cc -O2 -o /tmp/page-write-bench scripts/page-write-bench.c
//   /tmp/page-write-bench DIR COUNT MODE
// COUNT pages of 2.5 KB, one thread. MODE 0: a named temporary, fchmod, write, close, rename, lstat
// (FileStore before the tenth step); 1: the same without fchmod, fstat before the close instead of
// the lstat; 2: an unnamed temporary (O_TMPFILE), write, fstat, linkat through /proc/self/fd, close
// (FileStore now, for a page not there yet).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char page[2500];

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s DIR COUNT MODE(0|1|2)\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    int count = atoi(argv[2]), mode = atoi(argv[3]);
    char temporary[512], path[512], fdPath[64];
    struct stat status;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < count; i++) {
        snprintf(temporary, sizeof temporary, "%s/.page%08d.html.tmp", dir, i);
        snprintf(path, sizeof path, "%s/%064d.html", dir, i);
        int fd;
        if (mode == 2) {
            fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        } else {
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        }
        if (fd < 0) { perror("open"); return 1; }
        if (mode == 0) fchmod(fd, 0644);
        if (write(fd, page, sizeof page) != (ssize_t)sizeof page) { perror("write"); return 1; }
        if (mode != 0) fstat(fd, &status);
        if (mode == 2) {
            snprintf(fdPath, sizeof fdPath, "/proc/self/fd/%d", fd);
            if (linkat(AT_FDCWD, fdPath, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0) { perror("linkat"); return 1; }
            close(fd);
        } else {
            close(fd);
            if (rename(temporary, path) != 0) { perror("rename"); return 1; }
            if (mode == 0) lstat(path, &status);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("mode %d: %.1f us a page (%d pages)\n", mode, seconds / count * 1e6, count);
    return 0;
}
