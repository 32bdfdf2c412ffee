#ifndef TSNAP_SHA256_H
#define TSNAP_SHA256_H
/// SHA-256 block compression with the x86 SHA extensions (SHA-NI), for `ContentHash`. Every track
/// file and every published image is hashed, and the portable Swift compression runs at about
/// 200 MB/s: a tenth of a worker on the 2,000-track archive. The instructions do the same rounds
/// about five times faster. The Swift code asks `tsnap_sha256_hardware_available` once and keeps
/// its own implementation for processors without them (and for other architectures).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The 64 round constants K0…K63 (FIPS 180-4 §4.2.2), for the portable Swift rounds too.
const uint32_t *tsnap_sha256_round_constants(void);

/// 1 when this processor has the SHA extensions (and the SSSE3 and SSE4.1 the code also uses), else 0.
int tsnap_sha256_hardware_available(void);

/// Compresses `blocks` 64-byte blocks at `data` into `state` (FIPS 180-4 §6.2.2; `state` holds
/// H0…H7 in order). Call only when `tsnap_sha256_hardware_available()` is 1.
void tsnap_sha256_hardware_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#ifdef __cplusplus
}
#endif
#endif
