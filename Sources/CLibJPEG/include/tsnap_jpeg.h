#ifndef TSNAP_JPEG_H
#define TSNAP_JPEG_H
/// libjpeg reports errors with longjmp (and warnings through a callback), which Swift must never
/// see. This one function owns its setjmp and turns every error, and every warning (a truncated
/// or damaged tile decodes "successfully" into grey otherwise), into a status and a message.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Decodes a baseline or progressive JPEG into 8-bit RGBA (alpha 255), `width * height * 4`
/// bytes in a malloc'd `*rgba` freed with `tsnap_jpeg_free_pixels`. Images with more than
/// `max_pixels` pixels are refused before any pixel is decoded. Returns 0 on success; otherwise
/// non-zero with a NUL-terminated message in `message`.
int tsnap_jpeg_decode_rgba(const uint8_t *jpeg, size_t count, uint64_t max_pixels, uint32_t *width, uint32_t *height,
                           uint8_t **rgba, char *message, size_t message_capacity);

/// Encodes RGBA8 pixels (alpha ignored) as a baseline JPEG at `quality` (1-100) into a malloc'd
/// `*jpeg` of `*count` bytes (free with `tsnap_jpeg_free_pixels`). For generated tile sets
/// (tests, the example in docs/basemaps.md); TrackSnap writes PNG. Returns 0 on success.
int tsnap_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, uint8_t **jpeg,
                           size_t *count, char *message, size_t message_capacity);

/// Frees pixels returned by `tsnap_jpeg_decode_rgba`.
void tsnap_jpeg_free_pixels(uint8_t *rgba);

#ifdef __cplusplus
}
#endif
#endif
