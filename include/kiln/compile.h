/* Kiln ahead-of-time compilation: from a module lowered to the LLVM dialect
 * (pipeline `linalg-to-llvm-cpu`) to LLVM IR, assembly, an object file or a
 * model library (model.so) with the ABI of docs/kiln-compile.md:
 * `kiln_model_metadata` (text records) and `kiln_model_run(void **args)`.
 *
 * Ownership follows mlir-c: Create/Destroy pairs, Get borrows; destroying
 * NULL is a no-op. Errors come back through an MlirStringCallback (the
 * message may arrive in fragments) or as MLIR diagnostics where there is an
 * IR location to name. */
#ifndef KILN_COMPILE_H
#define KILN_COMPILE_H

#include <stdbool.h>

#include "kiln/kiln_runtime.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The version of the model library ABI written into `kiln-model N`.
#define KILN_MODEL_ABI_VERSION 1

/* ---- targets ----------------------------------------------------------- */

typedef struct KilnTarget KilnTarget;

typedef struct KilnTargetOptions {
  /* NULL or "host": this machine, its CPU and features; "x86-64-v3":
   * x86_64 Linux with the portable AVX2 CPU level; "aarch64-linux-gnu":
   * 64-bit Arm Linux; anything else: an LLVM triple for x86_64 or aarch64
   * Linux. */
  const char *target;
  /* NULL: the target's default (the host CPU for "host", "generic" for a
   * triple). "native" is the host CPU (host architecture only); other
   * names must be known for the architecture (see docs/kiln-compile.md). */
  const char *cpu;
  int optLevel; /* 0..3 */
  /* With target "cuda" (host code for this machine, kernels for an NVIDIA
   * GPU): the GPU architecture, "sm_70" ... "sm_120"; NULL: "sm_90". Must
   * be NULL for other targets. */
  const char *gpuArch;
} KilnTargetOptions;

/// Validates `options` and creates the target they name. Unknown targets,
/// CPU names and levels are rejected here, before LLVM sees them (LLVM
/// aborts on some). Returns NULL after passing one message to
/// `errorCallback`. Destroy with kilnTargetDestroy.
KilnTarget *kilnTargetCreate(const KilnTargetOptions *options,
                             MlirStringCallback errorCallback, void *userData);
/// Destroys a target; NULL is a no-op.
void kilnTargetDestroy(KilnTarget *target);
/// The normalized LLVM triple ("x86_64-pc-linux-gnu"). Borrowed.
const char *kilnTargetGetTriple(const KilnTarget *target);
/// The CPU name ("znver3", "generic"). Borrowed.
const char *kilnTargetGetCPU(const KilnTarget *target);
/// The LLVM feature list ("+avx2,+fma,..."), "" if none. Borrowed.
const char *kilnTargetGetFeatures(const KilnTarget *target);
/// Whether code for the target runs on this machine's architecture (the
/// library is then linked against libomp, libm and libc).
bool kilnTargetIsHostArch(const KilnTarget *target);
/// The GPU architecture of a "cuda" target ("sm_90"), NULL for CPU targets.
/// Borrowed.
const char *kilnTargetGetGpuArch(const KilnTarget *target);
/// The NVPTX features of a "cuda" target: the PTX ISA version its kernels
/// are written in ("+ptx78"), the oldest that supports the architecture, so
/// the oldest drivers can load them. NULL for CPU targets. Borrowed.
const char *kilnTargetGetGpuFeatures(const KilnTarget *target);

/* ---- the model's signature -------------------------------------------- */

typedef struct KilnModelSignature KilnModelSignature;

/// The model's entry function in `module` (a builtin.module op): the
/// func.func @main_graph, else the module's only public function
/// definition; null if there is neither. The one statement of the ABI's
/// entry rule: the signature, the profiler and kiln-run all use it.
MlirOperation kilnModelFindEntry(MlirOperation module);

/// The name of argument `i` (or, with `result`, result `i`) of the entry
/// function `func` in the model's metadata: its `onnx.name` attribute,
/// else "argI" / "resultI". Returns a malloc'd string (free it).
char *kilnModelValueNameCreate(MlirOperation func, bool result, intptr_t i);

/// The ABI's element type (kiln_runtime.h) of the MLIR element type `type`
/// (f16, bf16, f32, f64, signless or unsigned integers of 1, 8, 16, 32 or
/// 64 bits; i1 is bool); false for one the ABI cannot describe.
bool kilnModelElementTypeOf(MlirType type, KilnElementType *out /* OUT */);
/// The inverse: the MLIR element type of the ABI's `type` (unsigned
/// integers as uiN, bool as i1, as the importer types ONNX's); a null type
/// for a value outside the enum.
MlirType kilnModelElementTypeGet(MlirContext ctx, KilnElementType type);

