/* What the command lines of Kiln's model tools share; see tool_cli.h. */
#define _POSIX_C_SOURCE 200809L

#include "tools/common/tool_cli.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "kiln/kiln_runtime.h"
#include "kiln/version.h"

const char kilnToolExitCodeHelp[] =
    "Exit codes: 0 success (every expected output matches); 1 an output\n"
    "differs from its expected file; 2 bad flags or input files; 3 the\n"
    "model needs something Kiln does not support; 4 any other compile or\n"
    "run error.\n";

void kilnToolErrorV(const char *program, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *raw = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (!raw)
    abort();
  if (n <= 0 || vsnprintf(raw, (size_t)n + 1, fmt, ap) < 0)
    raw[0] = '\0';
  char *text = kilnPrintableTextCreate(raw);
  fprintf(stderr, "%s: error: %s\n", program, text);
  free(text);
  free(raw);
}

void kilnToolError(const char *program, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kilnToolErrorV(program, fmt, ap);
  va_end(ap);
}

void kilnToolPrintVersion(const char *program) {
  printf("%s %s\n", program, KILN_VERSION_STRING);
}

static bool containsWord(const char *s, const char *word) {
  size_t n = strlen(word);
  for (; *s; ++s)
    if (!strncasecmp(s, word, n))
      return true;
  return false;
}

bool kilnToolIsUnsupportedMessage(const char *msg) {
  return containsWord(msg, "unsupported") || containsWord(msg, "not support");
}

/* A file format people give a model compiler by mistake. */
typedef struct NonModel {
  const char *what; /* "a zip archive (...)" */
  const char *todo; /* what to give instead */
} NonModel;

static const char kExportToOnnx[] =
    "export the model to ONNX with torch.onnx.export(model, example_inputs, "
    "\"model.onnx\") and give that file";
static const char kConvertToOnnx[] =
    "convert it to ONNX (e.g. with tf2onnx) and give that file";

/* What the first bytes of a file say it is, when it is a format that is
 * not a model Kiln reads; ONNX (protobuf) has no magic number, so only
 * the others are recognised. False for anything else. */
static bool recogniseNonModel(const unsigned char *b, size_t n,
                              bool libraryIsModel, NonModel *out) {
  uint64_t header = 0; /* safetensors: a little-endian JSON header size */
  for (int i = 7; n >= 8 && i >= 0; --i)
    header = header << 8 | b[i];
  if (n >= 4 && !memcmp(b, "PK\3\4", 4))
    *out = (NonModel){"a zip archive (a PyTorch .pt/.pth checkpoint or "
                      "TorchScript file?)",
                      kExportToOnnx};
  else if (n >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5)
    *out = (NonModel){"a Python pickle (a PyTorch checkpoint?)", kExportToOnnx};
  else if (n >= 6 && !memcmp(b, "\x93NUMPY", 6))
    *out = (NonModel){"a NumPy array",
                      "give it to kiln-run as an input (--input NAME=FILE)"};
  else if (n >= 8 && !memcmp(b, "\x89HDF\r\n\x1a\n", 8))
    *out = (NonModel){"an HDF5 file (a Keras .h5 model?)", kConvertToOnnx};
  else if (n >= 8 && !memcmp(b + 4, "TFL3", 4))
    *out = (NonModel){"a TensorFlow Lite model", kConvertToOnnx};
  else if (n >= 4 && !memcmp(b, "GGUF", 4))
    *out = (NonModel){"a GGUF (llama.cpp) model", "Kiln compiles ONNX models"};
  else if (n >= 10 && b[8] == '{' && b[9] == '"' && header > 1 &&
           header < ((uint64_t)1 << 32))
    *out = (NonModel){"a safetensors file (weights without a graph)",
                      kExportToOnnx};
  else if (!libraryIsModel && n >= 4 && !memcmp(b, "\177ELF", 4))
    *out =
        (NonModel){"already a compiled library (ELF)", "run it with kiln-run"};
  else
    return false;
  return true;
}

bool kilnToolCheckModelFile(const char *program, const char *path,
                            bool libraryIsModel) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "%s: error: cannot open model '%s': %s\n", program, path,
            strerror(errno));
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    fprintf(stderr, "%s: error: model '%s' is not a regular file\n", program,
            path);
    return false;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot open model '%s': %s\n", program, path,
            strerror(errno));
    return false;
  }
  unsigned char head[16];
  size_t n = fread(head, 1, sizeof(head), f);
  fclose(f);
  NonModel nm;
  if (!recogniseNonModel(head, n, libraryIsModel, &nm))
    return true;
  fprintf(stderr, "%s: error: '%s' is %s, not an ONNX model: %s\n", program,
          path, nm.what, nm.todo);
  return false;
}
