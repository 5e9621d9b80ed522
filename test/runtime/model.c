/* Unit tests of the runtime's model API (kilnModel*) and tensor buffers.
 * Prints to stderr for FileCheck (model-*.test):
 *
 *   kiln-test-model load LIB...   load each library: its metadata or error
 *   kiln-test-model digest LIB... each library's integrity digest or error
 *   kiln-test-model metadata      crafted metadata texts through the parser
 *   kiln-test-model run LIB       runs the fake model (Inputs/fake_model.c)
 *                                 correctly and with every kind of bad
 *                                 argument
 *   kiln-test-model tensors       alignment and caller-owned buffers */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"
#include "runtime/model.h"

static int failures;

/* Prints "LABEL: error: MSG" or "LABEL: ok" and releases `s`. */
static void report(const char *label, KilnStatus *s) {
  if (s)
    fprintf(stderr, "%s: error: %s\n", label, kilnStatusGetMessage(s));
  else
    fprintf(stderr, "%s: ok\n", label);
  kilnStatusDestroy(s);
}

static void printShape(KilnElementType type, int64_t rank,
                       const int64_t *dims) {
  fprintf(stderr, "%s[", kilnElementTypeGetName(type));
  for (int64_t d = 0; d < rank; ++d)
    fprintf(stderr, "%s%lld", d ? "x" : "", (long long)dims[d]);
  fprintf(stderr, "]");
}

static void printModel(const KilnModel *m) {
  fprintf(stderr, "  version %s target %s cpu %s features %s entry %s\n",
          kilnModelGetKilnVersion(m), kilnModelGetTarget(m), kilnModelGetCpu(m),
          kilnModelGetFeatures(m), kilnModelGetEntry(m));
  fprintf(stderr, "  options '%s' memory %lld\n", kilnModelGetOptions(m),
          (long long)kilnModelGetMemoryPlan(m));
  for (int64_t i = 0; i < kilnModelGetNumInputs(m); ++i) {
    fprintf(stderr, "  input %lld '%s' ", (long long)i,
            kilnModelGetInputName(m, i));
    printShape(kilnModelGetInputElementType(m, i), kilnModelGetInputRank(m, i),
               kilnModelGetInputDims(m, i));
    fprintf(stderr, "\n");
  }
  for (int64_t i = 0; i < kilnModelGetNumOutputs(m); ++i) {
    fprintf(stderr, "  output %lld '%s' ", (long long)i,
            kilnModelGetOutputName(m, i));
    printShape(kilnModelGetOutputElementType(m, i),
               kilnModelGetOutputRank(m, i), kilnModelGetOutputDims(m, i));
    fprintf(stderr, "\n");
  }
}

static int testLoad(int argc, char **argv) {
  fprintf(stderr, "TEST: load\n");
  for (int i = 0; i < argc; ++i) {
    KilnModel *m = (KilnModel *)1;
    KilnStatus *s = kilnModelLoad(argv[i], &m);
    const char *base = strrchr(argv[i], '/');
    base = base ? base + 1 : argv[i];
    if (s && m) {
      fprintf(stderr, "%s: out-parameter not NULL on failure\n", base);
      ++failures;
    }
    if (s) {
      /* Messages start with the path; print the part after it. */
      const char *msg = kilnStatusGetMessage(s);
      size_t n = strlen(argv[i]);
      fprintf(stderr, "%s: error: %s\n", base,
              strncmp(msg, argv[i], n) ? msg : msg + n + 2);
      kilnStatusDestroy(s);
      continue;
    }
    fprintf(stderr, "%s: loaded\n", base);
    printModel(m);
    kilnModelDestroy(m);
  }
  return failures != 0;
}

static void parseOne(const char *label, const char *text) {
  KilnModelMetadata m;
  KilnStatus *s = kilnModelMetadataParse(text, strlen(text), &m);
  if (!s) {
    fprintf(stderr, "%s: ok, %lld inputs", label, (long long)m.numInputs);
    for (int64_t i = 0; i < m.numInputs; ++i) {
      fprintf(stderr, " '%s' rank %lld", m.inputs[i].name,
              (long long)m.inputs[i].rank);
      for (int64_t d = 0; d < m.inputs[i].rank; ++d)
        if (m.inputs[i].dimNames[d])
          fprintf(stderr, " dim %lld '%s'", (long long)d,
                  m.inputs[i].dimNames[d]);
    }
    if (m.gpu)
      fprintf(stderr, ", gpu '%s'", m.gpu);
    if (m.memoryBytes)
      fprintf(stderr, ", memory %lld", (long long)m.memoryBytes);
    fprintf(stderr, "\n");
    kilnModelMetadataDestroy(&m);
    return;
  }
  report(label, s);
}

