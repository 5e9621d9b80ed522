/* Parallel code generation: the optimized module is split into partitions
 * whose objects are generated on their own threads, the way LLVM's
 * SplitModule (`llc -split-module`) and ThinLTO's parallel back ends do,
 * with the LLVM C API only:
 *
 * 1. Every local (internal/private) definition gets a unique name and
 *    external linkage with hidden visibility, so that partitions can refer
 *    to each other and the library still exports only the ABI symbols. The
 *    module is written to bitcode in memory.
 * 2. The definitions are assigned to partitions, balanced by cost
 *    (instructions for functions, bytes for data such as the weights), with
 *    the ABI symbols, appending globals (llvm.global_ctors) and anything in a
 *    comdat pinned to partition 0.
 * 3. Each partition runs on a pthread with its own LLVMContext: it parses
 *    the bitcode, turns the definitions it does not own into declarations,
 *    verifies the result and emits an object with its own target machine.
 * 4. The weights that the translation left as declarations (detached.h)
 *    follow in data objects of their own, built from their MLIR buffers;
 *    also after a module emitted whole.
 *
 * The target registry is initialized once (kilnTargetCreate) before any
 * thread starts; LLVM contexts and target machines are per thread. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "pipelines/backend/detached.h"
#include "pipelines/backend/target.h"
#include "runtime/model_abi.h"
#include "llvm-c/Analysis.h"
#include "llvm-c/BitReader.h"
#include "llvm-c/BitWriter.h"
#include "llvm-c/Comdat.h"
#include "llvm-c/Core.h"
#include "llvm-c/Target.h"

/* Bytes of data that cost about as much code generation time as one
 * instruction. Measured on ResNet-18 (a partition with its 47 MB of
 * weights vs one with its 9.6K instructions took about as long), since the
 * back end emits float arrays element by element. */
enum { kBytesPerInstruction = 4096 };
/* Detached weights (detached.h) are emitted in objects of their own of
 * at most this many bytes each (or one larger weight), one at a time per
 * thread: the constant, the assembler's copy and the object of one chunk
 * are alive at once. */
enum { kDataChunkBytes = 8 << 20 };

/* A definition to place: its index among the module's functions (isFunction)
 * or globals, and its cost. */
typedef struct Item {
  unsigned index;
  bool isFunction;
  uint64_t cost;
} Item;

/* The partition plan: the owner of each function and global (by position in
 * the module's lists, which bitcode preserves); UINT32_MAX for declarations.
 */
typedef struct Plan {
  uint32_t *functionOwner, *globalOwner;
  /* Per global: the raw bytes of a large data initializer left out of the
   * bitcode (NULL if none), owned by the source module's context. */
  const char **globalData;
  size_t *globalDataSize;
  unsigned numFunctions, numGlobals, numPartitions;
} Plan;

/* A detached weight to emit into a data object. */
typedef struct DataGlobal {
  const char *name;
  const void *data;
  size_t size;
  unsigned align;
} DataGlobal;

/* One job: a code partition (`bitcode`, `plan`, `partition`) or a data
 * object (`data[0, numData)`); then its object or its error. */
typedef struct Job {
  const char *bitcode;
  size_t bitcodeSize;
  const Plan *plan;
  const KilnTarget *target;
  unsigned partition;
  const DataGlobal *data;
  size_t numData;
  const char *triple, *layout; /* of a data object */
  LLVMMemoryBufferRef object;  /* out */
  KilnStrBuf error;            /* out: empty on success */
} Job;

static uint64_t countInstructions(LLVMValueRef f) {
  uint64_t n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i))
      ++n;
  return n;
}

