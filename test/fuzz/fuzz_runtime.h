/* What the runtime readers' harnesses check of every result. Header-only:
 * each harness is one executable. */
#ifndef KILN_TEST_FUZZ_FUZZ_RUNTIME_H
#define KILN_TEST_FUZZ_FUZZ_RUNTIME_H

#include <stdbool.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

/* Whether `text` is non-empty and has no control byte but tabs and
 * newlines (DEL included): the runtime escapes what it quotes from files
 * (kilnPrintableTextCreate, kiln/kiln_runtime.h). */
static inline bool kilnFuzzTextIsPrintable(const char *text) {
  if (!*text)
    return false;
  for (const unsigned char *s = (const unsigned char *)text; *s; ++s)
    if ((*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7F)
      return false;
  return true;
}

/* Whether `status` is an error; traps on an unprintable message. Consumes
 * the status. */
static inline bool kilnFuzzCheckStatus(KilnStatus *status) {
  if (!status)
    return false;
  if (!kilnFuzzTextIsPrintable(kilnStatusGetMessage(status)))
    __builtin_trap();
  kilnStatusDestroy(status);
  return true;
}

static inline bool kilnFuzzTensorsEqual(const KilnTensor *a,
                                        const KilnTensor *b) {
  int64_t rank = kilnTensorGetRank(a);
  return kilnTensorGetElementType(a) == kilnTensorGetElementType(b) &&
         rank == kilnTensorGetRank(b) &&
         (!rank || !memcmp(kilnTensorGetDims(a), kilnTensorGetDims(b),
                           (size_t)rank * sizeof(int64_t))) &&
         kilnTensorGetByteSize(a) == kilnTensorGetByteSize(b) &&
         (!kilnTensorGetByteSize(a) ||
          !memcmp(kilnTensorGetConstData(a), kilnTensorGetConstData(b),
                  kilnTensorGetByteSize(a)));
}

#endif
