/* KilnModel: a model library (model.so) loaded with dlopen, its metadata,
 * and runs through its `kiln_model_run` entry point.
 *
 * The library's code is trusted once loaded (it is native code), but
 * nothing it declares is: the metadata is parsed defensively, and every
 * tensor passed to a run is checked against it, because a wrong shape
 * would make the compiled code read or write out of bounds. */
#define _GNU_SOURCE /* dladdr1 */

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <threads.h>

#include "runtime/gpu.h"
#include "runtime/library_digest.h"
#include "runtime/model.h"
#include "runtime/model_abi.h"
#include "runtime/run_guard.h"
#include "runtime/shard.h"
#include "runtime/status.h"

typedef int (*KilnModelRunFn)(void **args);
/* The shape function of a model with dynamic output dims:
 * kiln_model_output_dims(inputs, outputDims). */
typedef int (*KilnModelOutputDimsFn)(void **inputs, int64_t **outputDims);

enum { kProfileFields = 5 };

struct KilnModel {
  void *handle;
  char *path; /* as given to kilnModelLoad, for messages */
  KilnModelRunFn run;
  KilnModelOutputDimsFn outputDims; /* NULL: every output dim is static */
  KilnModelMetadata meta;
  int threads; /* 0: the OpenMP runtime's default */
  /* The OpenMP runtime the library links (omp_set_num_threads and
   * omp_get_max_threads, found through the library's own dependencies), so
   * the runtime itself needs none; NULL for a library without one. */
  void (*setOmpThreads)(int);
  int (*getOmpThreads)(void);
  KilnGpuModel *gpu; /* NULL for a CPU model */
  /* A sharded model's process: its rank and the number of processes
   * (runs need the plan's; loads do not: --summary outside mpirun). */
  int shardRank, shardProcesses;
  /* A profiled model's counter table, `kiln_model_profile`: a row of
   * kProfileFields (total ns, runs, last ns, last start ns, the library's
   * own) per profile-op record, then one for the whole run
   * (kiln-instrument-ops). NULL if not profiled. */
  int64_t *profile;
};

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/* The metadata's length, bounded by its symbol's size where the dynamic
 * symbol table says it, so a library whose array lacks its NUL cannot make
 * us read past it. */
static KilnStatus *metadataLength(const char *meta, size_t *outLen) {
  Dl_info info;
  const ElfW(Sym) *sym = NULL;
  if (dladdr1(meta, &info, (void **)&sym, RTLD_DL_SYMENT) && sym &&
      sym->st_size > 0) {
    size_t n = strnlen(meta, (size_t)sym->st_size);
    if (n == (size_t)sym->st_size)
      return kilnStatusCreatef("kiln_model_metadata is not NUL-terminated");
    *outLen = n;
    return NULL;
  }
  *outLen = strlen(meta);
  return NULL;
}

/* dlopen's message starts with the path it was given; drop it, since the
 * caller prefixes the path. */
static const char *dlerrorWithoutPath(const char *path) {
  const char *e = dlerror();
  if (!e)
    return "unknown error";
  size_t n = strlen(path);
  if (!strncmp(e, path, n) && !strncmp(e + n, ": ", 2))
    return e + n + 2;
  return e;
}

#if defined(__x86_64__)
#define KILN_HOST_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define KILN_HOST_ELF_MACHINE EM_AARCH64
#endif

/* Checks the ELF header and that every segment the loader maps lies within
 * the file: glibc maps a truncated library's segments past the end of the
 * file and the first access to them raises SIGBUS inside dlopen. Other
 * corruption (bytes changed in the middle) is the dynamic loader's to
 * detect. */