static bool isLocal(LLVMLinkage l) {
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* Whether the definition must stay in partition 0: the ABI symbols, comdat
 * members and linkages other than external (appending llvm.global_ctors,
 * weak and linkonce definitions). Call after externalize(). */
static bool isPinned(LLVMValueRef v) {
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  for (const char *const *abi = kilnModelAbiSymbols; *abi; ++abi)
    if (!strcmp(name, *abi))
      return true;
  return LLVMGetComdat(v) || LLVMGetLinkage(v) != LLVMExternalLinkage;
}

/* Gives every local definition a unique name and hidden external linkage. */
static void externalize(LLVMModuleRef m) {
  unsigned anon = 0;
  char name[32];
  LLVMValueRef next;
  for (int pass = 0; pass < 2; ++pass)
    for (LLVMValueRef v = pass ? LLVMGetFirstGlobal(m)
                               : LLVMGetFirstFunction(m);
         v; v = next) {
      next = pass ? LLVMGetNextGlobal(v) : LLVMGetNextFunction(v);
      if (LLVMIsDeclaration(v) || !isLocal(LLVMGetLinkage(v)))
        continue;
      size_t len;
      LLVMGetValueName2(v, &len);
      if (!len) {
        /* LLVM appends a suffix if the name is taken. */
        snprintf(name, sizeof(name), "kiln.split.%u", anon++);
        LLVMSetValueName2(v, name, strlen(name));
      }
      LLVMSetLinkage(v, LLVMExternalLinkage);
      LLVMSetVisibility(v, LLVMHiddenVisibility);
    }
}

static int compareItems(const void *a, const void *b) {
  const Item *x = a, *y = b;
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  if (x->isFunction != y->isFunction)
    return x->isFunction ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Replaces the data array global `g` by a byte array global holding the
 * same `size` bytes at `data`, with the same name, alignment and
 * attributes: the back end (AsmPrinter) emits a float array element by
 * element, ResNet-18's weights taking as long as all its code, but an i8
 * array in one copy. Pointers are opaque, so users see no difference. The
 * copy is not unnamed_addr: a byte array that looks like a C string must
 * not land in a mergeable string section. */
static void retypeAsBytes(LLVMModuleRef m, LLVMValueRef g, const char *data,
                          size_t size) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMValueRef init =
      LLVMConstDataArray(LLVMInt8TypeInContext(ctx), data, size);
  LLVMValueRef b = LLVMAddGlobal(m, LLVMTypeOf(init), "");
  LLVMSetInitializer(b, init);
  LLVMSetAlignment(b, LLVMGetAlignment(g));
  LLVMSetGlobalConstant(b, LLVMIsGlobalConstant(g));
  LLVMSetLinkage(b, LLVMGetLinkage(g));
  LLVMSetVisibility(b, LLVMGetVisibility(g));
  const char *section = LLVMGetSection(g);
  if (section && *section)
    LLVMSetSection(b, section);
  LLVMReplaceAllUsesWith(g, b);
  size_t len;
  const char *name = LLVMGetValueName2(g, &len);
  char *copy = malloc(len + 1);
  if (!copy)
    abort();
  memcpy(copy, name, len);
  LLVMDeleteGlobal(g);
  LLVMSetValueName2(b, copy, len);
  free(copy);
}

/* Whether `g` is a definition whose initializer is a constant data array
 * of at least kKilnLargeDataBytes; *data and *size then give its bytes. Makes
 * the alignment explicit (the preferred one of the array with its initializer,
 * which a byte array or a declaration would not get), so that the layout
 * survives detaching and retyping. */
static bool isLargeData(LLVMValueRef g, LLVMTargetDataRef layout,
                        const char **data, size_t *size) {
  LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
  if (!init || !LLVMIsAConstantDataArray(init) ||
      LLVMGetTypeKind(LLVMGlobalGetValueType(g)) != LLVMArrayTypeKind)
    return false;
  *data = LLVMGetRawDataValues(init, size);
  if (*size < kKilnLargeDataBytes)
    return false;
  if (!LLVMGetAlignment(g))
    LLVMSetAlignment(g, LLVMPreferredAlignmentOfGlobal(layout, g));
  return true;
}

void kilnRetypeDataAsBytes(LLVMModuleRef m) {
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(m);
  LLVMValueRef last = LLVMGetLastGlobal(m), next;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = next) {
    /* The copies go after the original last global. */
    next = g == last ? NULL : LLVMGetNextGlobal(g);
    const char *data;
    size_t size;
    if (isLargeData(g, layout, &data, &size))
      retypeAsBytes(m, g, data, size);
  }
}