#define HEAD "kiln-model 1\nkiln-version 0.1.0\ntarget x86_64-pc-linux-gnu\n"

static int testMetadata(void) {
  fprintf(stderr, "TEST: metadata\n");
  parseOne("minimal", HEAD);
  parseOne("names", HEAD "input f32 0 a b%0A%0Dc%25%41%\n"
                         "input u8 1 0 \ninput bool 1 3\n\n");
  parseOne("empty", "");
  parseOne("no abi", "kiln-version 0.1.0\ntarget x86_64\n");
  parseOne("abi 10", "kiln-model 10\n");
  parseOne("abi empty", "kiln-model\n");
  parseOne("two abi", "kiln-model 1\nkiln-model 1\n");
  parseOne("no version", "kiln-model 1\ntarget x86_64\n");
  parseOne("no target", "kiln-model 1\nkiln-version 0.1.0\n");
  parseOne("two targets", HEAD "target x86_64\n");
  parseOne("bad dtype", HEAD "input f33 0 x\n");
  parseOne("no dtype", HEAD "input\n");
  parseOne("negative rank", HEAD "input f32 -1 x\n");
  parseOne("rank 65", HEAD "input f32 65 x\n");
  parseOne("missing dim", HEAD "output f32 2 1\n");
  parseOne("signed dim", HEAD "input f32 1 +3 x\n");
  parseOne("hex dim", HEAD "input f32 1 0x3 x\n");
  parseOne("huge dim", HEAD "input f32 1 99999999999999999999 x\n");
  parseOne("overflow", HEAD "input f32 2 4611686018427387904 8 x\n");
  parseOne("two spaces", HEAD "input f32  1 3 x\n");
  parseOne("gpu", HEAD "gpu cuda sm_90\n");
  parseOne("gpu sm_120a", HEAD "gpu cuda sm_120a\n");
  parseOne("negative_gpu kind", HEAD "gpu rocm gfx90a\n");
  parseOne("negative_gpu no kind", HEAD "gpu\n");
  parseOne("negative_gpu no arch", HEAD "gpu cuda\n");
  parseOne("negative_gpu arch", HEAD "gpu cuda compute_90\n");
  parseOne("negative_gpu short arch", HEAD "gpu cuda sm_9\n");
  parseOne("negative_gpu suffix", HEAD "gpu cuda sm_90x\n");
  parseOne("negative_gpu extra", HEAD "gpu cuda sm_90 sm_80\n");
  parseOne("negative_two gpu", HEAD "gpu cuda sm_90\ngpu cuda sm_90\n");
  parseOne("negative_shard plan", HEAD "shard xp:2\n");
  parseOne("negative_shard one", HEAD "shard tp:1\n");
  parseOne("negative_two shard", HEAD "shard tp:2\nshard tp:2\n");
  parseOne("checks", HEAD "check 1 a (Gather): out\ncheck 2 b (GatherND): x\n");
  parseOne("negative_check 2 first", HEAD "check 2 b (Gather): out\n");
  parseOne("negative_check no message", HEAD "check 1\n");
  parseOne("negative_check word", HEAD "check one a\n");
  parseOne("negative_check empty message", HEAD "check 1 \n");
  parseOne("negative_check next line", HEAD "check \n1 a\n");
  parseOne("memory", HEAD "memory 25953324\n");
  parseOne("negative_memory sign", HEAD "memory -1\n");
  parseOne("negative_memory none", HEAD "memory\n");
  parseOne("negative_memory two", HEAD "memory 1 2\n");
  parseOne("negative_memory huge", HEAD "memory 99999999999999999999\n");
  parseOne("dim names", HEAD "input f32 2 8 4 x\ndim-name input 0 0 bat ch%0A\n"
                             "output f32 1 8 y\ndim-name output 0 0 batch\n");
  parseOne("negative_dim-name before its slot", HEAD "dim-name input 0 0 n\n");
  parseOne("negative_dim-name dim", HEAD "input f32 1 8 x\n"
                                         "dim-name input 0 1 n\n");
  parseOne("negative_dim-name kind", HEAD "input f32 1 8 x\n"
                                          "dim-name inputs 0 0 n\n");
  parseOne("negative_dim-name no name", HEAD "input f32 1 8 x\n"
                                             "dim-name input 0 0\n");
  parseOne("negative_dim-name twice", HEAD "input f32 1 8 x\n"
                                           "dim-name input 0 0 n\n"
                                           "dim-name input 0 0 m\n");
  return 0;
}

