/* Parsing the `kiln_model_metadata` text of a model library.
 *
 * Hand-written because the format is a few space-separated records per
 * line and the runtime may depend on libc only. The text comes from a
 * library we did not build, so every field is validated: numbers are
 * plain decimal without sign and overflow-checked, ranks and tensor sizes
 * bounded as kilnTensorCreate bounds them. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kiln/version.h"
#include "runtime/gpu.h"
#include "runtime/model.h"
#include "runtime/model_abi.h"
#include "runtime/shard_plan.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

const char *kilnRuntimeGetVersion(void) { return KILN_VERSION_STRING; }

/* A line without its '\n', and the text after its keyword. */
typedef struct Line {
  const char *begin, *end;
  int number; /* 1-based, for messages */
} Line;

static char *copyRange(const char *begin, const char *end) {
  size_t n = (size_t)(end - begin);
  char *s = malloc(n + 1);
  if (!s)
    abort();
  memcpy(s, begin, n);
  s[n] = '\0';
  return s;
}

/* Reads the space-delimited token at *p (up to `end`) as a decimal number
 * in 0..INT64_MAX and steps past it and one following space. */
static bool parseNumber(const char **p, const char *end, int64_t *out) {
  const char *q = *p;
  int64_t v = 0;
  if (q == end || *q < '0' || *q > '9')
    return false;
  for (; q < end && *q >= '0' && *q <= '9'; ++q) {
    int digit = *q - '0';
    if (v > (INT64_MAX - digit) / 10)
      return false;
    v = v * 10 + digit;
  }
  if (q < end && *q != ' ')
    return false;
  *p = q < end ? q + 1 : q;
  *out = v;
  return true;
}

static bool parseElementType(const char **p, const char *end,
                             KilnElementType *out) {
  const char *space = memchr(*p, ' ', (size_t)(end - *p));
  if (!space)
    return false;
  size_t n = (size_t)(space - *p);
  for (int t = KILN_ELEMENT_TYPE_F16; t <= KILN_ELEMENT_TYPE_BOOL; ++t) {
    const char *name = kilnElementTypeGetName((KilnElementType)t);
    if (strlen(name) == n && !memcmp(name, *p, n)) {
      *out = (KilnElementType)t;
      *p = space + 1;
      return true;
    }
  }
  return false;
}