/* Takes the initializers of large constant data arrays (the weights) out of
 * `m`, recording their raw bytes in the plan: the bitcode reader decodes
 * arrays element by element, which for ResNet-18's 47 MB cost more than
 * code generation itself; each owning thread rebuilds its arrays from the
 * bytes instead (LLVMConstDataArray). The bytes stay valid while `m`'s
 * context lives. */
static void detachData(LLVMModuleRef m, Plan *p) {
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(m);
  unsigned i = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g;
       g = LLVMGetNextGlobal(g), ++i) {
    const char *data;
    size_t size;
    if (!isLargeData(g, layout, &data, &size))
      continue;
    p->globalData[i] = data;
    p->globalDataSize[i] = size;
    LLVMSetInitializer(g, NULL);
  }
}

static void planDestroy(Plan *p) {
  free(p->functionOwner);
  free(p->globalOwner);
  free(p->globalData);
  free(p->globalDataSize);
}

/* Places the definitions of `m` into at most `n` partitions, largest first
 * onto the least loaded one (LPT scheduling, deterministic), and drops
 * empty partitions. Partition 0 starts with the pinned definitions. */
static void planCreate(LLVMModuleRef m, unsigned n, Plan *p) {
  memset(p, 0, sizeof(*p));
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    ++p->numFunctions;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    ++p->numGlobals;
  p->functionOwner = malloc((p->numFunctions + 1) * sizeof(uint32_t));
  p->globalOwner = malloc((p->numGlobals + 1) * sizeof(uint32_t));
  p->globalData = calloc(p->numGlobals + 1, sizeof(char *));
  p->globalDataSize = calloc(p->numGlobals + 1, sizeof(size_t));
  Item *items = malloc((p->numFunctions + p->numGlobals + 1) * sizeof(Item));
  uint64_t *load = calloc(n, sizeof(uint64_t));
  if (!p->functionOwner || !p->globalOwner || !p->globalData ||
      !p->globalDataSize || !items || !load)
    abort();
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(m);
  unsigned numItems = 0, i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f), ++i) {
    p->functionOwner[i] = UINT32_MAX;
    if (LLVMIsDeclaration(f))
      continue;
    uint64_t cost = 1 + countInstructions(f);
    if (isPinned(f)) {
      p->functionOwner[i] = 0;
      load[0] += cost;
    } else {
      items[numItems++] = (Item){i, true, cost};
    }
  }
  i = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g;
       g = LLVMGetNextGlobal(g), ++i) {
    p->globalOwner[i] = UINT32_MAX;
    if (LLVMIsDeclaration(g))
      continue;
    uint64_t cost = 1 + LLVMABISizeOfType(layout, LLVMGlobalGetValueType(g)) /
                            kBytesPerInstruction;
    if (isPinned(g)) {
      p->globalOwner[i] = 0;
      load[0] += cost;
    } else {
      items[numItems++] = (Item){i, false, cost};
    }
  }
  qsort(items, numItems, sizeof(Item), compareItems);
  for (unsigned k = 0; k < numItems; ++k) {
    unsigned best = 0;
    for (unsigned b = 1; b < n; ++b)
      if (load[b] < load[best])
        best = b;
    load[best] += items[k].cost;
    (items[k].isFunction ? p->functionOwner : p->globalOwner)[items[k].index] =
        best;
  }
  /* Renumber the non-empty partitions 0, 1, ... (0 stays 0: it holds the
   * ABI symbols). */
  uint32_t *renumber = malloc(n * sizeof(uint32_t));
  if (!renumber)
    abort();
  for (unsigned b = 0; b < n; ++b)
    renumber[b] = load[b] ? p->numPartitions++ : UINT32_MAX;
  for (unsigned k = 0; k < p->numFunctions; ++k)
    if (p->functionOwner[k] != UINT32_MAX)
      p->functionOwner[k] = renumber[p->functionOwner[k]];
  for (unsigned k = 0; k < p->numGlobals; ++k)
    if (p->globalOwner[k] != UINT32_MAX)
      p->globalOwner[k] = renumber[p->globalOwner[k]];
  free(renumber);
  free(load);
  free(items);
}

