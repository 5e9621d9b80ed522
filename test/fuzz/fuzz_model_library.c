/* libFuzzer harness: the checks kilnModelLoad makes on a model library
 * before and after dlopen, on arbitrary bytes: the integrity trailer
 * (kilnLibraryDigestCheck, on a memfd holding the bytes) and the metadata
 * text (kilnModelMetadataParse, then kilnModelMetadataCheckHost). dlopen
 * itself is not fuzzed: the digest is what keeps damaged files from it.
 *
 * Oracles besides the sanitizers: error messages are printable; the same
 * bytes sealed with a correct trailer always pass the digest check; parsed
 * input and output records have shapes kilnTensorCreate accepts. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/library_digest.h"
#include "runtime/model.h"
#include "runtime/tensor.h"
#include "test/fuzz/fuzz_runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* The digest check on `data` as a file: its verdict is only checked to be
 * printable; `sealed` (the bytes with their correct trailer) must pass. */
static void checkDigest(const uint8_t *data, size_t size) {
  int fd = memfd_create("kiln-fuzz-library", 0);
  if (fd < 0)
    __builtin_trap();
  uint8_t trailer[KILN_DIGEST_TRAILER_SIZE];
  memcpy(trailer, "KILNSUM1", 8);
  put64(trailer + 8, size);
  put64(trailer + 16, kilnDigest64(data, size));
  if ((size && write(fd, data, size) != (ssize_t)size))
    __builtin_trap();
  const char *why = kilnLibraryDigestCheck(fd, size);
  if (why && !kilnFuzzTextIsPrintable(why))
    __builtin_trap();
  if (write(fd, trailer, sizeof(trailer)) != (ssize_t)sizeof(trailer) ||
      kilnLibraryDigestCheck(fd, size + sizeof(trailer)))
    __builtin_trap();
  close(fd);
}

static void checkSlots(const KilnModelSlot *slots, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    size_t bytes;
    if (kilnFuzzCheckStatus(kilnTensorComputeByteSize(
            slots[i].type, slots[i].rank, slots[i].dims, &bytes)))
      __builtin_trap();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  checkDigest(data, size);
  KilnModelMetadata m;
  if (kilnFuzzCheckStatus(kilnModelMetadataParse((const char *)data, size, &m)))
    return 0;
  checkSlots(m.inputs, m.numInputs);
  checkSlots(m.outputs, m.numOutputs);
  kilnFuzzCheckStatus(kilnModelMetadataCheckHost(&m));
  kilnModelMetadataDestroy(&m);
  return 0;
}
