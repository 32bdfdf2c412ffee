#include "tsnap_http.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// The few libcurl symbols used, with their ABI constants (curl.h: CURLOPTTYPE_LONG 0,
// OBJECTPOINT 10000, FUNCTIONPOINT 20000; CURLINFO_LONG 0x200000). They have not changed since
// libcurl 7; no curl headers are needed to build.
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_USERAGENT = 10018,
    OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68,
    OPT_NOSIGNAL = 99, OPT_ACCEPT_ENCODING = 10102, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156,
    OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079,
    OPT_PROTOCOLS_STR = 10318, OPT_REDIR_PROTOCOLS_STR = 10319,
    INFO_RESPONSE_CODE = 0x200002, GLOBAL_ALL = 3, ERROR_BUFFER_SIZE = 256,
    CODE_OPERATION_TIMEDOUT = 28, CODE_OUT_OF_MEMORY = 27,
    // A tile response's headers are a few hundred bytes; more than this is refused (libcurl's own
    // cap on one header line, 100 KiB, fails as "Out of memory", which says nothing useful).
    MAX_HEADER_BYTES = 64 << 10,
    // Slower than this for LOW_SPEED_SECONDS is a drip, not a server: the transfer is abandoned.
    LOW_SPEED_BYTES_PER_SECOND = 512, LOW_SPEED_SECONDS = 3,
};

typedef void CURL;
struct curl_slist;
static int (*c_global_init)(long);
static CURL *(*c_easy_init)(void);
static int (*c_easy_setopt)(CURL *, int, ...);
static int (*c_easy_perform)(CURL *);
static int (*c_easy_getinfo)(CURL *, int, ...);
static void (*c_easy_cleanup)(CURL *);
static const char *(*c_easy_strerror)(int);
static struct curl_slist *(*c_slist_append)(struct curl_slist *, const char *);
static void (*c_slist_free_all)(struct curl_slist *);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];

static void load_library(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "cannot load libcurl (libcurl.so.4) for a URL basemap: %s; install it with: apt-get install -y libcurl4",
                 dlerror());
        return;
    }
#define LOAD(var, name)                                                                         \
    *(void **)(&var) = dlsym(library, name);                                                     \
    if (!var) {                                                                                   \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s: too old a libcurl", name); \
        return;                                                                                   \
    }
    LOAD(c_global_init, "curl_global_init")
    LOAD(c_easy_init, "curl_easy_init")
    LOAD(c_easy_setopt, "curl_easy_setopt")
    LOAD(c_easy_perform, "curl_easy_perform")
    LOAD(c_easy_getinfo, "curl_easy_getinfo")
    LOAD(c_easy_cleanup, "curl_easy_cleanup")
    LOAD(c_easy_strerror, "curl_easy_strerror")
    LOAD(c_slist_append, "curl_slist_append")
    LOAD(c_slist_free_all, "curl_slist_free_all")
#undef LOAD
    if (c_global_init(GLOBAL_ALL) != 0) snprintf(load_error, sizeof load_error, "curl_global_init failed");
}

int tsnap_http_load(char *message, size_t message_capacity) {
    pthread_once(&load_once, load_library);
    if (load_error[0]) {
        snprintf(message, message_capacity, "%s", load_error);
        return 1;
    }
    return 0;
}

typedef struct {
    tsnap_http_response *response;
    size_t capacity;
    size_t max_bytes;
    int too_large;
    size_t header_bytes;
    int headers_too_large;
    /// Whether this is a range request, and the status of the response being received.
    int ranged;
    long status;
} transfer;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    transfer *state = context;
    size_t bytes = size * count;
    tsnap_http_response *response = state->response;
    if (state->ranged && state->status == 200) {
        // The server ignored Range: this body is the whole file, possibly gigabytes.
        response->range_ignored = 1;
        return 0;
    }
    // An error page (503, 412…) answering a range is not the range: dropped, so its size is not
    // held against the range's (a 40-byte range would otherwise fail as "too large").
    if (state->ranged && state->status != 206) return bytes;
    if (response->body_count + bytes > state->max_bytes) {
        state->too_large = 1;
        return 0; // aborts the transfer (CURLE_WRITE_ERROR)
    }
    if (response->body_count + bytes > state->capacity) {
        size_t capacity = state->capacity ? state->capacity * 2 : 65536;
        while (capacity < response->body_count + bytes) capacity *= 2;
        uint8_t *grown = realloc(response->body, capacity);
        if (!grown) return 0;
        response->body = grown;
        state->capacity = capacity;
    }
    memcpy(response->body + response->body_count, data, bytes);
    response->body_count += bytes;
    return bytes;
}