/* Turns a function definition into a declaration (what
 * llvm::Function::deleteBody does, which the C API lacks): uses of its
 * instructions are all inside it, so they are replaced by poison, then the
 * instructions and the blocks (now without users) are erased. */
static void deleteBody(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = LLVMTypeOf(i);
      if (LLVMGetTypeKind(t) != LLVMVoidTypeKind && LLVMGetFirstUse(i))
        LLVMReplaceAllUsesWith(i, LLVMGetPoison(t));
    }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i; (i = LLVMGetFirstInstruction(bb));)
      LLVMInstructionEraseFromParent(i);
  for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(f));)
    LLVMDeleteBasicBlock(bb);
  if (LLVMHasPersonalityFn(f))
    LLVMSetPersonalityFn(f, NULL);
  LLVMGlobalClearMetadata(f);
  LLVMSetComdat(f, NULL);
  LLVMSetLinkage(f, LLVMExternalLinkage);
}

/* Keeps the definitions of partition `part` in `m` (parsed from the
 * planned module's bitcode); false after reporting into `err`. */
static bool keepPartition(LLVMModuleRef m, const Plan *p, unsigned part,
                          KilnStrBuf *err) {
  unsigned i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f), ++i) {
    if (i >= p->numFunctions ||
        (p->functionOwner[i] == UINT32_MAX) != (bool)LLVMIsDeclaration(f))
      goto mismatch;
    if (p->functionOwner[i] != UINT32_MAX && p->functionOwner[i] != part)
      deleteBody(f);
  }
  if (i != p->numFunctions)
    goto mismatch;
  i = 0;
  LLVMValueRef next, last = LLVMGetLastGlobal(m);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = next, ++i) {
    /* Byte array copies (retypeAsBytes) go after the original last. */
    next = g == last ? NULL : LLVMGetNextGlobal(g);
    if (i >= p->numGlobals || (p->globalOwner[i] == UINT32_MAX ||
                               p->globalData[i]) != (bool)LLVMIsDeclaration(g))
      goto mismatch;
    if (p->globalOwner[i] == UINT32_MAX)
      continue;
    if (p->globalOwner[i] == part) {
      if (p->globalData[i])
        retypeAsBytes(m, g, p->globalData[i], p->globalDataSize[i]);
      continue;
    }
    if (p->globalData[i])
      continue; /* already a declaration */
    if (LLVMGetLinkage(g) == LLVMAppendingLinkage) {
      /* llvm.global_ctors and the like have no declaration form; only
       * partition 0 keeps them, and nothing refers to them. */
      LLVMDeleteGlobal(g);
      continue;
    }
    LLVMSetInitializer(g, NULL);
    LLVMGlobalClearMetadata(g);
    LLVMSetComdat(g, NULL);
    LLVMSetLinkage(g, LLVMExternalLinkage);
  }
  if (i == p->numGlobals)
    return true;
mismatch:
  kilnStrBufAppendf(err, "internal error: the module read back from bitcode "
                         "differs from the split plan");
  return false;
}

static void handleDiagnostic(LLVMDiagnosticInfoRef info, void *userData) {
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError)
    return;
  KilnStrBuf *err = userData;
  char *text = LLVMGetDiagInfoDescription(info);
  kilnStrBufAppendf(err, "%s%s", err->len ? "; " : "", text);
  LLVMDisposeMessage(text);
}

