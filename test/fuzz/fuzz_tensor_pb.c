/* libFuzzer harness: arbitrary bytes -> kilnTensorReadPb (kiln-run's
 * --input FILE.pb, the ONNX test data's format).
 *
 * Besides the sanitizers: an error's message is printable (it may quote
 * the proto's name), and a tensor that parses has the byte size its type
 * and shape say and a NUL-free name. */
#include <stdint.h>
#include <string.h>

#include "kiln/kiln_runtime.h"
#include "test/fuzz/fuzz_runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  KilnTensor *t = NULL;
  if (kilnFuzzCheckStatus(kilnTensorReadPb(data, size, &t)))
    return 0;
  if (kilnTensorGetByteSize(t) !=
      (size_t)kilnTensorGetElementCount(t) *
          kilnElementTypeGetSize(kilnTensorGetElementType(t)))
    __builtin_trap();
  const char *name = kilnTensorGetName(t);
  if (name && strlen(name) > size)
    __builtin_trap();
  kilnTensorDestroy(t);
  return 0;
}
