#ifndef TSNAP_PNG_H
#define TSNAP_PNG_H
/// TrackSnap's libpng boundary (libjpeg, libcurl and the time-zone data have C targets of their
/// own): libpng reports errors with longjmp, which Swift must never see. Each function here owns
/// its setjmp, catches every libpng error, silences every warning, and returns a status plus a
/// message instead. The Swift callers (PNGEncoding's encoders and decoder, TileSources'
/// `TileDecoder` for PNG tiles) turn a non-zero status into a thrown error.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Colour layout of the rows handed to the encoder.
typedef enum {
    /// 4 bytes per pixel, alpha kept in the file.
    TSNAP_PNG_RGBA = 0,
    /// 4 bytes per pixel in memory, alpha dropped by libpng (the image is opaque): 3 bytes in the file.
    TSNAP_PNG_RGBX_AS_RGB = 1,
    /// 1 byte per pixel, indices into `palette_rgb` (3 bytes per entry).
    TSNAP_PNG_PALETTE = 2,
} tsnap_png_layout;

/// Encoder settings chosen by the caller (see PNGEncoding for the measured defaults).
typedef struct {
    tsnap_png_layout layout;
    int compression_level;   ///< zlib level 0-9
    int compression_strategy; ///< zlib strategy, e.g. Z_RLE = 3
    int filter_flags;        ///< libpng PNG_FILTER_* mask, e.g. PNG_FILTER_UP = 0x20
    const uint8_t *palette_rgb; ///< TSNAP_PNG_PALETTE only
    int palette_count;       ///< TSNAP_PNG_PALETTE only, 1...256
} tsnap_png_settings;

/// A growable output buffer owned by C; release with `tsnap_png_buffer_free`.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
    int failed_allocation;
} tsnap_png_buffer;

/// Encodes `height` rows of `row_stride` bytes starting at `pixels`.
/// Returns 0 on success, with the PNG in `out`; non-zero on failure with a NUL-terminated
/// message in `message` (at most `message_capacity` bytes). libpng's warnings are dropped: they
/// never reach stderr and are not returned.
int tsnap_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t row_stride,
                     const tsnap_png_settings *settings, tsnap_png_buffer *out,
                     char *message, size_t message_capacity);

/// Writes an 8-bit palette PNG whose image data (the zlib stream of the filtered rows) the caller
/// has compressed itself: libpng writes the signature, IHDR, PLTE, one IDAT chunk holding
/// `zlib_stream`, and IEND, with their CRCs. Returns 0 on success, non-zero with a message.
int tsnap_png_write_palette_stream(uint32_t width, uint32_t height, const uint8_t *palette_rgb, int palette_count,
                                   const uint8_t *zlib_stream, size_t stream_count, tsnap_png_buffer *out,
                                   char *message, size_t message_capacity);

/// Frees the bytes of a buffer filled by `tsnap_png_encode`.
void tsnap_png_buffer_free(tsnap_png_buffer *buffer);

/// Decodes any PNG into 8-bit RGBA (`width * height * 4` bytes written to a malloc'd `*rgba`,
/// which the caller frees with `tsnap_png_free_pixels`). Returns 0 on success; otherwise non-zero
/// with a message. Used by tests and tools to check the encoder through libpng's own decoder.
int tsnap_png_decode_rgba(const uint8_t *png, size_t count, uint32_t *width, uint32_t *height,
                          uint8_t **rgba, char *message, size_t message_capacity);

/// Decodes a map tile whose header says `width`×`height` into `rgba` (the caller's buffer of
/// `width * height * 4` bytes): 8-bit RGBA with premultiplied alpha, no gamma conversion. For
/// basemaps, where the simplified API's colour handling cost ~380 µs a 256×256 tile. Returns 0,
/// or non-zero with a message (truncated data, bad CRC, bad zlib stream…).
int tsnap_png_decode_tile(const uint8_t *png, size_t count, uint32_t width, uint32_t height, uint8_t *rgba,
                          char *message, size_t message_capacity);

/// Frees pixels returned by `tsnap_png_decode_rgba`.
void tsnap_png_free_pixels(uint8_t *rgba);

/// libpng's version string, e.g. "1.6.39".
const char *tsnap_png_libpng_version(void);

#ifdef __cplusplus
}
#endif
#endif