/* A code partition: bitcode → module → its definitions → object. */
static void runCodeJob(Job *j) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, handleDiagnostic, &j->error);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
      j->bitcode, j->bitcodeSize, "kiln-split", /*RequiresNull=*/false);
  LLVMModuleRef m = NULL;
  LLVMTargetMachineRef tm = NULL;
  char *why = NULL;
  if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    kilnStrBufAppendf(&j->error, "%scannot read the split module back",
                      j->error.len ? "; " : "");
    goto out;
  }
  if (!keepPartition(m, j->plan, j->partition, &j->error))
    goto out;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &why)) {
    kilnStrBufAppendf(&j->error,
                      "internal error: invalid LLVM IR in "
                      "partition %u: %s",
                      j->partition, why);
    goto out;
  }
  tm = kilnTargetCreateMachine(j->target);
  LLVMDisposeMessage(why);
  why = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &why,
                                          &j->object)) {
    kilnStrBufAppendf(&j->error, "code generation failed: %s", why ? why : "");
    j->object = NULL;
  }
out:
  LLVMDisposeMessage(why);
  if (tm)
    LLVMDisposeTargetMachine(tm);
  if (m)
    LLVMDisposeModule(m);
  LLVMDisposeMemoryBuffer(buf);
  LLVMContextDispose(ctx);
}

/* A data object: the detached weights of the job as hidden byte arrays,
 * written from their MLIR buffers (one copy into an LLVM constant, freed
 * with the job's context). */
static void runDataJob(Job *j) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, handleDiagnostic, &j->error);
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("kiln-weights", ctx);
  LLVMSetTarget(m, j->triple);
  LLVMSetDataLayout(m, j->layout);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx);
  for (size_t i = 0; i < j->numData; ++i) {
    const DataGlobal *d = &j->data[i];
    LLVMValueRef init = LLVMConstDataArray(i8, d->data, d->size);
    LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(init), d->name);
    LLVMSetInitializer(g, init);
    LLVMSetAlignment(g, d->align);
    LLVMSetGlobalConstant(g, true);
    LLVMSetVisibility(g, LLVMHiddenVisibility);
  }
  LLVMTargetMachineRef tm = kilnTargetCreateMachine(j->target);
  char *why = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &why,
                                          &j->object)) {
    kilnStrBufAppendf(&j->error, "code generation failed: %s", why ? why : "");
    j->object = NULL;
  }
  LLVMDisposeMessage(why);
  LLVMDisposeTargetMachine(tm);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* The jobs of one code generation, taken in index order by the threads;
 * each object is passed on (under `lock`) as soon as it is done, so that
 * the objects do not all wait in memory. */
typedef struct Queue {
  pthread_mutex_t lock;
  Job *jobs;
  unsigned next, count;
  unsigned firstIndex; /* the object index of jobs[0] */
  bool failed;
  KilnCompileObjectFn out;
  void *outUd;
} Queue;

static void *runQueue(void *arg) {
  Queue *q = arg;
  for (;;) {
    pthread_mutex_lock(&q->lock);
    unsigned k = q->next++;
    bool stop = k >= q->count || q->failed;
    pthread_mutex_unlock(&q->lock);
    if (stop)
      return NULL;
    Job *j = &q->jobs[k];
    if (j->data)
      runDataJob(j);
    else
      runCodeJob(j);
    pthread_mutex_lock(&q->lock);
    if (j->error.len || !j->object)
      q->failed = true;
    else if (!q->failed)
      q->out(q->firstIndex + k,
             mlirStringRefCreate(LLVMGetBufferStart(j->object),
                                 LLVMGetBufferSize(j->object)),
             q->outUd);
    pthread_mutex_unlock(&q->lock);
    if (j->object)
      LLVMDisposeMemoryBuffer(j->object);
    j->object = NULL;
  }
}

/* The detached weights of `m` to emit, in module order, with the
 * alignment the translation gave their declarations (made hidden, so that
 * the code refers to them directly); their count goes to *n. */