/* `<dtype> <rank> <d0> ... <name>` (the text after "input "/"output "). */
static KilnStatus *parseSlot(const char *p, const char *end, int line,
                             KilnModelSlot *slot) {
  *slot = (KilnModelSlot){0};
  if (!parseElementType(&p, end, &slot->type))
    return kilnStatusCreatef("metadata line %d: unknown element type", line);
  if (!parseNumber(&p, end, &slot->rank) || slot->rank > KILN_TENSOR_MAX_RANK)
    return kilnStatusCreatef("metadata line %d: bad rank", line);
  int64_t known[KILN_TENSOR_MAX_RANK]; /* dynamic dims as 1 */
  for (int64_t d = 0; d < slot->rank; ++d) {
    /* A dim right at the end of the line is fine (an empty name), but
     * there must be one per rank; `?` is a dim of dynamic size. */
    if (p < end && *p == '?' && (p + 1 == end || p[1] == ' ')) {
      slot->dims[d] = KILN_DIM_DYNAMIC;
      p += p + 1 == end ? 1 : 2;
    } else if (!parseNumber(&p, end, &slot->dims[d])) {
      return kilnStatusCreatef("metadata line %d: bad or missing dim %lld",
                               line, (long long)d);
    }
    known[d] = slot->dims[d] < 0 ? 1 : slot->dims[d];
  }
  size_t bytes;
  KilnStatus *s =
      kilnTensorComputeByteSize(slot->type, slot->rank, known, &bytes);
  if (s) {
    KilnStatus *wrapped = kilnStatusCreatef("metadata line %d: %s", line,
                                            kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    return wrapped;
  }
  slot->name = kilnModelAbiNameDecode(p, end);
  return NULL;
}

static KilnStatus *appendSlot(KilnModelSlot **slots, int64_t *count,
                              const char *p, const char *end, int line) {
  KilnModelSlot slot;
  KilnStatus *s = parseSlot(p, end, line, &slot);
  if (s)
    return s;
  KilnModelSlot *grown = realloc(*slots, (size_t)(*count + 1) * sizeof(slot));
  if (!grown)
    abort();
  *slots = grown;
  grown[(*count)++] = slot;
  return NULL;
}

/* `dim-name input|output I D NAME`: slot I's (already read) dim D is
 * called NAME. */
static KilnStatus *setDimName(KilnModelMetadata *m, const char *v,
                              const Line *l) {
  const char *p = v;
  bool input = l->end - p > 6 && !memcmp(p, "input ", 6);
  bool output = l->end - p > 7 && !memcmp(p, "output ", 7);
  p += input ? 6 : output ? 7 : 0;
  KilnModelSlot *slots = input ? m->inputs : m->outputs;
  int64_t count = input ? m->numInputs : m->numOutputs, i, d;
  if ((!input && !output) || !parseNumber(&p, l->end, &i) ||
      !parseNumber(&p, l->end, &d) || i >= count || d >= slots[i].rank ||
      p == l->end)
    return kilnStatusCreatef("metadata line %d: malformed 'dim-name' record "
                             "(expected input|output I D NAME, after slot "
                             "I's record)",
                             l->number);
  if (slots[i].dimNames[d])
    return kilnStatusCreatef("metadata line %d: repeated 'dim-name' record",
                             l->number);
  slots[i].dimNames[d] = kilnModelAbiNameDecode(p, l->end);
  return NULL;
}

/* A single-valued text record: repeated is an error. */
static KilnStatus *setString(char **field, const char *key, const char *p,
                             const char *end, int line) {
  if (*field)
    return kilnStatusCreatef("metadata line %d: repeated '%s' record", line,
                             key);
  *field = copyRange(p, end);
  return NULL;
}

/* `gpu <kind> <arch>`: checked here so that a model for a GPU this runtime
 * cannot drive fails at load, naming the record. */
static KilnStatus *setGpu(KilnModelMetadata *m, const char *v, const Line *l) {
  KilnStatus *s = setString(&m->gpu, "gpu", v, l->end, l->number);
  KilnGpuArch arch;
  KilnStatus *bad = s ? NULL : kilnGpuArchParse(m->gpu, &arch);
  if (!bad)
    return s;
  s = kilnStatusCreatef("metadata line %d: 'gpu' record: %s", l->number,
                        kilnStatusGetMessage(bad));
  kilnStatusDestroy(bad);
  return s;
}

/* `shard <plan>`: a plan this runtime knows (tp:N, dp:N). */
static KilnStatus *setShard(KilnModelMetadata *m, const char *v,
                            const Line *l) {
  KilnStatus *s = setString(&m->shard, "shard", v, l->end, l->number);
  KilnShardPlan plan;
  if (s || kilnShardPlanParse(m->shard, &plan))
    return s;
  return kilnStatusCreatef("metadata line %d: 'shard' record: unknown plan "
                           "'%s' (expected tp:N or dp:N)",
                           l->number, m->shard);
}

/* ---- profile records (kiln-compile --profile) ---------------------------- */

static int hexDigit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

/* The space-delimited token at *p, %XX escapes decoded, and steps past it
 * and one following space; NULL at the end of the line. */
static char *parseWord(const char **p, const char *end) {
  const char *q = *p;
  if (q == end || *q == ' ')
    return NULL;
  const char *stop = memchr(q, ' ', (size_t)(end - q));
  if (!stop)
    stop = end;
  char *s = copyRange(q, stop), *w = s;
  for (const char *r = s; *r; ++r) {
    int hi = r[0] == '%' && r[1] ? hexDigit(r[1]) : -1;
    int lo = hi >= 0 && r[2] ? hexDigit(r[2]) : -1;
    if (lo >= 0) {
      *w++ = (char)(hi * 16 + lo);
      r += 2;
    } else {
      *w++ = *r;
    }
  }
  *w = '\0';
  *p = stop < end ? stop + 1 : stop;
  return s;
}

static void destroyProfileOp(KilnModelProfileOp *op) {
  for (int64_t i = 0; op->names && i < op->numNodes; ++i) {
    free(op->names[i]);
    free(op->opTypes[i]);
  }
  free(op->names);
  free(op->opTypes);
  free(op->dims);
}

/* Bounds what a record may claim, so that a corrupt count cannot make us
 * allocate without end. */
enum { kMaxProfileOps = 1 << 24, kMaxProfileNodes = 1 << 16 };

/* `K FLOPS RANK|- D0 ... NNODES TYPE NAME ...` into *op. */
static bool parseProfileOp(const char *p, const char *end, int64_t want,
                           KilnModelProfileOp *op) {
  int64_t index, n;
  *op = (KilnModelProfileOp){.rank = -1};
  if (!parseNumber(&p, end, &index) || index != want ||
      !parseNumber(&p, end, &op->flops))
    return false;
  if (p + 1 < end && p[0] == '-' && p[1] == ' ')
    p += 2;
  else if (!parseNumber(&p, end, &op->rank) || op->rank > KILN_TENSOR_MAX_RANK)
    return false;
  if (op->rank > 0 && !(op->dims = calloc((size_t)op->rank, sizeof(int64_t))))
    abort();
  for (int64_t d = 0; d < op->rank; ++d)
    if (!parseNumber(&p, end, &op->dims[d]))
      return false;
  if (!parseNumber(&p, end, &n) || n > kMaxProfileNodes)
    return false;
  op->names = calloc((size_t)n + 1, sizeof(char *));
  op->opTypes = calloc((size_t)n + 1, sizeof(char *));
  if (!op->names || !op->opTypes)
    abort();
  for (; op->numNodes < n; ++op->numNodes) {
    op->opTypes[op->numNodes] = parseWord(&p, end);
    op->names[op->numNodes] = parseWord(&p, end);
    if (!op->names[op->numNodes]) {
      ++op->numNodes; /* free what was read */
      return false;
    }
  }
  return p == end;
}

/* The profile-op records announced and read so far. */
typedef struct ProfileState {
  int64_t capacity, read;
} ProfileState;

static KilnStatus *parseProfile(KilnModelMetadata *m, ProfileState *ps,
                                const char *v, const Line *l) {
  int64_t n;
  if (m->profiled)
    return kilnStatusCreatef("metadata line %d: repeated 'profile' record",
                             l->number);
  if (!parseNumber(&v, l->end, &n) || v != l->end || n > kMaxProfileOps)
    return kilnStatusCreatef("metadata line %d: bad 'profile' record",
                             l->number);
  m->profiled = true;
  m->profileOps = calloc((size_t)n + 1, sizeof(KilnModelProfileOp));
  if (!m->profileOps)
    abort();
  ps->capacity = n;
  return NULL;
}

static KilnStatus *appendProfileOp(KilnModelMetadata *m, ProfileState *ps,
                                   const char *v, const Line *l) {
  if (!m->profiled)
    return kilnStatusCreatef("metadata line %d: 'profile-op' record before "
                             "'profile'",
                             l->number);
  if (ps->read == ps->capacity)
    return kilnStatusCreatef("metadata line %d: more 'profile-op' records "
                             "than 'profile' says",
                             l->number);
  KilnModelProfileOp *op = &m->profileOps[ps->read];
  if (!parseProfileOp(v, l->end, ps->read, op)) {
    destroyProfileOp(op);
    *op = (KilnModelProfileOp){0};
    return kilnStatusCreatef("metadata line %d: bad 'profile-op' record",
                             l->number);
  }
  ++ps->read;
  return NULL;
}

/* `check N MESSAGE`: the message of run-time check N, numbered from 1 in
 * order. */
static KilnStatus *appendCheck(KilnModelMetadata *m, const char *v,
                               const Line *l) {
  /* The text is not NUL-terminated at the line's end (strtoll would read
   * on): parseNumber stays within it. */
  const char *p = v;
  int64_t n;
  if (!parseNumber(&p, l->end, &n) || n != m->numChecks + 1 || p >= l->end ||
      p[-1] != ' ')
    return kilnStatusCreatef("metadata line %d: malformed 'check' record "
                             "(expected 'check %lld MESSAGE')",
                             l->number, (long long)m->numChecks + 1);
  char **grown = realloc(m->checks, (size_t)(n) * sizeof(*grown));
  if (!grown)
    abort();
  m->checks = grown;
  m->checks[m->numChecks++] = copyRange(p, l->end);
  return NULL;
}

static bool keyIs(const Line *l, const char *key, const char **value) {
  size_t n = strlen(key);
  if ((size_t)(l->end - l->begin) < n || memcmp(l->begin, key, n))
    return false;
  if (l->begin + n == l->end) {
    *value = l->end;
    return true;
  }
  if (l->begin[n] != ' ')
    return false;
  *value = l->begin + n + 1;
  return true;
}

static KilnStatus *parseLine(const Line *l, KilnModelMetadata *m, bool *sawAbi,
                             ProfileState *ps) {
  const char *v;
  if (keyIs(l, "kiln-model", &v)) {
    if (*sawAbi)
      return kilnStatusCreatef("metadata line %d: repeated 'kiln-model' record",
                               l->number);
    *sawAbi = true;
    size_t n = (size_t)(l->end - v);
    if (n != 1 || *v != '0' + KILN_MODEL_ABI_VERSION)
      return kilnStatusCreatef("unsupported Kiln model ABI '%.*s' (this "
                               "runtime reads version %d)",
                               (int)(n > 32 ? 32 : n), v,
                               KILN_MODEL_ABI_VERSION);
    return NULL;
  }
  if (keyIs(l, "kiln-version", &v))
    return setString(&m->version, "kiln-version", v, l->end, l->number);
  if (keyIs(l, "target", &v))
    return setString(&m->target, "target", v, l->end, l->number);
  if (keyIs(l, "cpu", &v))
    return setString(&m->cpu, "cpu", v, l->end, l->number);
  if (keyIs(l, "features", &v))
    return setString(&m->features, "features", v, l->end, l->number);
  if (keyIs(l, "options", &v))
    return setString(&m->options, "options", v, l->end, l->number);
  if (keyIs(l, "entry", &v))
    return setString(&m->entry, "entry", v, l->end, l->number);
  if (keyIs(l, "gpu", &v))
    return setGpu(m, v, l);
  if (keyIs(l, "shard", &v))
    return setShard(m, v, l);
  if (keyIs(l, "input", &v))
    return appendSlot(&m->inputs, &m->numInputs, v, l->end, l->number);
  if (keyIs(l, "output", &v))
    return appendSlot(&m->outputs, &m->numOutputs, v, l->end, l->number);
  if (keyIs(l, "dim-name", &v))
    return setDimName(m, v, l);
  if (keyIs(l, "memory", &v)) {
    const char *p = v;
    if (!parseNumber(&p, l->end, &m->memoryBytes) || p != l->end)
      return kilnStatusCreatef("metadata line %d: malformed 'memory' record",
                               l->number);
    return NULL;
  }
  if (keyIs(l, "check", &v))
    return appendCheck(m, v, l);
  if (keyIs(l, "specialization", &v)) {
    char **grown =
        realloc(m->specializations,
                (size_t)(m->numSpecializations + 1) * sizeof(*grown));
    if (!grown)
      abort();
    m->specializations = grown;
    m->specializations[m->numSpecializations++] = copyRange(v, l->end);
    return NULL;
  }
  if (keyIs(l, "profile", &v))
    return parseProfile(m, ps, v, l);
  if (keyIs(l, "profile-op", &v)) {
    KilnStatus *s = appendProfileOp(m, ps, v, l);
    m->numProfileOps = ps->read;
    return s;
  }
  return NULL; /* unknown records are for newer readers */
}

static void setDefault(char **field, const char *value) {
  if (!*field)
    *field = copyRange(value, value + strlen(value));
}

KilnStatus *kilnModelMetadataParse(const char *text, size_t len,
                                   KilnModelMetadata *out) {
  *out = (KilnModelMetadata){0};
  bool sawAbi = false;
  ProfileState ps = {0, 0};
  KilnStatus *s = NULL;
  const char *p = text, *end = text + len;
  for (int number = 1; p < end && !s; ++number) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    Line l = {p, nl ? nl : end, number};
    s = parseLine(&l, out, &sawAbi, &ps);
    p = nl ? nl + 1 : end;
  }
  if (!s && !sawAbi)
    s = kilnStatusCreatef("not a Kiln model library (its metadata has no "
                          "'kiln-model' record)");
  if (!s && !out->version)
    s = kilnStatusCreatef("the metadata has no 'kiln-version' record");
  if (!s && !out->target)
    s = kilnStatusCreatef("the metadata has no 'target' record");
  if (!s && ps.read != ps.capacity)
    s = kilnStatusCreatef("the metadata's 'profile' record announces %lld "
                          "'profile-op' records, %lld follow",
                          (long long)ps.capacity, (long long)ps.read);
  if (s) {
    kilnModelMetadataDestroy(out);
    return s;
  }
  setDefault(&out->cpu, "generic");
  setDefault(&out->features, "-");
  setDefault(&out->options, "");
  setDefault(&out->entry, "main_graph");
  return NULL;
}