static void copy_value(char *field, size_t capacity, const char *value, size_t length) {
    while (length > 0 && (*value == ' ' || *value == '\t')) value++, length--;
    while (length > 0 && (value[length - 1] == '\r' || value[length - 1] == '\n' || value[length - 1] == ' ')) length--;
    if (length >= capacity) length = capacity - 1;
    memcpy(field, value, length);
    field[length] = 0;
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
    transfer *state = context;
    size_t bytes = size * count;
    tsnap_http_response *response = state->response;
    state->header_bytes += bytes;
    if (state->header_bytes > MAX_HEADER_BYTES) {
        state->headers_too_large = 1;
        return 0; // aborts the transfer
    }
    // A redirect's headers come first: a new status line starts the final response's headers over.
    if (bytes >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        response->etag[0] = response->last_modified[0] = response->cache_control[0] = 0;
        response->expires[0] = response->date[0] = response->content_type[0] = 0;
        response->content_range[0] = response->content_length[0] = 0;
        const char *space = memchr(data, ' ', bytes);
        state->status = space ? strtol(space + 1, NULL, 10) : 0;
        return bytes;
    }
    const char *colon = memchr(data, ':', bytes);
    if (!colon) return bytes;
    size_t name_length = (size_t)(colon - data);
    const char *value = colon + 1;
    size_t value_length = bytes - name_length - 1;
    static const struct { const char *name; size_t offset; size_t capacity; } fields[] = {
        {"etag", offsetof(tsnap_http_response, etag), sizeof(((tsnap_http_response *)0)->etag)},
        {"last-modified", offsetof(tsnap_http_response, last_modified), sizeof(((tsnap_http_response *)0)->last_modified)},
        {"cache-control", offsetof(tsnap_http_response, cache_control), sizeof(((tsnap_http_response *)0)->cache_control)},
        {"expires", offsetof(tsnap_http_response, expires), sizeof(((tsnap_http_response *)0)->expires)},
        {"date", offsetof(tsnap_http_response, date), sizeof(((tsnap_http_response *)0)->date)},
        {"content-type", offsetof(tsnap_http_response, content_type), sizeof(((tsnap_http_response *)0)->content_type)},
        {"content-range", offsetof(tsnap_http_response, content_range), sizeof(((tsnap_http_response *)0)->content_range)},
        {"content-length", offsetof(tsnap_http_response, content_length), sizeof(((tsnap_http_response *)0)->content_length)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strlen(fields[i].name) == name_length && strncasecmp(data, fields[i].name, name_length) == 0) {
            copy_value((char *)response + fields[i].offset, fields[i].capacity, value, value_length);
        }
    }
    return bytes;
}