static KilnStatus *checkElf(FILE *f, off_t fileSize) {
  ElfW(Ehdr) eh;
  if (fread(&eh, 1, sizeof(eh), f) != sizeof(eh) ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG))
    return kilnStatusCreatef("not a shared library (no ELF header)");
  if (eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return kilnStatusCreatef("an ELF file for another kind of machine");
#ifdef KILN_HOST_ELF_MACHINE
  if (eh.e_machine != KILN_HOST_ELF_MACHINE)
    return kilnStatusCreatef("the library is for another architecture (ELF "
                             "machine %u)",
                             (unsigned)eh.e_machine);
#endif
  if (eh.e_type != ET_DYN)
    return kilnStatusCreatef("not a shared library (ELF type %u)",
                             (unsigned)eh.e_type);
  if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0 ||
      (uint64_t)eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(ElfW(Phdr)) >
          (uint64_t)fileSize ||
      fseeko(f, (off_t)eh.e_phoff, SEEK_SET) != 0)
    return kilnStatusCreatef("corrupt ELF file (program headers)");
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    ElfW(Phdr) ph;
    if (fread(&ph, 1, sizeof(ph), f) != sizeof(ph))
      return kilnStatusCreatef("corrupt ELF file (program headers)");
    if ((ph.p_type == PT_LOAD || ph.p_type == PT_DYNAMIC) &&
        (ph.p_offset > (uint64_t)fileSize ||
         ph.p_filesz > (uint64_t)fileSize - ph.p_offset))
      return kilnStatusCreatef("corrupt ELF file (segment %u runs past the "
                               "end of the file: truncated?)",
                               i);
  }
  return NULL;
}

/* Checks the file at `path` before dlopen trusts it: a regular file, an
 * ELF shared object for this machine, its integrity digest (into *digest
 * when not NULL). */
static KilnStatus *checkLibraryFile(const char *path, uint64_t *digest) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return kilnStatusCreatef("cannot open: %s", strerror(errno));
  struct stat st;
  KilnStatus *s = NULL;
  if (fstat(fileno(f), &st) != 0)
    s = kilnStatusCreatef("cannot open: %s", strerror(errno));
  else if (!S_ISREG(st.st_mode))
    s = kilnStatusCreatef("not a regular file");
  else if (!(s = checkElf(f, st.st_size))) {
    const char *why =
        kilnLibraryDigestCheck(fileno(f), (uint64_t)st.st_size, digest);
    if (why)
      s = kilnStatusCreatef("%s: the library is damaged or was changed after "
                            "kiln-compile built it (recompile it, or copy it "
                            "again)",
                            why);
  }
  fclose(f);
  return s;
}