static void testHostCheck(void) {
  fprintf(stderr, "TEST: host\n");
  KilnModelMetadata m;
  const char *text = "kiln-model 1\nkiln-version 0.1.0\ntarget x86_64\n";
  KilnStatus *s = kilnModelMetadataParse(text, strlen(text), &m);
  if (s) {
    report("host", s);
    return;
  }
  free(m.target);
  m.target = strdup("x86_64h-apple-darwin");
  report("x86_64h", kilnModelMetadataCheckHost(&m));
  free(m.target);
#if defined(__x86_64__)
  m.target = strdup("x86_64-unknown-linux-gnu");
#else
  m.target = strdup("aarch64-unknown-linux-gnu");
#endif
  free(m.features);
  m.features = strdup("+made-up,-avx512fp16,,+");
  report("unknown features", kilnModelMetadataCheckHost(&m));
  free(m.features);
  m.features = strdup("-sse4a,+avx512fp16");
  report("avx512fp16", kilnModelMetadataCheckHost(&m));
  free(m.version);
  m.version = strdup("0.1");
  report("version 0.1", kilnModelMetadataCheckHost(&m));
  kilnModelMetadataDestroy(&m);
}

/* A zeroed tensor; exits on failure. */
static KilnTensor *makeTensor(KilnElementType type, int64_t rank,
                              const int64_t *dims) {
  KilnTensor *t = NULL;
  KilnStatus *s = kilnTensorCreate(type, rank, dims, &t);
  if (s) {
    report("create", s);
    exit(1);
  }
  return t;
}

static void runCase(const char *label, KilnModel *m, KilnTensor **in,
                    size_t nIn, KilnTensor **out, size_t nOut) {
  report(label, kilnModelRun(m, in, nIn, out, nOut));
}

static void printOutputs(KilnTensor **out) {
  const float *scores = kilnTensorGetConstData(out[0]);
  fprintf(stderr, "scores:");
  for (int i = 0; i < 10; ++i)
    fprintf(stderr, " %g", scores[i]);
  fprintf(stderr, "\nthreads: %d\n",
          *(const int32_t *)kilnTensorGetConstData(out[1]));
}

static int testRun(const char *path) {
  fprintf(stderr, "TEST: run\n");
  KilnModel *m = NULL;
  KilnStatus *s = kilnModelLoad(path, &m);
  if (s) {
    report("load", s);
    return 1;
  }
  int64_t dims[] = {1, 10}, wrongDims[] = {2, 10};
  KilnTensor *image = makeTensor(KILN_ELEMENT_TYPE_F32, 2, dims);
  for (int i = 0; i < 10; ++i)
    ((float *)kilnTensorGetData(image))[i] = (float)i;
  KilnTensor *out[2] = {makeTensor(KILN_ELEMENT_TYPE_F32, 2, dims),
                        makeTensor(KILN_ELEMENT_TYPE_I32, 0, NULL)};
  runCase("good", m, &image, 1, out, 2);
  printOutputs(out);
  report("threads 3", kilnModelSetThreadCount(m, 3));
  runCase("good", m, &image, 1, out, 2);
  printOutputs(out);

  fprintf(stderr, "TEST: negative_run\n");
  report("threads 0", kilnModelSetThreadCount(m, 0));
  report("threads -2", kilnModelSetThreadCount(m, -2));
  report("threads null model", kilnModelSetThreadCount(NULL, 2));
  runCase("null model", NULL, &image, 1, out, 2);
  runCase("no inputs", m, NULL, 0, out, 2);
  runCase("null input array", m, NULL, 1, out, 2);
  runCase("null output array", m, &image, 1, NULL, 2);
  KilnTensor *two[2] = {image, image};
  runCase("two inputs", m, two, 2, out, 2);
  runCase("one output", m, &image, 1, out, 1);
  KilnTensor *nullIn = NULL;
  runCase("null input", m, &nullIn, 1, out, 2);
  KilnTensor *nullOut[2] = {out[0], NULL};
  runCase("null output", m, &image, 1, nullOut, 2);
  KilnTensor *wrongShape = makeTensor(KILN_ELEMENT_TYPE_F32, 2, wrongDims);
  runCase("wrong shape", m, &wrongShape, 1, out, 2);
  KilnTensor *wrongType = makeTensor(KILN_ELEMENT_TYPE_F64, 2, dims);
  runCase("wrong dtype", m, &wrongType, 1, out, 2);
  KilnTensor *wrongRank = makeTensor(KILN_ELEMENT_TYPE_F32, 1, dims + 1);
  runCase("wrong rank", m, &wrongRank, 1, out, 2);
  KilnTensor *swapped[2] = {out[1], out[0]};
  runCase("outputs swapped", m, &image, 1, swapped, 2);

  fprintf(stderr, "TEST: queries\n");
  fprintf(stderr, "out of range: %s %d %lld %s\n",
          kilnModelGetInputName(m, 1) ? "name" : "NULL",
          (int)kilnModelGetOutputElementType(m, -1),
          (long long)kilnModelGetOutputRank(m, 2),
          kilnModelGetInputDims(m, 5) ? "dims" : "NULL");
  fprintf(stderr, "null model: %lld %lld %s %s\n",
          (long long)kilnModelGetNumInputs(NULL),
          (long long)kilnModelGetNumOutputs(NULL),
          kilnModelGetTarget(NULL) ? "target" : "NULL",
          kilnModelGetOutputName(NULL, 0) ? "name" : "NULL");
  kilnModelDestroy(m);
  kilnModelDestroy(NULL);
  report("load null path", kilnModelLoad(NULL, &m));
  report("load null out", kilnModelLoad(path, NULL));
  kilnTensorDestroy(wrongShape);
  kilnTensorDestroy(wrongType);
  kilnTensorDestroy(wrongRank);
  kilnTensorDestroy(image);
  kilnTensorDestroy(out[0]);
  kilnTensorDestroy(out[1]);
  return 0;
}