/* The architecture part of this host's LLVM triple. */
static const char *hostArch(void) {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#else
  return "unknown";
#endif
}

/* Does this CPU have the LLVM target feature `name` (without its sign)?
 * True for features we cannot test: only the common x86 vector and
 * bit-manipulation extensions are checked, those a model built with
 * --cpu= for a newer CPU would die on with SIGILL. */
static bool hostHasFeature(const char *name, size_t n) {
#if defined(__x86_64__)
  /* __builtin_cpu_supports needs string literals. */
#define KILN_FEATURE(f)                                                        \
  if (n == sizeof(f) - 1 && !memcmp(name, f, n))                               \
    return __builtin_cpu_supports(f);
  __builtin_cpu_init();
  KILN_FEATURE("sse4.1")
  KILN_FEATURE("sse4.2")
  KILN_FEATURE("avx")
  KILN_FEATURE("avx2")
  KILN_FEATURE("fma")
  KILN_FEATURE("f16c")
  KILN_FEATURE("bmi")
  KILN_FEATURE("bmi2")
  KILN_FEATURE("avx512f")
  KILN_FEATURE("avx512bw")
  KILN_FEATURE("avx512dq")
  KILN_FEATURE("avx512vl")
  KILN_FEATURE("avx512cd")
  KILN_FEATURE("avx512vnni")
  KILN_FEATURE("avx512bf16")
  KILN_FEATURE("avx512fp16")
#undef KILN_FEATURE
#endif
  (void)name;
  (void)n;
  return true;
}

