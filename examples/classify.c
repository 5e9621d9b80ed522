/* classify: loads a model compiled by kiln-compile with the runtime API,
 * feeds it one input file and prints the top scores of its first output.
 *
 *   kiln-classify MODEL.so INPUT.npy|INPUT.pb [--labels FILE] [--top K]
 *                 [--threads N]
 *
 * --labels names the classes (one per line, in output order); --top sets
 * how many scores are printed (default 5).
 *
 * A minimal user of libkiln_runtime (include/kiln/kiln_runtime.h): it
 * needs nothing from MLIR or LLVM. Build your own the same way:
 *   cc classify.c -Iinclude -Lbuild/lib -lkiln_runtime -o classify */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

enum { kMaxTop = 100, kMaxLabels = 100000 };

typedef struct Options {
  const char *model, *input, *labelsPath;
  int top, threads;
} Options;

/* Class names read from a labels file: one per line. */
typedef struct Labels {
  char **names;
  int64_t count;
  char *text; /* the whole file; names point into it */
} Labels;

static int fail(KilnStatus *s) {
  fprintf(stderr, "classify: error: %s\n", kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  return 1;
}

static int hasSuffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* The `index`-th element of a float tensor as a double. */
static double scoreAt(const KilnTensor *t, int64_t index) {
  if (kilnTensorGetElementType(t) == KILN_ELEMENT_TYPE_F64)
    return ((const double *)kilnTensorGetConstData(t))[index];
  return ((const float *)kilnTensorGetConstData(t))[index];
}

static void labelsDestroy(Labels *labels) {
  free(labels->names);
  free(labels->text);
}

/* Reads `path` into `labels`; returns 0, or 1 after printing an error. */
static int labelsRead(const char *path, Labels *labels) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "classify: error: %s: cannot open the labels file\n", path);
    return 1;
  }
  size_t cap = 4096, len = 0;
  char *text = malloc(cap);
  while (text) {
    size_t got = fread(text + len, 1, cap - len - 1, f);
    if (got == 0)
      break;
    len += got;
    if (len + 1 == cap) {
      char *grown = realloc(text, cap *= 2);
      if (!grown)
        free(text);
      text = grown;
    }
  }
  fclose(f);
  char **names = text ? calloc(kMaxLabels, sizeof(*names)) : NULL;
  if (!names) {
    free(text);
    fprintf(stderr, "classify: error: out of memory\n");
    return 1;
  }
  text[len] = '\0';
  int64_t count = 0;
  for (char *line = text; *line && count < kMaxLabels;) {
    char *end = strchr(line, '\n');
    if (end)
      *end = '\0';
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\r')
      line[n - 1] = '\0';
    names[count++] = line;
    line = end ? end + 1 : line + n;
  }
  *labels = (Labels){names, count, text};
  return 0;
}

/* Prints the `top` largest scores of `t` (a selection, fine for the
 * thousand classes of ImageNet), named by `labels` where it has a name. */
static void printTop(const KilnTensor *t, const char *name, int top,
                     const Labels *labels) {
  int64_t n = kilnTensorGetElementCount(t);
  int64_t best[kMaxTop];
  int found = 0;
  for (; found < top && found < n; ++found) {
    int64_t arg = -1;
    for (int64_t i = 0; i < n; ++i) {
      int taken = 0;
      for (int j = 0; j < found; ++j)
        taken |= best[j] == i;
      if (!taken && (arg < 0 || scoreAt(t, i) > scoreAt(t, arg)))
        arg = i;
    }
    best[found] = arg;
  }
  printf("top %d of '%s' (%lld scores):\n", found, name, (long long)n);
  for (int j = 0; j < found; ++j) {
    if (best[j] < labels->count)
      printf("  %d. %s (class %lld)  score %.6g\n", j + 1,
             labels->names[best[j]], (long long)best[j], scoreAt(t, best[j]));
    else
      printf("  %d. class %lld  score %.6g\n", j + 1, (long long)best[j],
             scoreAt(t, best[j]));
  }
}