static DataGlobal *dataGlobals(LLVMModuleRef m, const KilnDetachedData *d,
                               size_t *n) {
  size_t count = kilnDetachedDataCount(d);
  DataGlobal *data = malloc((count + 1) * sizeof(DataGlobal));
  if (!data)
    abort();
  *n = 0;
  for (size_t i = 0; i < count; ++i) {
    const char *name = kilnDetachedDataGetName(d, i);
    LLVMValueRef g = LLVMGetNamedGlobal(m, name);
    if (!g || !LLVMIsDeclaration(g))
      continue; /* deleted by the optimizer: unused */
    LLVMSetVisibility(g, LLVMHiddenVisibility);
    DataGlobal *e = &data[(*n)++];
    e->name = name;
    e->data = kilnDetachedDataGetBytes(d, i, &e->size);
    e->align = LLVMGetAlignment(g);
  }
  return data;
}

/* Appends to `jobs` (room for `numData` more after *count) the data
 * objects of `data`, in chunks of at most kDataChunkBytes. */
static void addDataJobs(Job *jobs, unsigned *count, const DataGlobal *data,
                        size_t numData, const KilnTarget *t, const char *triple,
                        const char *layout) {
  for (size_t i = 0; i < numData;) {
    size_t first = i, bytes = data[i++].size;
    while (i < numData && bytes + data[i].size <= kDataChunkBytes)
      bytes += data[i++].size;
    jobs[(*count)++] = (Job){.target = t,
                             .data = data + first,
                             .numData = i - first,
                             .triple = triple,
                             .layout = layout};
  }
}

/* Runs `jobs[0, count)`, objects `firstIndex`... , on up to `numThreads`
 * threads (this one among them), passing each object as it is done; false
 * after reporting the first job's error. */
static bool runJobs(Job *jobs, unsigned count, unsigned firstIndex,
                    unsigned numThreads, KilnCompileObjectFn out, void *outUd,
                    MlirStringCallback err, void *errUd) {
  Queue q = {.jobs = jobs,
             .count = count,
             .firstIndex = firstIndex,
             .out = out,
             .outUd = outUd};
  pthread_mutex_init(&q.lock, NULL);
  unsigned numWorkers = numThreads < count ? numThreads : count;
  pthread_t *threads = calloc(numWorkers + 1, sizeof(pthread_t));
  bool *started = calloc(numWorkers + 1, sizeof(bool));
  if (!threads || !started)
    abort();
  /* This thread works too (alone if no thread can start). */
  for (unsigned k = 1; k < numWorkers; ++k)
    started[k] = !pthread_create(&threads[k], NULL, runQueue, &q);
  runQueue(&q);
  for (unsigned k = 1; k < numWorkers; ++k)
    if (started[k])
      pthread_join(threads[k], NULL);
  pthread_mutex_destroy(&q.lock);
  const char *why = NULL; /* the first job's error */
  for (unsigned k = 0; k < count && !why; ++k)
    if (jobs[k].error.len)
      why = kilnStrBufGet(&jobs[k].error);
  if (q.failed)
    kilnCompileReport(err, errUd, "%s", why ? why : "code generation failed");
  for (unsigned k = 0; k < count; ++k)
    kilnStrBufDestroy(&jobs[k].error);
  free(started);
  free(threads);
  return !q.failed;
}

/* Runs the plan's partitions, then the data objects of the detached
 * weights (`d`, may be NULL), on up to `numThreads` threads; disposes `m`
 * once its bitcode is written (its code is most of the memory left; the
 * bytes that detachData recorded are constants of its context, which
 * stays). False after reporting. */