/* Checks the "+f1,-f2,..." list: every enabled feature the host lacks is
 * an error naming it. */
static KilnStatus *checkFeatures(const char *features) {
  for (const char *p = features; *p;) {
    size_t n = strcspn(p, ",");
    if (n > 1 && p[0] == '+' && !hostHasFeature(p + 1, n - 1))
      return kilnStatusCreatef("the model needs CPU feature %.*s, which this "
                               "CPU lacks (recompile it for this CPU)",
                               (int)n, p);
    p += n + (p[n] == ',');
  }
  return NULL;
}

/* `bytes` in the largest unit that leaves a number of at least 1. */
static void formatBytes(char *out, size_t size, int64_t bytes) {
  static const char *const kUnits[] = {"bytes", "KiB", "MiB", "GiB",
                                       "TiB",   "PiB", "EiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  snprintf(out, size, u ? "%.1f %s" : "%.0f %s", v, kUnits[u]);
}

/* A model whose buffers cannot fit this machine's memory would be killed
 * for memory midway through a run, or crash when an allocation fails:
 * refused at load instead. */
KilnStatus *kilnModelCheckMemoryPlan(int64_t bytes) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  int64_t limit = pages > 0 && pageSize > 0 && pages <= INT64_MAX / pageSize
                      ? (int64_t)pages * pageSize
                      : INT64_MAX;
  const char *given = getenv("KILN_MEMORY_LIMIT");
  if (given && *given) {
    char *end;
    long long v = strtoll(given, &end, 10);
    if (*end || v < 0)
      return kilnStatusCreatef("KILN_MEMORY_LIMIT must be a number of bytes, "
                               "got '%s'",
                               given);
    limit = v;
  }
  if (bytes <= limit)
    return NULL;
  char need[64], have[32];
  formatBytes(need, sizeof(need), bytes);
  if (bytes >= 1024)
    snprintf(need + strlen(need), sizeof(need) - strlen(need), " (%lld bytes)",
             (long long)bytes);
  formatBytes(have, sizeof(have), limit);
  return kilnStatusCreatef("the model needs %s of working memory for a run "
                           "(its memory plan); this machine has %s%s",
                           need, have,
                           given && *given ? " (KILN_MEMORY_LIMIT)" : "");
}

