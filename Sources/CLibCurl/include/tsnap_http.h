#ifndef TSNAP_HTTP_H
#define TSNAP_HTTP_H
/// One HTTP GET through libcurl, loaded with dlopen the first time a URL basemap needs it: a run
/// without one never maps libcurl and the dozen libraries it pulls in (TLS, Kerberos, LDAP…),
/// which would cost every `tracksnap` start several milliseconds. curl_easy_setopt is variadic,
/// which Swift cannot call; this file is the only place that does.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a GET returned. Header values are empty strings when absent. Release with
/// `tsnap_http_response_free`.
typedef struct {
    long status;
    uint8_t *body;
    size_t body_count;
    char etag[256];
    char last_modified[128];
    char cache_control[256];
    char expires[128];
    char date[128];
    char content_type[128];
    /// `Content-Range` of a 206 answer ("bytes 0-16383/90210"); empty otherwise.
    char content_range[128];
    /// `Content-Length` as sent (empty when absent).
    char content_length[32];
    /// Non-zero when the transfer failed because its time ran out (a hang or a drip).
    int timed_out;
    /// Non-zero when a range request was answered 200 (the whole file): the transfer was
    /// abandoned at its first body byte, `status` is 200 and the body is empty.
    int range_ignored;
} tsnap_http_response;

/// Loads libcurl (once; thread-safe). Returns 0, or non-zero with a message naming the library.
int tsnap_http_load(char *message, size_t message_capacity);

/// GETs `url` (http or https only, at most 3 redirects) with the given User-Agent and optional
/// validators (NULL or "" for none). A body longer than `max_bytes`, headers over 64 KiB, or
/// a transfer slower than 512 bytes/s for 3 s abort it; the whole request, connection included,
/// takes at most `timeout_milliseconds`. Content-Encoding (gzip…) is decoded.
/// Returns 0 when a response arrived (any status), non-zero with a message otherwise.
int tsnap_http_get(const char *url, const char *user_agent, const char *if_none_match, const char *if_modified_since,
                   long timeout_milliseconds, size_t max_bytes, tsnap_http_response *response, char *message,
                   size_t message_capacity);

/// GETs bytes `first`…`last` (inclusive) of `url` with `Range:` and, when `if_match` is not NULL
/// or "", `If-Match:` (a changed file then answers 412), or with `If-None-Match:` when
/// `if_none_match` is given. No Accept-Encoding is offered: the range is of the file's own bytes.
/// A 200 answer (a server that ignores Range and sends the whole file) is abandoned at its first
/// body byte and flagged `range_ignored`; the body of any other answer but 206 is dropped (the
/// status says what happened); otherwise as `tsnap_http_get`.
int tsnap_http_get_range(const char *url, const char *user_agent, uint64_t first, uint64_t last, const char *if_match,
                         const char *if_none_match, long timeout_milliseconds, size_t max_bytes, tsnap_http_response *response,
                         char *message, size_t message_capacity);

/// Frees a response's body.
void tsnap_http_response_free(tsnap_http_response *response);

#ifdef __cplusplus
}
#endif
#endif
