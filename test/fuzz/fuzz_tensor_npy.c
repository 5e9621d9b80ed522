/* libFuzzer harness: arbitrary bytes -> kilnTensorReadNpy (kiln-run's
 * --input FILE.npy, the runtime's C API).
 *
 * Besides the sanitizers, two oracles: an error's message is printable
 * (it quotes header bytes), and a tensor that parses survives a round trip
 * through kilnTensorWriteNpy and a second read with its type, shape and
 * bytes unchanged (a reader and writer that disagree would feed a model
 * other inputs than the file holds, silently). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"
#include "test/fuzz/fuzz_runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  KilnTensor *t = NULL;
  if (kilnFuzzCheckStatus(kilnTensorReadNpy(data, size, &t)))
    return 0;
  void *bytes = NULL;
  size_t len = 0;
  KilnTensor *again = NULL;
  if (kilnFuzzCheckStatus(kilnTensorWriteNpy(t, &bytes, &len)) ||
      kilnFuzzCheckStatus(kilnTensorReadNpy(bytes, len, &again)) ||
      !kilnFuzzTensorsEqual(t, again))
    __builtin_trap();
  free(bytes);
  kilnTensorDestroy(again);
  kilnTensorDestroy(t);
  return 0;
}
