#include "tsnap_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t capacity;
} tsnap_jpeg_errors;

static void tsnap_jpeg_fail(j_common_ptr info) {
    tsnap_jpeg_errors *errors = (tsnap_jpeg_errors *)info->err;
    char text[JMSG_LENGTH_MAX];
    errors->base.format_message(info, text);
    snprintf(errors->message, errors->capacity, "%s", text);
    longjmp(errors->jump, 1);
}

// Level -1 is a warning about damaged data ("Premature end of JPEG file", "Corrupt JPEG data:
// bad Huffman code"): libjpeg would go on and fill the rest grey. A tile like that is refused.
static void tsnap_jpeg_emit(j_common_ptr info, int level) {
    if (level < 0) tsnap_jpeg_fail(info);
}

int tsnap_jpeg_decode_rgba(const uint8_t *jpeg, size_t count, uint64_t max_pixels, uint32_t *width, uint32_t *height,
                           uint8_t **rgba, char *message, size_t message_capacity) {
    struct jpeg_decompress_struct info;
    tsnap_jpeg_errors errors;
    uint8_t *volatile pixels = NULL;
    *rgba = NULL;
    message[0] = 0;
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = tsnap_jpeg_fail;
    errors.base.emit_message = tsnap_jpeg_emit;
    errors.message = message;
    errors.capacity = message_capacity;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, jpeg, (unsigned long)count);
    jpeg_read_header(&info, TRUE);
    if ((uint64_t)info.image_width * info.image_height > max_pixels) {
        snprintf(message, message_capacity, "the JPEG is %ux%u pixels, more than the %llu allowed", info.image_width,
                 info.image_height, (unsigned long long)max_pixels);
        jpeg_destroy_decompress(&info);
        return 2;
    }
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    pixels = malloc(stride * info.output_height);
    if (!pixels) {
        snprintf(message, message_capacity, "out of memory for a %ux%u JPEG", info.output_width, info.output_height);
        jpeg_destroy_decompress(&info);
        return 3;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = info.output_width;
    *height = info.output_height;
    jpeg_destroy_decompress(&info);
    *rgba = pixels;
    return 0;
}

void tsnap_jpeg_free_pixels(uint8_t *rgba) { free(rgba); }

int tsnap_jpeg_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, uint8_t **jpeg,
                           size_t *count, char *message, size_t message_capacity) {
    struct jpeg_compress_struct info;
    tsnap_jpeg_errors errors;
    unsigned long size = 0;
    message[0] = 0;
    *jpeg = NULL;
    *count = 0;
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = tsnap_jpeg_fail;
    errors.message = message;
    errors.capacity = message_capacity;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        return 1;
    }
    jpeg_create_compress(&info);
    unsigned char *buffer = NULL;
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + (size_t)info.next_scanline * width * 4);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *jpeg = buffer;
    *count = size;
    return 0;
}