KilnStatus *kilnModelLibraryGetDigest(const char *path, uint64_t *digest) {
  if (!path || !digest)
    return kilnStatusCreatef("kilnModelLibraryGetDigest: NULL argument");
  KilnStatus *s = checkLibraryFile(path, digest);
  if (!s)
    return NULL;
  KilnStatus *named =
      kilnStatusCreatef("%s: %s", path, kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  return named;
}

static KilnStatus *openLibrary(const char *path, void **outHandle) {
  *outHandle = NULL;
  KilnStatus *s = checkLibraryFile(path, NULL);
  if (s)
    return s;
  /* Without a '/', dlopen would search the library path instead. */
  bool bare = !strchr(path, '/');
  size_t n = strlen(path) + 3;
  char *full = malloc(n);
  if (!full)
    abort();
  snprintf(full, n, "%s%s", bare ? "./" : "", path);
  dlerror();
  *outHandle = dlopen(full, RTLD_NOW | RTLD_LOCAL);
  if (!*outHandle)
    s = kilnStatusCreatef("cannot load the model library: %s",
                          dlerrorWithoutPath(full));
  free(full);
  return s;
}

/* The counter table of a profiled model, which the library's constant
 * pointer `kiln_model_profile` points to. */
static KilnStatus *findProfile(KilnModel *m) {
  if (!m->meta.profiled || m->meta.numProfileOps == 0)
    return NULL;
  int64_t *const *table = dlsym(m->handle, "kiln_model_profile");
  if (!table || !*table)
    return kilnStatusCreatef("the metadata says the model is profiled, but "
                             "the library has no kiln_model_profile table");
  m->profile = *table;
  return NULL;
}

static bool hasDynamicDim(const KilnModelSlot *s) {
  for (int64_t d = 0; d < s->rank; ++d)
    if (s->dims[d] == KILN_DIM_DYNAMIC)
      return true;
  return false;
}

/* The shape function, when the library has one: it also checks the
 * inputs' dynamic dims against each other, so it runs before every run. A
 * model with dynamic output dims needs it. */
static KilnStatus *findOutputDims(KilnModel *m) {
  void *fn = dlsym(m->handle, "kiln_model_output_dims");
  if (fn) {
    memcpy(&m->outputDims, &fn, sizeof(m->outputDims));
    return NULL;
  }
  bool dynamic = false;
  for (int64_t i = 0; i < m->meta.numOutputs; ++i)
    dynamic |= hasDynamicDim(&m->meta.outputs[i]);
  if (dynamic)
    return kilnStatusCreatef("the model has outputs of dynamic shape but no "
                             "kiln_model_output_dims function to size them");
  return NULL;
}

static KilnStatus *loadFromHandle(KilnModel *m) {
  const char *meta = dlsym(m->handle, "kiln_model_metadata");
  if (!meta)
    return kilnStatusCreatef("not a Kiln model library (no "
                             "kiln_model_metadata symbol)");
  /* POSIX allows converting dlsym's result to a function pointer. */
  void *run = dlsym(m->handle, "kiln_model_run");
  if (!run)
    return kilnStatusCreatef("not a Kiln model library (no kiln_model_run "
                             "symbol)");
  memcpy(&m->run, &run, sizeof(m->run));
  void *set = dlsym(m->handle, "omp_set_num_threads");
  void *get = dlsym(m->handle, "omp_get_max_threads");
  if (set && get) {
    memcpy(&m->setOmpThreads, &set, sizeof(m->setOmpThreads));
    memcpy(&m->getOmpThreads, &get, sizeof(m->getOmpThreads));
  }
  size_t len = 0;
  KilnStatus *s = metadataLength(meta, &len);
  if (!s)
    s = kilnModelMetadataParse(meta, len, &m->meta);
  if (!s &&
      ((s = kilnModelMetadataCheckHost(&m->meta)) || (s = findProfile(m))))
    kilnModelMetadataDestroy(&m->meta);
  if (!s && (s = findOutputDims(m)))
    kilnModelMetadataDestroy(&m->meta);
  if (!s && m->meta.shard &&
      (s = kilnShardSetUp(m->handle, m->meta.shard, &m->shardRank,
                          &m->shardProcesses)))
    kilnModelMetadataDestroy(&m->meta);
  /* The GPU side last: it runs the library's GPU load function, which only
   * a checked library may. */
  if (!s && m->meta.gpu &&
      (s = kilnGpuModelCreate(m->handle, m->meta.gpu, &m->gpu)))
    kilnModelMetadataDestroy(&m->meta);
  return s;
}

/* A model run allocates its intermediate tensors (megabytes each) and
 * frees them before it returns. With glibc's defaults, blocks that big are
 * mmap'ed and unmapped again, or trimmed off the heap, so every run pays
 * for page faults on fresh zeroed memory: a third of ResNet-18's run time
 * on one thread. Keeping freed memory in the heap makes repeated runs reuse
 * it, as ONNX Runtime's arena does. This sets process-wide malloc
 * parameters once, at the first model load (docs/runtime.md). */
static once_flag keepMemoryOnce = ONCE_FLAG_INIT;

static void keepFreedMemory(void) {
#ifdef __GLIBC__
  if (getenv("KILN_KEEP_MALLOC_DEFAULTS"))
    return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's maximum */
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

KilnStatus *kilnModelLoad(const char *path, KilnModel **out) {
  if (!out)
    return kilnStatusCreatef("kilnModelLoad: out is NULL");
  *out = NULL;
  if (!path)
    return kilnStatusCreatef("kilnModelLoad: path is NULL");
  KilnModel *m = calloc(1, sizeof(*m));
  if (!m)
    abort();
  KilnStatus *s = openLibrary(path, &m->handle);
  if (!s && (s = loadFromHandle(m)))
    dlclose(m->handle);
  if (s) {
    free(m);
    return kilnStatusAddPath(s, path);
  }
  m->path = strdup(path);
  if (!m->path)
    abort();
  call_once(&keepMemoryOnce, keepFreedMemory);
  *out = m;
  return NULL;
}

void kilnModelDestroy(KilnModel *model) {
  if (!model)
    return;
  kilnGpuModelDestroy(model->gpu);
  kilnModelMetadataDestroy(&model->meta);
  dlclose(model->handle);
  free(model->path);
  free(model);
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int64_t kilnModelGetNumInputs(const KilnModel *model) {
  return model ? model->meta.numInputs : 0;
}

int64_t kilnModelGetNumOutputs(const KilnModel *model) {
  return model ? model->meta.numOutputs : 0;
}

static const KilnModelSlot *inputSlot(const KilnModel *m, int64_t i) {
  return m && i >= 0 && i < m->meta.numInputs ? &m->meta.inputs[i] : NULL;
}

static const KilnModelSlot *outputSlot(const KilnModel *m, int64_t i) {
  return m && i >= 0 && i < m->meta.numOutputs ? &m->meta.outputs[i] : NULL;
}

const char *kilnModelGetInputName(const KilnModel *model, int64_t i) {
  const KilnModelSlot *s = inputSlot(model, i);
  return s ? s->name : NULL;
}

KilnElementType kilnModelGetInputElementType(const KilnModel *model,
                                             int64_t i) {
  const KilnModelSlot *s = inputSlot(model, i);
  return s ? s->type : (KilnElementType)-1;
}

int64_t kilnModelGetInputRank(const KilnModel *model, int64_t i) {
  const KilnModelSlot *s = inputSlot(model, i);
  return s ? s->rank : -1;
}

const int64_t *kilnModelGetInputDims(const KilnModel *model, int64_t i) {
  const KilnModelSlot *s = inputSlot(model, i);
  return s ? s->dims : NULL;
}

static const char *dimName(const KilnModelSlot *s, int64_t dim) {
  return s && dim >= 0 && dim < s->rank ? s->dimNames[dim] : NULL;
}

const char *kilnModelGetInputDimName(const KilnModel *model, int64_t i,
                                     int64_t dim) {
  return dimName(inputSlot(model, i), dim);
}

const char *kilnModelGetOutputDimName(const KilnModel *model, int64_t i,
                                      int64_t dim) {
  return dimName(outputSlot(model, i), dim);
}

const char *kilnModelGetOutputName(const KilnModel *model, int64_t i) {
  const KilnModelSlot *s = outputSlot(model, i);
  return s ? s->name : NULL;
}

KilnElementType kilnModelGetOutputElementType(const KilnModel *model,
                                              int64_t i) {
  const KilnModelSlot *s = outputSlot(model, i);
  return s ? s->type : (KilnElementType)-1;
}

int64_t kilnModelGetOutputRank(const KilnModel *model, int64_t i) {
  const KilnModelSlot *s = outputSlot(model, i);
  return s ? s->rank : -1;
}

const int64_t *kilnModelGetOutputDims(const KilnModel *model, int64_t i) {
  const KilnModelSlot *s = outputSlot(model, i);
  return s ? s->dims : NULL;
}

const char *kilnModelGetKilnVersion(const KilnModel *model) {
  return model ? model->meta.version : NULL;
}

const char *kilnModelGetTarget(const KilnModel *model) {
  return model ? model->meta.target : NULL;
}

const char *kilnModelGetCpu(const KilnModel *model) {
  return model ? model->meta.cpu : NULL;
}

const char *kilnModelGetFeatures(const KilnModel *model) {
  return model ? model->meta.features : NULL;
}

const char *kilnModelGetOptions(const KilnModel *model) {
  return model ? model->meta.options : NULL;
}

KilnStatus *kilnModelCheckFailure(int code, const char *message) {
  return message ? kilnStatusCreatef("run-time check failed: %s", message)
                 : kilnStatusCreatef("run-time check %d failed", code);
}

int64_t kilnModelGetMemoryPlan(const KilnModel *model) {
  return model ? model->meta.memoryBytes : 0;
}

int64_t kilnModelGetNumSpecializations(const KilnModel *model) {
  return model ? model->meta.numSpecializations : 0;
}

const char *kilnModelGetSpecialization(const KilnModel *model, int64_t i) {
  return model && i >= 0 && i < model->meta.numSpecializations
             ? model->meta.specializations[i]
             : NULL;
}

const char *kilnModelGetEntry(const KilnModel *model) {
  return model ? model->meta.entry : NULL;
}

const char *kilnModelGetGpu(const KilnModel *model) {
  return model ? model->meta.gpu : NULL;
}

const char *kilnModelGetShard(const KilnModel *model) {
  return model ? model->meta.shard : NULL;
}

int kilnModelGetShardRank(const KilnModel *model) {
  return model ? model->shardRank : 0;
}

//===----------------------------------------------------------------------===//
// Profiles
//===----------------------------------------------------------------------===//

bool kilnModelIsProfiled(const KilnModel *model) {
  return model && model->meta.profiled;
}

int64_t kilnModelGetNumProfileRecords(const KilnModel *model) {
  return model ? model->meta.numProfileOps : 0;
}

static const KilnModelProfileOp *profileOp(const KilnModel *m, int64_t i) {
  return m && i >= 0 && i < m->meta.numProfileOps ? &m->meta.profileOps[i]
                                                  : NULL;
}

int64_t kilnModelGetProfileRecordNumNodes(const KilnModel *model, int64_t i) {
  const KilnModelProfileOp *op = profileOp(model, i);
  return op ? op->numNodes : 0;
}

const char *kilnModelGetProfileRecordNodeName(const KilnModel *model, int64_t i,
                                              int64_t j) {
  const KilnModelProfileOp *op = profileOp(model, i);
  return op && j >= 0 && j < op->numNodes ? op->names[j] : NULL;
}

const char *kilnModelGetProfileRecordNodeOpType(const KilnModel *model,
                                                int64_t i, int64_t j) {
  const KilnModelProfileOp *op = profileOp(model, i);
  return op && j >= 0 && j < op->numNodes ? op->opTypes[j] : NULL;
}

int64_t kilnModelGetProfileRecordRank(const KilnModel *model, int64_t i) {
  const KilnModelProfileOp *op = profileOp(model, i);
  return op ? op->rank : -1;
}

const int64_t *kilnModelGetProfileRecordDims(const KilnModel *model,
                                             int64_t i) {
  const KilnModelProfileOp *op = profileOp(model, i);
  return op && op->rank >= 0 ? op->dims : NULL;
}

int64_t kilnModelGetProfileRecordFlops(const KilnModel *model, int64_t i) {
  const KilnModelProfileOp *op = profileOp(model, i);
  return op ? op->flops : -1;
}

static KilnStatus *notProfiled(const KilnModel *model, const char *fn) {
  if (!model)
    return kilnStatusCreatef("%s: model is NULL", fn);
  if (!model->meta.profiled)
    return kilnStatusCreatef("the model library was built without "
                             "profiling: rebuild it with kiln-compile "
                             "--profile");
  return NULL;
}

KilnStatus *kilnModelGetProfileTimes(const KilnModel *model, int64_t i,
                                     KilnProfileTimes *out) {
  if (!out)
    return kilnStatusCreatef("kilnModelGetProfileTimes: out is NULL");
  *out = (KilnProfileTimes){0};
  KilnStatus *s = notProfiled(model, "kilnModelGetProfileTimes");
  if (s)
    return s;
  int64_t n = model->meta.numProfileOps;
  if (i < 0 || i > n)
    return kilnStatusCreatef("profile record %lld is out of range: the "
                             "model has %lld records, and %lld is the "
                             "whole run",
                             (long long)i, (long long)n, (long long)n);
  if (!model->profile)
    return NULL; /* nothing timed: no records */
  const int64_t *row = &model->profile[kProfileFields * i];
  const int64_t *run = &model->profile[kProfileFields * n];
  *out = (KilnProfileTimes){.runs = row[1],
                            .totalNs = row[0],
                            .lastNs = row[2],
                            .lastStartNs = row[1] ? row[3] - run[3] : 0};
  return NULL;
}

KilnStatus *kilnModelResetProfile(KilnModel *model) {
  KilnStatus *s = notProfiled(model, "kilnModelResetProfile");
  if (!s && model->profile)
    memset(model->profile, 0,
           (size_t)(model->meta.numProfileOps + 1) * kProfileFields *
               sizeof(int64_t));
  return s;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

KilnStatus *kilnModelSetThreadCount(KilnModel *model, int n) {
  if (!model)
    return kilnStatusCreatef("kilnModelSetThreadCount: model is NULL");
  if (n < 1)
    return kilnStatusCreatef("thread count %d: must be at least 1", n);
  model->threads = n;
  return NULL;
}

/* "f32[1x3x224x224]" into buf; a dynamic dim is "?". */
static void formatShape(char *buf, size_t size, KilnElementType type,
                        int64_t rank, const int64_t *dims) {
  int n = snprintf(buf, size, "%s[", kilnElementTypeGetName(type));
  for (int64_t d = 0; d < rank && n > 0 && (size_t)n < size; ++d)
    n += dims[d] == KILN_DIM_DYNAMIC
             ? snprintf(buf + n, size - (size_t)n, "%s?", d ? "x" : "")
             : snprintf(buf + n, size - (size_t)n, "%s%lld", d ? "x" : "",
                        (long long)dims[d]);
  if (n > 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, "]");
}

static KilnStatus *checkTensor(const KilnModelSlot *slot, const KilnTensor *t,
                               const char *what, size_t i) {
  if (!t)
    return kilnStatusCreatef("%s %zu ('%s') is NULL", what, i, slot->name);
  bool ok = kilnTensorGetElementType(t) == slot->type &&
            kilnTensorGetRank(t) == slot->rank;
  for (int64_t d = 0; ok && d < slot->rank; ++d)
    ok = slot->dims[d] == KILN_DIM_DYNAMIC ||
         kilnTensorGetDims(t)[d] == slot->dims[d];
  if (ok)
    return NULL;
  char want[256], got[256];
  formatShape(want, sizeof(want), slot->type, slot->rank, slot->dims);
  formatShape(got, sizeof(got), kilnTensorGetElementType(t),
              kilnTensorGetRank(t), kilnTensorGetDims(t));
  return kilnStatusCreatef("%s %zu ('%s') has the wrong type or shape: the "
                           "model wants %s, the tensor is %s",
                           what, i, slot->name, want, got);
}

static KilnStatus *checkTensors(const KilnModelSlot *slots, int64_t count,
                                KilnTensor *const *tensors, size_t n,
                                const char *what) {
  if ((int64_t)n != count)
    return kilnStatusCreatef("the model has %lld %ss, %zu given",
                             (long long)count, what, n);
  if (n && !tensors)
    return kilnStatusCreatef("the %s array is NULL", what);
  for (size_t i = 0; i < n; ++i) {
    KilnStatus *s = checkTensor(&slots[i], tensors[i], what, i);
    if (s)
      return s;
  }
  return NULL;
}

/* Inputs whose dims share a name must agree on its size (each input's
 * own type and shape already checked). */
static KilnStatus *checkDimNames(const KilnModelMetadata *meta,
                                 KilnTensor *const *inputs) {
  for (int64_t i = 0; i < meta->numInputs; ++i)
    for (int64_t d = 0; d < meta->inputs[i].rank; ++d) {
      const char *name = meta->inputs[i].dimNames[d];
      int64_t size = kilnTensorGetDims(inputs[i])[d];
      /* The first input dim of this name sets its size. */
      for (int64_t j = 0; name && j <= i; ++j)
        for (int64_t e = 0; e < (j < i ? meta->inputs[j].rank : d); ++e) {
          const char *other = meta->inputs[j].dimNames[e];
          int64_t given = kilnTensorGetDims(inputs[j])[e];
          if (other && !strcmp(other, name) && given != size)
            return kilnStatusCreatef(
                "input %lld ('%s') dim %lld ('%s') is %lld, but input %lld "
                "('%s') gives '%s' the size %lld; inputs that share a dim "
                "name share its size",
                (long long)i, meta->inputs[i].name, (long long)d, name,
                (long long)size, (long long)j, meta->inputs[j].name, name,
                (long long)given);
        }
    }
  return NULL;
}

/* Every output's dims for a run on `inputs` (checked) into `dims`
 * (numOutputs rows of KILN_TENSOR_MAX_RANK). */
static KilnStatus *outputDimsFor(KilnModel *m, KilnTensor *const *inputs,
                                 size_t numInputs,
                                 int64_t (*dims)[KILN_TENSOR_MAX_RANK]) {
  KilnStatus *s = checkTensors(m->meta.inputs, m->meta.numInputs, inputs,
                               numInputs, "input");
  if (!s)
    s = checkDimNames(&m->meta, inputs);
  if (s)
    return s;
  int64_t **rows = calloc((size_t)m->meta.numOutputs + 1, sizeof(*rows));
  if (!rows)
    abort();
  for (int64_t i = 0; i < m->meta.numOutputs; ++i) {
    memcpy(dims[i], m->meta.outputs[i].dims,
           (size_t)m->meta.outputs[i].rank * sizeof(int64_t));
    rows[i] = dims[i];
  }
  int rc = 0;
  if (m->outputDims) {
    void **args = malloc((numInputs ? numInputs : 1) * sizeof(void *));
    if (!args)
      abort();
    char *descs = kilnMemRefDescsCreate(inputs, numInputs, args);
    rc = m->outputDims(args, rows);
    free(descs);
    free(args);
  }
  free(rows);
  if (rc > 0 && rc <= m->meta.numChecks)
    return kilnModelCheckFailure(rc, m->meta.checks[rc - 1]);
  if (rc != 0)
    return kilnStatusCreatef("the model's shape function failed "
                             "(kiln_model_output_dims returned %d)",
                             rc);
  for (int64_t i = 0; i < m->meta.numOutputs; ++i)
    for (int64_t d = 0; d < m->meta.outputs[i].rank; ++d)
      if (dims[i][d] < 0 || (m->meta.outputs[i].dims[d] != KILN_DIM_DYNAMIC &&
                             dims[i][d] != m->meta.outputs[i].dims[d]))
        return kilnStatusCreatef("the model's shape function gave output "
                                 "%lld ('%s') the impossible dim %lld = %lld",
                                 (long long)i, m->meta.outputs[i].name,
                                 (long long)d, (long long)dims[i][d]);
  return NULL;
}

/* outputDimsFor in a fresh allocation (free it). */
static KilnStatus *allOutputDims(KilnModel *m, KilnTensor *const *inputs,
                                 size_t numInputs,
                                 int64_t (**dims)[KILN_TENSOR_MAX_RANK]) {
  *dims = calloc((size_t)m->meta.numOutputs + 1, sizeof(**dims));
  if (!*dims)
    abort();
  KilnStatus *s = outputDimsFor(m, inputs, numInputs, *dims);
  if (s) {
    free(*dims);
    *dims = NULL;
  }
  return s;
}

KilnStatus *kilnModelGetOutputDimsFor(KilnModel *model,
                                      KilnTensor *const *inputs,
                                      size_t numInputs, int64_t *const *dims) {
  if (!model || !dims)
    return kilnStatusCreatef("kilnModelGetOutputDimsFor: NULL argument");
  int64_t (*all)[KILN_TENSOR_MAX_RANK];
  KilnStatus *s = allOutputDims(model, inputs, numInputs, &all);
  for (int64_t i = 0; !s && i < model->meta.numOutputs; ++i)
    memcpy(dims[i], all[i],
           (size_t)model->meta.outputs[i].rank * sizeof(int64_t));
  free(all);
  return s;
}

KilnStatus *kilnModelCreateOutputs(KilnModel *model, KilnTensor *const *inputs,
                                   size_t numInputs, KilnTensor **outputs) {
  if (!model)
    return kilnStatusCreatef("kilnModelCreateOutputs: model is NULL");
  int64_t (*dims)[KILN_TENSOR_MAX_RANK];
  KilnStatus *s = allOutputDims(model, inputs, numInputs, &dims);
  for (int64_t i = 0; !s && i < model->meta.numOutputs; ++i) {
    const KilnModelSlot *slot = &model->meta.outputs[i];
    s = kilnTensorCreate(slot->type, slot->rank, dims[i], &outputs[i]);
    if (!s)
      kilnTensorSetName(outputs[i], slot->name);
    for (int64_t j = 0; s && j < i; ++j) {
      kilnTensorDestroy(outputs[j]);
      outputs[j] = NULL;
    }
  }
  free(dims);
  return s;
}

/* Checks the inputs, then the outputs against the dims the model gives
 * them for these inputs. */
static KilnStatus *checkOutputs(KilnModel *m, KilnTensor *const *inputs,
                                size_t numInputs, KilnTensor *const *outputs,
                                size_t numOutputs) {
  int64_t (*dims)[KILN_TENSOR_MAX_RANK];
  KilnStatus *s = allOutputDims(m, inputs, numInputs, &dims);
  if (s)
    return s;
  if ((int64_t)numOutputs != m->meta.numOutputs)
    s = kilnStatusCreatef("the model has %lld outputs, %zu given",
                          (long long)m->meta.numOutputs, numOutputs);
  else if (numOutputs && !outputs)
    s = kilnStatusCreatef("the output array is NULL");
  for (size_t i = 0; !s && i < numOutputs; ++i) {
    KilnModelSlot slot = m->meta.outputs[i];
    memcpy(slot.dims, dims[i], (size_t)slot.rank * sizeof(int64_t));
    s = checkTensor(&slot, outputs[i], "output", i);
  }
  free(dims);
  return s;
}

/* Calls the library with descriptors of `all[0, n)` (inputs then
 * outputs), built in one allocation. */
static int invoke(void *model, KilnTensor *const *all, size_t n) {
  KilnModel *m = model;
  void **args = malloc((n ? n : 1) * sizeof(void *));
  if (!args)
    abort();
  char *descs = kilnMemRefDescsCreate(all, n, args);
  /* omp_set_num_threads sets the calling thread's value: restore it so a
   * caller's own OpenMP code is unaffected. */
  bool setThreads = m->threads && m->setOmpThreads;
  int saved = setThreads ? m->getOmpThreads() : 0;
  if (setThreads)
    m->setOmpThreads(m->threads);
  int rc = m->run(args);
  if (setThreads)
    m->setOmpThreads(saved);
  free(descs);
  free(args);
  return rc;
}

KilnStatus *kilnModelRun(KilnModel *model, KilnTensor *const *inputs,
                         size_t numInputs, KilnTensor *const *outputs,
                         size_t numOutputs) {
  if (!model)
    return kilnStatusCreatef("kilnModelRun: model is NULL");
  KilnStatus *s = checkOutputs(model, inputs, numInputs, outputs, numOutputs);
  if (!s && model->meta.shard)
    s = kilnShardCheckProcesses(model->meta.shard, model->shardProcesses);
  if (s || (s = kilnRunGuardEnter(model->handle, model->path)))
    return s;
  size_t n = numInputs + numOutputs;
  KilnTensor **all = malloc((n ? n : 1) * sizeof(*all));
  if (!all)
    abort();
  for (size_t i = 0; i < numInputs; ++i)
    all[i] = inputs[i];
  for (size_t i = 0; i < numOutputs; ++i)
    all[numInputs + i] = outputs[i];
  int rc = 0;
  if (model->meta.shard)
    kilnShardWatchArm();
  if (model->gpu)
    s = kilnGpuModelRun(model->gpu, invoke, model, all, numInputs, n, &rc);
  else
    rc = invoke(model, all, n);
  if (model->meta.shard)
    kilnShardWatchDisarm();
  kilnRunGuardExit(model->handle);
  free(all);
  if (s) /* a CUDA error is the cause of anything else that went wrong */
    return s;
  if (rc > 0 && rc <= model->meta.numChecks)
    return kilnModelCheckFailure(rc, model->meta.checks[rc - 1]);
  if (rc != 0)
    return kilnStatusCreatef("the model's code failed (kiln_model_run "
                             "returned %d)",
                             rc);
  return NULL;
}