static int testTensors(void) {
  fprintf(stderr, "TEST: tensors\n");
  int misaligned = 0;
  for (int64_t n = 0; n < 200; n += 7) {
    KilnTensor *t = makeTensor(KILN_ELEMENT_TYPE_U8, 1, &n);
    misaligned += ((uintptr_t)kilnTensorGetData(t) % 64) != 0;
    for (int64_t i = 0; i < n; ++i)
      misaligned += ((uint8_t *)kilnTensorGetData(t))[i] != 0;
    kilnTensorDestroy(t);
  }
  fprintf(stderr, "misaligned or nonzero: %d\n", misaligned);

  /* A stack buffer: freeing it would crash (and ASan would say so). */
  float buffer[6] = {1, 2, 3, 4, 5, 6};
  int64_t dims[] = {2, 3};
  KilnTensor *t = NULL;
  report("buffer", kilnTensorCreateWithBuffer(KILN_ELEMENT_TYPE_F32, 2, dims,
                                              buffer, sizeof(buffer), &t));
  fprintf(stderr, "borrowed: %s, %zu bytes\n",
          kilnTensorGetData(t) == (void *)buffer ? "same pointer" : "copied",
          kilnTensorGetByteSize(t));
  kilnTensorDestroy(t);
  report("larger buffer",
         kilnTensorCreateWithBuffer(KILN_ELEMENT_TYPE_F32, 1, dims, buffer,
                                    sizeof(buffer), &t));
  kilnTensorDestroy(t);
  t = (KilnTensor *)1;
  report("small buffer",
         kilnTensorCreateWithBuffer(KILN_ELEMENT_TYPE_F64, 2, dims, buffer,
                                    sizeof(buffer), &t));
  fprintf(stderr, "out after failure: %s\n", t ? "set" : "NULL");
  report("null data", kilnTensorCreateWithBuffer(KILN_ELEMENT_TYPE_F32, 2, dims,
                                                 NULL, 24, &t));
  report("null dims", kilnTensorCreateWithBuffer(KILN_ELEMENT_TYPE_F32, 2, NULL,
                                                 buffer, 24, &t));
  report("null out", kilnTensorCreateWithBuffer(KILN_ELEMENT_TYPE_F32, 2, dims,
                                                buffer, 24, NULL));
  report("bad type", kilnTensorCreateWithBuffer((KilnElementType)42, 2, dims,
                                                buffer, 24, &t));
  return 0;
}

/* Prints each library's digest (kilnModelLibraryGetDigest) or error. */
static int testDigest(int n, char **paths) {
  for (int i = 0; i < n; ++i) {
    uint64_t digest = 0;
    KilnStatus *s = kilnModelLibraryGetDigest(paths[i], &digest);
    if (s)
      fprintf(stderr, "error: %s\n", kilnStatusGetMessage(s));
    else
      fprintf(stderr, "digest %016llx\n", (unsigned long long)digest);
    kilnStatusDestroy(s);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "load"))
    return testLoad(argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "digest"))
    return testDigest(argc - 2, argv + 2);
  if (argc == 2 && !strcmp(argv[1], "metadata")) {
    testMetadata();
    testHostCheck();
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "run"))
    return testRun(argv[2]);
  if (argc == 2 && !strcmp(argv[1], "tensors"))
    return testTensors();
  fprintf(stderr, "usage: kiln-test-model load LIB... | digest LIB... | "
                  "metadata | run LIB | tensors\n");
  return 2;
}