static int run(KilnModel *model, KilnTensor *input, const Options *o,
               const Labels *labels) {
  int64_t numOutputs = kilnModelGetNumOutputs(model);
  KilnTensor **outputs = calloc((size_t)numOutputs + 1, sizeof(*outputs));
  if (!outputs)
    return 1;
  int rc = 1;
  /* Outputs sized for this input (a dynamic dim follows from the input's). */
  KilnStatus *s = kilnModelCreateOutputs(model, &input, 1, outputs);
  if (!s && o->threads > 0)
    s = kilnModelSetThreadCount(model, o->threads);
  if (!s)
    s = kilnModelRun(model, &input, 1, outputs, (size_t)numOutputs);
  if (s) {
    fail(s);
  } else if (numOutputs < 1 ||
             (kilnTensorGetElementType(outputs[0]) != KILN_ELEMENT_TYPE_F32 &&
              kilnTensorGetElementType(outputs[0]) != KILN_ELEMENT_TYPE_F64)) {
    fprintf(stderr, "classify: error: the first output is not f32 or f64\n");
  } else {
    printTop(outputs[0], kilnModelGetOutputName(model, 0), o->top, labels);
    rc = 0;
  }
  for (int64_t k = 0; k < numOutputs; ++k)
    kilnTensorDestroy(outputs[k]);
  free(outputs);
  return rc;
}

static int usage(void) {
  fprintf(stderr, "usage: kiln-classify MODEL.so INPUT.npy|INPUT.pb "
                  "[--labels FILE] [--top K] [--threads N]\n"
                  "       kiln-classify --version\n");
  return 2;
}

/* Parses a count in [1, max]; returns 0 when `text` is not one. */
static int parseCount(const char *text, int max) {
  char *end = NULL;
  long v = strtol(text, &end, 10);
  return *text && !*end && v >= 1 && v <= max ? (int)v : 0;
}

static int parseOptions(int argc, char **argv, Options *o) {
  static const struct option longOptions[] = {
      {"labels", required_argument, NULL, 'l'},
      {"top", required_argument, NULL, 'k'},
      {"threads", required_argument, NULL, 't'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0}};
  *o = (Options){.top = 5};
  for (int c; (c = getopt_long(argc, argv, "", longOptions, NULL)) != -1;) {
    if (c == 'V') {
      printf("kiln-classify %s\n", kilnRuntimeGetVersion());
      exit(0);
    } else if (c == 'l') {
      o->labelsPath = optarg;
    } else if (c == 'k' && (o->top = parseCount(optarg, kMaxTop))) {
    } else if (c == 't' && (o->threads = parseCount(optarg, 1024))) {
    } else {
      if (c == 'k' || c == 't')
        fprintf(stderr, "classify: error: --%s %s: expected 1 to %d\n",
                c == 'k' ? "top" : "threads", optarg,
                c == 'k' ? kMaxTop : 1024);
      return 0;
    }
  }
  if (argc - optind != 2)
    return 0;
  o->model = argv[optind];
  o->input = argv[optind + 1];
  return 1;
}

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, &o))
    return usage();
  Labels labels = {0};
  if (o.labelsPath && labelsRead(o.labelsPath, &labels))
    return 1;
  KilnModel *model = NULL;
  KilnStatus *s = kilnModelLoad(o.model, &model);
  int rc = 1;
  if (s) {
    rc = fail(s);
  } else if (kilnModelGetNumInputs(model) != 1) {
    fprintf(stderr, "classify: error: the model has %lld inputs, not 1\n",
            (long long)kilnModelGetNumInputs(model));
  } else {
    KilnTensor *input = NULL;
    s = hasSuffix(o.input, ".npy") ? kilnTensorReadNpyFile(o.input, &input)
                                   : kilnTensorReadPbFile(o.input, &input);
    rc = s ? fail(s) : run(model, input, &o, &labels);
    kilnTensorDestroy(input);
  }
  kilnModelDestroy(model);
  labelsDestroy(&labels);
  return rc;
}
