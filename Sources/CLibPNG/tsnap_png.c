// setjmp/longjmp stays inside this file: every libpng entry point below runs under its own
// setjmp, and the error callback jumps back here with the message copied out.
#include "tsnap_png.h"
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    jmp_buf jump;
    char *message;
    size_t message_capacity;
    tsnap_png_buffer *out;
} tsnap_context;

static void copy_message(char *dst, size_t capacity, const char *src) {
    if (dst == NULL || capacity == 0) return;
    if (src == NULL) src = "unknown libpng error";
    strncpy(dst, src, capacity - 1);
    dst[capacity - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    tsnap_context *ctx = (tsnap_context *)png_get_error_ptr(png);
    copy_message(ctx->message, ctx->message_capacity, text);
    longjmp(ctx->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    // Deliberately silent: libpng warnings are advisory and must not spill on stderr.
    (void)png; (void)text;
}

static void on_write(png_structp png, png_bytep data, png_size_t length) {
    tsnap_context *ctx = (tsnap_context *)png_get_io_ptr(png);
    tsnap_png_buffer *out = ctx->out;
    if (out->count + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 64 * 1024;
        while (capacity < out->count + length) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(out->bytes, capacity);
        if (grown == NULL) {
            out->failed_allocation = 1;
            png_error(png, "out of memory growing the PNG output buffer");
        }
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->count, data, length);
    out->count += length;
}

static void on_flush(png_structp png) { (void)png; }

// The write and info structs with this file's error, warning and output callbacks. Returns
// non-zero with a message when libpng cannot allocate them (nothing to free then).
static int create_writer(tsnap_context *ctx, png_structp *png, png_infop *info) {
    *png = png_create_write_struct(PNG_LIBPNG_VER_STRING, ctx, on_error, on_warning);
    if (*png == NULL) {
        copy_message(ctx->message, ctx->message_capacity, "png_create_write_struct failed");
        return 1;
    }
    *info = png_create_info_struct(*png);
    if (*info == NULL) {
        png_destroy_write_struct(png, NULL);
        copy_message(ctx->message, ctx->message_capacity, "png_create_info_struct failed");
        return 1;
    }
    png_set_write_fn(*png, ctx, on_write, on_flush);
    return 0;
}

// PLTE from `count` RGB triples (libpng errors, through longjmp, when count is out of range).
static void set_palette(png_structp png, png_infop info, const uint8_t *rgb, int count) {
    png_color palette[256];
    for (int i = 0; i < count && i < 256; i++) {
        palette[i].red = rgb[3 * i];
        palette[i].green = rgb[3 * i + 1];
        palette[i].blue = rgb[3 * i + 2];
    }
    png_set_PLTE(png, info, palette, count);
}

int tsnap_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t row_stride,
                     const tsnap_png_settings *settings, tsnap_png_buffer *out,
                     char *message, size_t message_capacity) {
    if (message && message_capacity) message[0] = '\0';
    if (pixels == NULL || settings == NULL || out == NULL || width == 0 || height == 0) {
        copy_message(message, message_capacity, "invalid arguments to the PNG encoder");
        return 1;
    }
    tsnap_context ctx = {.message = message, .message_capacity = message_capacity, .out = out};
    png_structp created_png;
    png_infop created_info;
    if (create_writer(&ctx, &created_png, &created_info)) return 1;
    // volatile: these are read after a longjmp back into this frame.
    png_structp volatile png = created_png;
    png_infop volatile info = created_info;
    if (setjmp(ctx.jump)) {
        png_destroy_write_struct((png_structpp)&png, (png_infopp)&info);
        return 1;
    }
    png_set_compression_level(png, settings->compression_level);
    png_set_compression_strategy(png, settings->compression_strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, settings->filter_flags);

    int color_type = PNG_COLOR_TYPE_RGB_ALPHA;
    if (settings->layout == TSNAP_PNG_RGBX_AS_RGB) color_type = PNG_COLOR_TYPE_RGB;
    if (settings->layout == TSNAP_PNG_PALETTE) color_type = PNG_COLOR_TYPE_PALETTE;
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (settings->layout == TSNAP_PNG_PALETTE) {
        if (settings->palette_rgb == NULL || settings->palette_count < 1 || settings->palette_count > 256) {
            png_error(png, "palette layout needs 1...256 palette entries");
        }
        set_palette(png, info, settings->palette_rgb, settings->palette_count);
    }
    png_write_info(png, info);
    if (settings->layout == TSNAP_PNG_RGBX_AS_RGB) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * row_stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct((png_structpp)&png, (png_infopp)&info);
    return 0;
}

int tsnap_png_write_palette_stream(uint32_t width, uint32_t height, const uint8_t *palette_rgb, int palette_count,
                                   const uint8_t *zlib_stream, size_t stream_count, tsnap_png_buffer *out,
                                   char *message, size_t message_capacity) {
    if (message && message_capacity) message[0] = '\0';
    if (palette_rgb == NULL || zlib_stream == NULL || out == NULL || width == 0 || height == 0 ||
        palette_count < 1 || palette_count > 256) {
        copy_message(message, message_capacity, "invalid arguments to the palette PNG writer");
        return 1;
    }
    tsnap_context ctx = {.message = message, .message_capacity = message_capacity, .out = out};
    png_structp created_png;
    png_infop created_info;
    if (create_writer(&ctx, &created_png, &created_info)) return 1;
    // volatile: these are read after a longjmp back into this frame.
    png_structp volatile png = created_png;
    png_infop volatile info = created_info;
    if (setjmp(ctx.jump)) {
        png_destroy_write_struct((png_structpp)&png, (png_infopp)&info);
        return 1;
    }
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    set_palette(png, info, palette_rgb, palette_count);
    png_write_info(png, info);
    // png_write_chunk frames any chunk (length, type, data, CRC); IEND follows directly, since
    // png_write_end insists on rows having gone through libpng's own compressor.
    size_t offset = 0;
    const size_t chunk_limit = (size_t)1 << 30;
    do {
        size_t count = stream_count - offset < chunk_limit ? stream_count - offset : chunk_limit;
        png_write_chunk(png, (png_const_bytep)"IDAT", zlib_stream + offset, count);
        offset += count;
    } while (offset < stream_count);
    png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
    png_destroy_write_struct((png_structpp)&png, (png_infopp)&info);
    return 0;
}

void tsnap_png_buffer_free(tsnap_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = 0;
    buffer->capacity = 0;
}

int tsnap_png_decode_rgba(const uint8_t *png, size_t count, uint32_t *width, uint32_t *height,
                          uint8_t **rgba, char *message, size_t message_capacity) {
    if (message && message_capacity) message[0] = '\0';
    *rgba = NULL;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    // The simplified API catches libpng errors itself (no setjmp needed here).
    if (!png_image_begin_read_from_memory(&image, png, count)) {
        copy_message(message, message_capacity, image.message);
        png_image_free(&image);
        return 1;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *buffer = (uint8_t *)malloc(size);
    if (buffer == NULL) {
        png_image_free(&image);
        copy_message(message, message_capacity, "out of memory decoding PNG");
        return 1;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        copy_message(message, message_capacity, image.message);
        free(buffer);
        png_image_free(&image);
        return 1;
    }
    *width = image.width;
    *height = image.height;
    *rgba = buffer;
    return 0;
}

void tsnap_png_free_pixels(uint8_t *rgba) { free(rgba); }

const char *tsnap_png_libpng_version(void) { return PNG_LIBPNG_VER_STRING; }

// ---- Tile decoding (basemaps): straight into the caller's buffer, premultiplied ----

typedef struct {
    jmp_buf jump;
    char *message;
    size_t message_capacity;
    const uint8_t *bytes;
    size_t count;
    size_t offset;
} tsnap_reader;

static void on_read_error(png_structp png, png_const_charp text) {
    tsnap_reader *reader = (tsnap_reader *)png_get_error_ptr(png);
    copy_message(reader->message, reader->message_capacity, text);
    longjmp(reader->jump, 1);
}

static void on_read(png_structp png, png_bytep data, png_size_t length) {
    tsnap_reader *reader = (tsnap_reader *)png_get_io_ptr(png);
    if (reader->count - reader->offset < length) png_error(png, "truncated PNG: read beyond end of data");
    memcpy(data, reader->bytes + reader->offset, length);
    reader->offset += length;
}

int tsnap_png_decode_tile(const uint8_t *png_bytes, size_t count, uint32_t width, uint32_t height, uint8_t *rgba,
                          char *message, size_t message_capacity) {
    tsnap_reader reader = {.message = message, .message_capacity = message_capacity, .bytes = png_bytes, .count = count};
    if (message && message_capacity) message[0] = '\0';
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, on_read_error, on_warning);
    if (!png) {
        copy_message(message, message_capacity, "png_create_read_struct failed");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(reader.jump)) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (message && message_capacity && !message[0]) copy_message(message, message_capacity, "png_create_info_struct failed");
        return 1;
    }
    png_set_read_fn(png, &reader, on_read);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w != width || h != height) png_error(png, "the image size changed between header checks");
    int type = png_get_color_type(png, info);
    int has_alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    // Everything to 8-bit RGBA: palettes and low bit depths expanded, 16-bit stripped, grey to
    // RGB, opaque images given an alpha of 255. No gamma conversion: tiles are sRGB, as is the output.
    png_set_expand(png);
    png_set_strip_16(png);
    if (!(type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    if (!has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row layout after expansion");
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 row = 0; row < height; row++) png_read_row(png, rgba + (size_t)row * width * 4, NULL);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    if (has_alpha) {
        // Premultiplied, as the resampler averages: a transparent pixel's colour never bleeds.
        size_t pixels = (size_t)width * height;
        for (size_t i = 0; i < pixels; i++) {
            uint8_t *p = rgba + i * 4;
            unsigned a = p[3];
            if (a != 255) {
                p[0] = (uint8_t)((p[0] * a + 127) / 255);
                p[1] = (uint8_t)((p[1] * a + 127) / 255);
                p[2] = (uint8_t)((p[2] * a + 127) / 255);
            }
        }
    }
    return 0;
}
