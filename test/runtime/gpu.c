/* Tests of the runtime's GPU side with the hand-written CUDA model
 * (Inputs/fake_gpu_model.c), usually over the fake driver
 * (Inputs/fake_cuda.c). Prints to stderr for FileCheck (gpu-*.test):
 *
 *   kiln-test-gpu run LIB N   load, N runs (outputs or error), destroy
 *   kiln-test-gpu runs LIB W...  load, one run per W with x of 1 x W (the
 *                             static 4 or DYNAMIC's n) holding run*100 +
 *                             1, 2, ..., W: y or the error; destroy
 *   kiln-test-gpu twice LIB   a second load of a loaded library, and a
 *                             load after the first is destroyed
 *   kiln-test-gpu shim LIB    the library's code called without the
 *                             runtime (dlopen): the shim does nothing */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

/* Prints "LABEL: error: MSG" or "LABEL: ok" and releases `s`. */
static bool report(const char *label, KilnStatus *s) {
  if (s)
    fprintf(stderr, "%s: error: %s\n", label, kilnStatusGetMessage(s));
  else
    fprintf(stderr, "%s: ok\n", label);
  kilnStatusDestroy(s);
  return s == NULL;
}

static KilnTensor *makeTensor(KilnElementType type, int64_t rank,
                              const int64_t *dims) {
  KilnTensor *t = NULL;
  if (!report("tensor", kilnTensorCreate(type, rank, dims, &t)))
    exit(1);
  return t;
}

static void printOutputs(KilnTensor **out) {
  const float *y = kilnTensorGetConstData(out[0]);
  const int8_t *z = kilnTensorGetConstData(out[1]);
  fprintf(stderr, "y: %g %g %g %g z: %d %d %d %d\n", y[0], y[1], y[2], y[3],
          z[0], z[1], z[2], z[3]);
}

static int testRun(const char *path, int runs) {
  fprintf(stderr, "TEST: run\n");
  KilnModel *m = NULL;
  if (!report("load", kilnModelLoad(path, &m)))
    return 1;
  fprintf(stderr, "gpu: %s\n", kilnModelGetGpu(m));
  report("threads", kilnModelSetThreadCount(m, 2));
  int64_t dims[] = {1, 4}, four = 4;
  KilnTensor *x = makeTensor(KILN_ELEMENT_TYPE_F32, 2, dims);
  for (int i = 0; i < 4; ++i)
    ((float *)kilnTensorGetData(x))[i] = (float)(i + 1);
  KilnTensor *out[2] = {makeTensor(KILN_ELEMENT_TYPE_F32, 2, dims),
                        makeTensor(KILN_ELEMENT_TYPE_I8, 1, &four)};
  for (int i = 0; i < runs; ++i) {
    memset(kilnTensorGetData(out[0]), 0, 16);
    if (report("run", kilnModelRun(m, &x, 1, out, 2)))
      printOutputs(out);
  }
  kilnModelDestroy(m);
  kilnTensorDestroy(x);
  kilnTensorDestroy(out[0]);
  kilnTensorDestroy(out[1]);
  return 0;
}

static int testTwice(const char *path) {
  fprintf(stderr, "TEST: twice\n");
  KilnModel *a = NULL, *b = NULL;
  report("first", kilnModelLoad(path, &a));
  KilnStatus *s = kilnModelLoad(path, &b);
  /* The message starts with the path. */
  const char *msg = kilnStatusGetMessage(s);
  fprintf(stderr, "second: %s%s\n", s ? "error: " : "",
          s ? msg + strlen(path) + 2 : "ok");
  kilnStatusDestroy(s);
  kilnModelDestroy(b);
  kilnModelDestroy(a);
  report("after destroy", kilnModelLoad(path, &b));
  kilnModelDestroy(b);
  return 0;
}

static int testRuns(const char *path, int numRuns, char **widths) {
  fprintf(stderr, "TEST: runs\n");
  KilnModel *m = NULL;
  if (!report("load", kilnModelLoad(path, &m)))
    return 1;
  int64_t four = 4;
  KilnTensor *z = makeTensor(KILN_ELEMENT_TYPE_I8, 1, &four);
  for (int r = 0; r < numRuns; ++r) {
    int64_t dims[] = {1, atoi(widths[r])};
    KilnTensor *x = makeTensor(KILN_ELEMENT_TYPE_F32, 2, dims);
    KilnTensor *y = makeTensor(KILN_ELEMENT_TYPE_F32, 2, dims);
    for (int64_t i = 0; i < dims[1]; ++i)
      ((float *)kilnTensorGetData(x))[i] = (float)(100 * r + i + 1);
    KilnTensor *out[2] = {y, z};
    if (report("run", kilnModelRun(m, &x, 1, out, 2))) {
      fprintf(stderr, "y:");
      for (int64_t i = 0; i < dims[1]; ++i)
        fprintf(stderr, " %g", ((const float *)kilnTensorGetConstData(y))[i]);
      fprintf(stderr, "\n");
    }
    kilnTensorDestroy(x);
    kilnTensorDestroy(y);
  }
  kilnModelDestroy(m);
  kilnTensorDestroy(z);
  return 0;
}

typedef struct Desc {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Desc;

static int testShim(const char *path) {
  fprintf(stderr, "TEST: shim\n");
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  void (*load)(void), (*unload)(void);
  int (*run)(void **);
  void *sym = dlsym(lib, "kiln_model_gpu_load");
  memcpy(&load, &sym, sizeof(sym));
  sym = dlsym(lib, "kiln_model_gpu_unload");
  memcpy(&unload, &sym, sizeof(sym));
  sym = dlsym(lib, "kiln_model_run");
  memcpy(&run, &sym, sizeof(sym));
  float x[4] = {1, 2, 3, 4}, y[4] = {-1, -1, -1, -1};
  int8_t z[4] = {-1, -1, -1, -1};
  Desc dx = {x, x, 0, {1, 4}, {4, 1}}, dy = {y, y, 0, {1, 4}, {4, 1}};
  Desc dz = {z, z, 0, {4, 1}, {1, 0}};
  void *args[] = {&dx, &dy, &dz};
  load();
  int rc = run(args);
  unload();
  fprintf(stderr, "without the runtime: rc %d, y[0] %g, z[0] %d\n", rc, y[0],
          z[0]);
  dlclose(lib);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "run"))
    return testRun(argv[2], atoi(argv[3]));
  if (argc >= 3 && !strcmp(argv[1], "runs"))
    return testRuns(argv[2], argc - 3, argv + 3);
  if (argc == 3 && !strcmp(argv[1], "twice"))
    return testTwice(argv[2]);
  if (argc == 3 && !strcmp(argv[1], "shim"))
    return testShim(argv[2]);
  fprintf(stderr, "usage: kiln-test-gpu run LIB N | runs LIB W... | twice "
                  "LIB | shim LIB\n");
  return 2;
}
