#!/usr/bin/env bash
# Prints "PID (command)" of a process holding the dpkg or apt lock, or nothing. apt takes these
# locks with fcntl, which flock(1) cannot see, so look for the open file in /proc instead.
for fd in /proc/[0-9]*/fd/*; do
    case "$(readlink "$fd" 2>/dev/null)" in
        /var/lib/dpkg/lock|/var/lib/dpkg/lock-frontend|/var/lib/apt/lists/lock|/var/cache/apt/archives/lock)
            pid=${fd#/proc/}; pid=${pid%%/*}
            echo "$pid ($(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-80))"
            exit 0 ;;
    esac
done