/// Records the entry of `module` (@main_graph, else its only public
/// function) and the names, element types and shapes (`?` for a dynamic
/// dim) of its arguments and results, as the metadata's `entry`, `input`
/// and `output` records. Call it before lowering, which rewrites the
/// signature. Names
/// come from `onnx.name` argument/result attributes, else argN / resultN.
/// Returns NULL after emitting a diagnostic (no entry, an unranked tensor,
/// an element type the ABI cannot describe). Destroy with
/// kilnModelSignatureDestroy.
KilnModelSignature *kilnModelSignatureCreate(MlirModule module);
/// Destroys a signature; NULL is a no-op.
void kilnModelSignatureDestroy(KilnModelSignature *signature);
/// The entry function's name. Borrowed.
const char *kilnModelSignatureGetEntry(const KilnModelSignature *signature);
/// The `entry`, `input` and `output` metadata records, one per line.
/// Borrowed.
const char *kilnModelSignatureGetRecords(const KilnModelSignature *signature);
/// How many inputs and outputs the entry has.
intptr_t kilnModelSignatureGetNumInputs(const KilnModelSignature *signature);
intptr_t kilnModelSignatureGetNumOutputs(const KilnModelSignature *signature);
/// Whether an input or output has a dim of dynamic size.
bool kilnModelSignatureIsDynamic(const KilnModelSignature *signature);
/// The rank of output `i`.
int64_t kilnModelSignatureGetOutputRank(const KilnModelSignature *signature,
                                        intptr_t i);
/// The dims of input `i` (-1 for a dynamic one); `*rank` receives their
/// count. Borrowed.
const int64_t *
kilnModelSignatureGetInputDims(const KilnModelSignature *signature, intptr_t i,
                               int64_t *rank /* OUT */);

/// The function kiln-shape-function derives from an entry with dynamic
/// dims: the entry's inputs, and one tensor<Nxi64> result holding every
/// output's dims in order. The back end exports it as
/// `kiln_model_output_dims`.
#define KILN_SHAPE_FUNCTION "kiln_output_dims"
/// A unit attribute on an entry whose signature (recorded before lowering)
/// has a dynamic dim: kiln-shape-function derives the shape function even
/// when lowering made every dim static (a Range whose limit became a
/// constant), since the runtime sizes such outputs only through it.
#define KILN_DYNAMIC_SIGNATURE_ATTR "kiln.dynamic_signature"

/* ---- object code ------------------------------------------------------- */

typedef enum KilnCompileEmit {
  KILN_COMPILE_EMIT_LLVM_IR, /* textual LLVM IR, after optimization */
  KILN_COMPILE_EMIT_ASM,     /* target assembly */
  KILN_COMPILE_EMIT_OBJECT   /* an ELF relocatable object */
} KilnCompileEmit;

/// Called as each stage of kilnCompileToObject begins ("translate to LLVM
/// IR", "optimize LLVM IR", "generate code").
typedef void (*KilnCompileStageFn)(const char *stage, void *userData);

typedef struct KilnCompileOptions {
  const KilnTarget *target;
  const KilnModelSignature *signature; /* recorded before lowering */
  /* The `options` metadata record (free text, one line); NULL: "-ON". */
  const char *recordedOptions;
  KilnCompileEmit emit;
  KilnCompileStageFn onStage; /* may be NULL */
  void *stageUserData;
  /* Static fast paths merged into the module (kilnModuleMergeSpecialized):
   * kiln_model_run calls the first whose dims the inputs have, else the
   * entry. */
  const struct KilnSpecializedEntry *specialized;
  intptr_t numSpecialized;
} KilnCompileOptions;

/// Translates `module` (LLVM dialect, as left by `linalg-to-llvm-cpu`) to
/// LLVM IR for the target, adds the model ABI's `kiln_model_metadata` and
/// `kiln_model_run` (every other definition becomes internal), optimizes at
/// the target's -O level and passes the requested output to
/// `outputCallback` (possibly in fragments). Returns failure after passing
/// one message to `errorCallback` (translation problems are also reported as
/// diagnostics on the module's context). `module` is not modified.
MlirLogicalResult
kilnCompileToObject(MlirModule module, const KilnCompileOptions *options,
                    MlirStringCallback outputCallback, void *outputUserData,
                    MlirStringCallback errorCallback, void *errorUserData);