/// One GET with the given extra headers (NULL for none); `ranged` marks a range request (no
/// Accept-Encoding, a 200 answer abandoned).
static int perform(const char *url, const char *user_agent, struct curl_slist *headers, int ranged, long timeout_milliseconds,
                   size_t max_bytes, tsnap_http_response *response, char *message, size_t message_capacity) {
    CURL *curl = c_easy_init();
    if (!curl) {
        snprintf(message, message_capacity, "curl_easy_init failed");
        return 1;
    }
    char errors[ERROR_BUFFER_SIZE] = {0};
    transfer state = {response, 0, max_bytes, 0, 0, 0, ranged, 0};
    if (timeout_milliseconds < 1) timeout_milliseconds = 1;
    c_easy_setopt(curl, OPT_URL, url);
    c_easy_setopt(curl, OPT_USERAGENT, user_agent);
    c_easy_setopt(curl, OPT_ERRORBUFFER, errors);
    c_easy_setopt(curl, OPT_NOSIGNAL, 1L);
    c_easy_setopt(curl, OPT_TIMEOUT_MS, timeout_milliseconds);
    c_easy_setopt(curl, OPT_CONNECTTIMEOUT_MS, timeout_milliseconds < 10000 ? timeout_milliseconds : 10000L);
    c_easy_setopt(curl, OPT_LOW_SPEED_LIMIT, (long)LOW_SPEED_BYTES_PER_SECOND);
    c_easy_setopt(curl, OPT_LOW_SPEED_TIME, (long)LOW_SPEED_SECONDS);
    // "": every encoding this libcurl decodes (gzip, deflate…) is offered and decoded, so a body
    // sent with Content-Encoding: gzip is stored as the image it encodes. Not for a range: a
    // range of an encoded body is not a range of the file.
    if (!ranged) c_easy_setopt(curl, OPT_ACCEPT_ENCODING, "");
    c_easy_setopt(curl, OPT_FOLLOWLOCATION, 1L);
    c_easy_setopt(curl, OPT_MAXREDIRS, 3L);
    c_easy_setopt(curl, OPT_PROTOCOLS_STR, "http,https");
    c_easy_setopt(curl, OPT_REDIR_PROTOCOLS_STR, "http,https");
    c_easy_setopt(curl, OPT_WRITEFUNCTION, on_body);
    c_easy_setopt(curl, OPT_WRITEDATA, &state);
    c_easy_setopt(curl, OPT_HEADERFUNCTION, on_header);
    c_easy_setopt(curl, OPT_HEADERDATA, &state);
    if (headers) c_easy_setopt(curl, OPT_HTTPHEADER, headers);
    int code = c_easy_perform(curl);
    long status = 0;
    c_easy_getinfo(curl, INFO_RESPONSE_CODE, &status);
    response->status = status;
    c_easy_cleanup(curl);
    if (response->range_ignored) {
        tsnap_http_response_free(response);
        return 0;
    }
    if (code != 0) {
        response->timed_out = code == CODE_OPERATION_TIMEDOUT;
        if (state.too_large) {
            snprintf(message, message_capacity, "the response passed the %zu-byte limit for a tile", max_bytes);
        } else if (state.headers_too_large || code == CODE_OUT_OF_MEMORY) {
            snprintf(message, message_capacity,
                     "the response headers are too large (more than %d KiB, or one line over libcurl's 100 KiB); not a tile server's answer",
                     MAX_HEADER_BYTES >> 10);
        } else {
            snprintf(message, message_capacity, "%s", errors[0] ? errors : c_easy_strerror(code));
        }
        tsnap_http_response_free(response);
        return 2;
    }
    return 0;
}

/// Appends "Name: value" when the value is not NULL or "".
static struct curl_slist *append_header(struct curl_slist *headers, const char *name, const char *value) {
    if (!value || !value[0]) return headers;
    char line[512];
    snprintf(line, sizeof line, "%s: %s", name, value);
    return c_slist_append(headers, line);
}

int tsnap_http_get(const char *url, const char *user_agent, const char *if_none_match, const char *if_modified_since,
                   long timeout_milliseconds, size_t max_bytes, tsnap_http_response *response, char *message,
                   size_t message_capacity) {
    memset(response, 0, sizeof *response);
    if (tsnap_http_load(message, message_capacity) != 0) return 1;
    struct curl_slist *headers = append_header(NULL, "If-None-Match", if_none_match);
    headers = append_header(headers, "If-Modified-Since", if_modified_since);
    int result = perform(url, user_agent, headers, 0, timeout_milliseconds, max_bytes, response, message, message_capacity);
    if (headers) c_slist_free_all(headers);
    return result;
}

int tsnap_http_get_range(const char *url, const char *user_agent, uint64_t first, uint64_t last, const char *if_match,
                         const char *if_none_match, long timeout_milliseconds, size_t max_bytes, tsnap_http_response *response,
                         char *message, size_t message_capacity) {
    memset(response, 0, sizeof *response);
    if (tsnap_http_load(message, message_capacity) != 0) return 1;
    char range[64];
    snprintf(range, sizeof range, "bytes=%llu-%llu", (unsigned long long)first, (unsigned long long)last);
    struct curl_slist *headers = append_header(NULL, "Range", range);
    headers = append_header(headers, "If-Match", if_match);
    headers = append_header(headers, "If-None-Match", if_none_match);
    int result = perform(url, user_agent, headers, 1, timeout_milliseconds, max_bytes, response, message, message_capacity);
    if (headers) c_slist_free_all(headers);
    return result;
}

void tsnap_http_response_free(tsnap_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_count = 0;
}
