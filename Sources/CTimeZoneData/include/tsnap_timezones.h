#ifndef TSNAP_TIMEZONES_H
#define TSNAP_TIMEZONES_H
#include <stddef.h>

/// The time-zone boundary file (timezones.bin beside this target's sources, built by
/// scripts/build_timezone_data.py) linked into the binary's read-only data: the pages are mapped
/// with the program but read from disk only when a lookup first touches them.
const unsigned char *tsnap_timezone_data(void);
/// Its size in bytes.
size_t tsnap_timezone_data_size(void);

#endif