static bool runPlan(LLVMModuleRef m, Plan *plan, const KilnDetachedData *d,
                    unsigned numThreads, const KilnTarget *t,
                    KilnCompileObjectFn out, void *outUd,
                    MlirStringCallback err, void *errUd) {
  size_t numData;
  DataGlobal *data = dataGlobals(m, d, &numData);
  detachData(m, plan);
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  KilnStrBuf triple = {0}, layout = {0};
  kilnStrBufAppendf(&triple, "%s", LLVMGetTarget(m));
  kilnStrBufAppendf(&layout, "%s", LLVMGetDataLayoutStr(m));
  LLVMDisposeModule(m);
  unsigned n = plan->numPartitions, count = n;
  Job *jobs = calloc(n + numData, sizeof(Job));
  if (!jobs)
    abort();
  for (unsigned k = 0; k < n; ++k)
    jobs[k] = (Job){.bitcode = LLVMGetBufferStart(bitcode),
                    .bitcodeSize = LLVMGetBufferSize(bitcode),
                    .plan = plan,
                    .target = t,
                    .partition = k};
  addDataJobs(jobs, &count, data, numData, t, kilnStrBufGet(&triple),
              kilnStrBufGet(&layout));
  bool ok = runJobs(jobs, count, 0, numThreads, out, outUd, err, errUd);
  free(jobs);
  free(data);
  LLVMDisposeMemoryBuffer(bitcode);
  kilnStrBufDestroy(&triple);
  kilnStrBufDestroy(&layout);
  return ok;
}

/* One partition: `m` as it is, emitted with `tm` on this thread into
 * object 0, then the data objects of the detached weights `d` (on up to
 * `numThreads` threads); disposes `m`. False after reporting. */
static bool runWhole(LLVMModuleRef m, LLVMTargetMachineRef tm,
                     const KilnDetachedData *d, unsigned numThreads,
                     const KilnTarget *t, KilnCompileObjectFn out, void *outUd,
                     MlirStringCallback err, void *errUd) {
  size_t numData;
  DataGlobal *data = dataGlobals(m, d, &numData);
  kilnRetypeDataAsBytes(m);
  KilnStrBuf triple = {0}, layout = {0};
  kilnStrBufAppendf(&triple, "%s", LLVMGetTarget(m));
  kilnStrBufAppendf(&layout, "%s", LLVMGetDataLayoutStr(m));
  char *why = NULL;
  LLVMMemoryBufferRef buf = NULL;
  bool ok =
      !LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &why, &buf);
  LLVMDisposeModule(m);
  if (!ok) {
    kilnCompileReport(err, errUd, "code generation failed: %s", why ? why : "");
    LLVMDisposeMessage(why);
  } else {
    out(0, mlirStringRefCreate(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf)),
        outUd);
    LLVMDisposeMemoryBuffer(buf);
    Job *jobs = calloc(numData + 1, sizeof(Job));
    if (!jobs)
      abort();
    unsigned count = 0;
    addDataJobs(jobs, &count, data, numData, t, kilnStrBufGet(&triple),
                kilnStrBufGet(&layout));
    ok = runJobs(jobs, count, 1, numThreads ? numThreads : 1, out, outUd, err,
                 errUd);
    free(jobs);
  }
  free(data);
  kilnStrBufDestroy(&triple);
  kilnStrBufDestroy(&layout);
  return ok;
}

/* Whether `m` can be split: two or more function definitions and no
 * aliases or ifuncs (whose target must stay a definition next to them). */
static bool isSplittable(LLVMModuleRef m) {
  if (LLVMGetFirstGlobalAlias(m) || LLVMGetFirstGlobalIFunc(m))
    return false;
  unsigned defs = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && defs < 2;
       f = LLVMGetNextFunction(f))
    defs += !LLVMIsDeclaration(f);
  return defs >= 2;
}

bool kilnSplitCodegen(LLVMModuleRef m, LLVMTargetMachineRef tm,
                      const KilnTarget *target, const KilnDetachedData *d,
                      unsigned numThreads, KilnCompileObjectFn out, void *outUd,
                      MlirStringCallback err, void *errUd) {
  if (numThreads > 1 && isSplittable(m)) {
    /* Externalized first: pinning looks at the resulting linkages. */
    externalize(m);
    Plan plan;
    planCreate(m, numThreads, &plan);
    bool ok = runPlan(m, &plan, d, numThreads, target, out, outUd, err, errUd);
    planDestroy(&plan);
    return ok;
  }
  return runWhole(m, tm, d, numThreads, target, out, outUd, err, errUd);
}
