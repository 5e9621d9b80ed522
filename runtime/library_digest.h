/* A model library's integrity digest: kiln-compile appends a trailer to
 * every library it links, and the runtime checks it before dlopen, so that
 * a library damaged on disk or in a copy (a few bytes changed anywhere in
 * its code, data or weights) is refused with a clear error instead of
 * crashing inside dlopen or the model, or computing something else.
 *
 * The trailer is the file's last 24 bytes, after everything the ELF file
 * describes (the dynamic loader ignores bytes past its segments):
 *
 *   "KILNSUM1"   8 bytes
 *   length       u64, little-endian: the bytes before the trailer
 *   digest       u64, little-endian: kilnDigest64 of those bytes
 *
 * The digest is not cryptographic: it finds accidents, not attackers (a
 * library is native code that anyone able to write it can change). */
#ifndef KILN_RUNTIME_LIBRARY_DIGEST_H
#define KILN_RUNTIME_LIBRARY_DIGEST_H

#include <stddef.h>
#include <stdint.h>

enum { KILN_DIGEST_TRAILER_SIZE = 24 };

/// A 64-bit hash of `data[0, len)`: four independent multiply-rotate lanes
/// over 32-byte stripes (several GB/s), then the tail, mixed to the end.
uint64_t kilnDigest64(const void *data, size_t len);

/// Appends the trailer to the file at `path` (a library just linked).
/// Returns 0, or the errno of what failed. (libc only: the compiler links
/// this file too.)
int kilnLibraryDigestAppend(const char *path);

/// Checks the trailer of the open file `fd` of `fileSize` bytes: present,
/// covering the rest of the file, and matching its bytes. Returns NULL if
/// it does (the digest then in *digest, unless `digest` is NULL), else why
/// not (a static string).
const char *kilnLibraryDigestCheck(int fd, uint64_t fileSize, uint64_t *digest);

#endif