KilnStatus *kilnModelMetadataCheckHost(const KilnModelMetadata *m) {
  if (strcmp(m->version, KILN_VERSION_STRING))
    return kilnStatusCreatef("the model was built by Kiln %s; this runtime "
                             "is Kiln %s (recompile the model)",
                             m->version, KILN_VERSION_STRING);
  const char *arch = hostArch();
  size_t n = strcspn(m->target, "-");
  if (strlen(arch) != n || strncmp(m->target, arch, n))
    return kilnStatusCreatef("the model was compiled for %s; this host is "
                             "%s",
                             m->target, arch);
  KilnStatus *s = checkFeatures(m->features);
  return s ? s : kilnModelCheckMemoryPlan(m->memoryBytes);
}

static void destroySlots(KilnModelSlot *slots, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    free(slots[i].name);
    for (int64_t d = 0; d < slots[i].rank; ++d)
      free(slots[i].dimNames[d]);
  }
  free(slots);
}

void kilnModelMetadataDestroy(KilnModelMetadata *m) {
  free(m->version);
  free(m->target);
  free(m->cpu);
  free(m->features);
  free(m->options);
  free(m->entry);
  free(m->gpu);
  free(m->shard);
  destroySlots(m->inputs, m->numInputs);
  destroySlots(m->outputs, m->numOutputs);
  for (int64_t i = 0; i < m->numProfileOps; ++i)
    destroyProfileOp(&m->profileOps[i]);
  free(m->profileOps);
  for (int64_t i = 0; i < m->numChecks; ++i)
    free(m->checks[i]);
  free(m->checks);
  for (int64_t i = 0; i < m->numSpecializations; ++i)
    free(m->specializations[i]);
  free(m->specializations);
  *m = (KilnModelMetadata){0};
}