/// Receives object `index` of a compilation, whole (not in fragments).
typedef void (*KilnCompileObjectFn)(unsigned index, MlirStringRef object,
                                    void *userData);

/// Like kilnCompileToObject with KILN_COMPILE_EMIT_OBJECT (`options->emit`
/// is ignored), but generates code on up to `numThreads` threads: the
/// optimized module is split into that many partitions balanced by size
/// (never more than its function definitions), each compiled to its own
/// object in its own LLVM context; the large constants (weights) of a CPU
/// module go into objects of their own, written from their MLIR buffers
/// without a copy in LLVM IR. Passes each object to `objectCallback` as soon
/// as it is done: one call at a time, but in any order and from any thread.
/// The objects of a split module refer to each other through hidden
/// symbols: link them together, in index order, into one library
/// (kilnLinkSharedLibrary); they compute what the single object does.
/// `numThreads` <= 1, or a module with one function definition, gives the
/// code in one object, that of kilnCompileToObject less the weights of a
/// CPU module, which follow in their own objects. Returns failure after
/// passing one message to `errorCallback` (discard the objects passed
/// before).
MlirLogicalResult
kilnCompileToObjects(MlirModule module, const KilnCompileOptions *options,
                     unsigned numThreads, KilnCompileObjectFn objectCallback,
                     void *objectUserData, MlirStringCallback errorCallback,
                     void *errorUserData);

/* ---- specialized entries (--specialize) ------------------------------- */

/// An input dim a specialized entry fixes: input `input`'s dim `dim` is
/// `size` there (and dynamic in the model's entry).
typedef struct KilnSpecializedDim {
  intptr_t input;
  int64_t dim, size;
} KilnSpecializedDim;

/// A second compilation of a dynamic model with some dims fixed, merged
/// into the first's module (both lowered to the LLVM dialect). Owned by
/// the merge's caller: destroy with kilnSpecializedEntryDestroy.
typedef struct KilnSpecializedEntry {
  char *entry;        /* its C-interface function, "PREFIX_mlir_ciface_E" */
  char *statusSymbol; /* its run-time checks' status word, or NULL */
  /* Its check N is the merged module's check firstCheck + N. */
  int32_t firstCheck;
  KilnSpecializedDim *dims; /* the dims it fixes */
  intptr_t numDims;
  char *description; /* the `specialization` metadata record's text */
} KilnSpecializedEntry;

/// Moves every definition of `specialized` into `module`, renamed with
/// `prefix`. Declarations keep their names (one copy stays); a weight
/// (a constant global of registered bytes, support/resource_data.h) equal
/// to one of `module`'s is shared rather than copied. The run-time checks'
/// messages are appended to `module`'s, the memory plan is the larger.
/// `signature` and `specializedSignature` are the two compilations'; the
/// second must have the first's inputs and outputs, with some dynamic dims
/// fixed. `description` names the fixed dims for the metadata ("batch=1").
/// `specialized` is left empty. Returns failure after emitting a
/// diagnostic.
MlirLogicalResult kilnModuleMergeSpecialized(
    MlirModule module, const KilnModelSignature *signature,
    MlirModule specialized, const KilnModelSignature *specializedSignature,
    const char *prefix, const char *description,
    KilnSpecializedEntry *entry /* OUT */);
/// Frees what an entry owns; the struct itself is the caller's.
void kilnSpecializedEntryDestroy(KilnSpecializedEntry *entry);

/// Links the `numObjects` object files at `objectPaths` into a shared
/// library at `libraryPath` (created or overwritten; the caller publishes
/// it atomically) with the clang driver and ld.lld found at build time. For a
/// host-architecture target the library needs libomp (with an rpath to its
/// directory), libm and libc; for other targets undefined symbols stay
/// unresolved. `libraries` names `numLibraries` more libraries the code
/// calls (`mpi` for -lmpi: a sharded model's Open MPI), found on the
/// linker's default path. The library ends with the integrity digest the
/// runtime checks at every load (docs/runtime.md). The linker's own
/// messages go to stderr. Returns failure after passing one message to
/// `errorCallback`.
MlirLogicalResult
kilnLinkSharedLibrary(const KilnTarget *target, const char *const *objectPaths,
                      unsigned numObjects, const char *const *libraries,
                      unsigned numLibraries, const char *libraryPath,
                      MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif
