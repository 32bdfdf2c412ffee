#include "tsnap_timezones.h"

extern const unsigned char tsnap_timezone_blob_start[];
extern const unsigned char tsnap_timezone_blob_end[];

const unsigned char *tsnap_timezone_data(void) { return tsnap_timezone_blob_start; }

size_t tsnap_timezone_data_size(void) { return (size_t)(tsnap_timezone_blob_end - tsnap_timezone_blob_start); }
