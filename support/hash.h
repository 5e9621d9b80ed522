/* FNV-1a, the 64-bit hash Kiln uses where it needs a stable, cheap one:
 * kiln-tune's workload keys (the same text hashes the same on every
 * machine and in every version that keeps the text), its library dedupe,
 * and the importer's name table. Not for anything adversarial. */
#ifndef KILN_SUPPORT_HASH_H
#define KILN_SUPPORT_HASH_H

#include <stddef.h>
#include <stdint.h>

/// The hash of nothing: the `h` to start from.
#define KILN_FNV1A_INIT 0xcbf29ce484222325ull

/// `h` (KILN_FNV1A_INIT, or the hash of what came before) extended by the
/// `n` bytes at `data`.
uint64_t kilnFnv1a(uint64_t h, const void *data, size_t n);

/// The hash of the NUL-terminated string `s`.
uint64_t kilnFnv1aString(const char *s);

#endif
