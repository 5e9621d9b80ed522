/* Kiln's runtime API (libkiln_runtime): host tensors and their files, and
 * loading and running models compiled by kiln-compile (model.so).
 *
 * The runtime depends on libc (with libdl) only, so it can be linked into
 * any program and built with nothing but a C compiler; a model library
 * brings its own OpenMP runtime (LLVM's libomp). See docs/runtime.md.
 *
 * Errors are objects, in the style of IREE's C API: every fallible call
 * returns a `KilnStatus *`, NULL on success. A non-NULL status owns a
 * human-readable message (for file functions prefixed with the path) and
 * must be released with kilnStatusDestroy. On failure, out-parameters are
 * set to NULL. Bad input (malformed files, impossible shapes) is always an
 * error status, never a crash; only a failed small allocation aborts. */
#ifndef KILN_KILN_RUNTIME_H
#define KILN_KILN_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

/// An error: NULL means success.
typedef struct KilnStatus KilnStatus;

/// The status' message (borrowed, valid until kilnStatusDestroy); "ok" for
/// NULL.
const char *kilnStatusGetMessage(const KilnStatus *status);

/// Releases `status`; NULL is a no-op.
void kilnStatusDestroy(KilnStatus *status);

/// Text from files Kiln did not write (a model's node names, an npy
/// header, a tensor's name) made safe to quote in a message: every byte
/// that is not printable ASCII, a tab or a newline, or part of well-formed
/// UTF-8 is written as \xNN, so a damaged or hostile file cannot put
/// terminal control sequences (ESC, carriage returns, backspaces) or broken
/// UTF-8 on the user's terminal. Newlines stay: compiler diagnostics print
/// IR over several lines. Making the result printable again gives itself,
/// so a message wrapped in another keeps its escapes. The runtime's own
/// messages are printable already. A malloc'd copy: release with free.
char *kilnPrintableTextCreate(const char *text);

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

/// Element types of host tensors. Values are Kiln's own (not ONNX's).
typedef enum KilnElementType {
  KILN_ELEMENT_TYPE_F16,
  KILN_ELEMENT_TYPE_BF16,
  KILN_ELEMENT_TYPE_F32,
  KILN_ELEMENT_TYPE_F64,
  KILN_ELEMENT_TYPE_I8,
  KILN_ELEMENT_TYPE_I16,
  KILN_ELEMENT_TYPE_I32,
  KILN_ELEMENT_TYPE_I64,
  KILN_ELEMENT_TYPE_U8,
  KILN_ELEMENT_TYPE_U16,
  KILN_ELEMENT_TYPE_U32,
  KILN_ELEMENT_TYPE_U64,
  /// One byte per element, 0 or 1.
  KILN_ELEMENT_TYPE_BOOL,
} KilnElementType;

/// The largest rank a tensor may have (numpy's limit).
#define KILN_TENSOR_MAX_RANK 64

/// Size in bytes of one element of `type`, 0 for a value outside the enum.
size_t kilnElementTypeGetSize(KilnElementType type);

/// A short lower-case name ("f32", "bool"), "?" outside the enum.
const char *kilnElementTypeGetName(KilnElementType type);

/// A dense host tensor: element type, rank, dims and contiguous row-major
/// little-endian (host-order) data, owned by the tensor (64-byte aligned) or
/// borrowed from the caller, plus an optional name. Opaque; use the
/// accessors.
typedef struct KilnTensor KilnTensor;

/// Creates a zero-filled tensor of `type` with `rank` dims (0 for a scalar;
/// `dims` may be NULL then). Fails on an unknown type, a rank outside
/// 0..KILN_TENSOR_MAX_RANK, a negative dim, a byte size that overflows, or
/// memory that cannot be allocated. The data is 64-byte aligned and owned
/// by the tensor. Destroy with kilnTensorDestroy.
KilnStatus *kilnTensorCreate(KilnElementType type, int64_t rank,
                             const int64_t *dims, KilnTensor **out /* OUT */);

/// Creates a tensor over the caller's buffer `data[0, byteSize)`, which must
/// hold at least the shape's bytes, row-major, and outlive the tensor; the
/// tensor never frees it. Fails as kilnTensorCreate does, and for a NULL
/// `data` or a `byteSize` smaller than the shape needs. Destroy with
/// kilnTensorDestroy.
KilnStatus *kilnTensorCreateWithBuffer(KilnElementType type, int64_t rank,
                                       const int64_t *dims, void *data,
                                       size_t byteSize,
                                       KilnTensor **out /* OUT */);

/// Releases `tensor` and its data if it owns it; NULL is a no-op.
void kilnTensorDestroy(KilnTensor *tensor);

KilnElementType kilnTensorGetElementType(const KilnTensor *tensor);
int64_t kilnTensorGetRank(const KilnTensor *tensor);
/// The dims (borrowed; `rank` entries, NULL-safe to read for rank 0).
const int64_t *kilnTensorGetDims(const KilnTensor *tensor);
/// The number of elements (product of the dims; 1 for a scalar).
int64_t kilnTensorGetElementCount(const KilnTensor *tensor);
/// The size of the data in bytes.
size_t kilnTensorGetByteSize(const KilnTensor *tensor);
/// The data (writable, never NULL; owned by the tensor unless it was
/// created with kilnTensorCreateWithBuffer).
void *kilnTensorGetData(KilnTensor *tensor);
const void *kilnTensorGetConstData(const KilnTensor *tensor);
/// Element `index` (row-major, in [0, element count)) as a double: exact
/// for every float type and for integers up to 2^53 in magnitude; NaN for
/// an index out of range.
double kilnTensorGetElementAsDouble(const KilnTensor *tensor, int64_t index);
/// The name (borrowed), or NULL when the tensor has none.
const char *kilnTensorGetName(const KilnTensor *tensor);
/// Copies `name` into the tensor (NULL removes the name).
void kilnTensorSetName(KilnTensor *tensor, const char *name);

//===----------------------------------------------------------------------===//
// .npy files (numpy's format, versions 1.0, 2.0 and 3.0)
//===----------------------------------------------------------------------===//

/// Parses the .npy bytes `data[0, len)` into a new tensor. Accepts the
/// dtypes <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1 (big-endian
/// '>' forms are byte-swapped; '=' is read as little-endian), C order only.
/// The data must be exactly as long as the shape says. bf16 has no numpy
/// dtype. `data` is only read during the call.
KilnStatus *kilnTensorReadNpy(const void *data, size_t len,
                              KilnTensor **out /* OUT */);

/// As kilnTensorReadNpy for the file at `path`.
KilnStatus *kilnTensorReadNpyFile(const char *path, KilnTensor **out /* OUT */);

/// Serializes `tensor` as a version 1.0 .npy file, byte for byte as
/// numpy.save writes it. Returns the bytes in `*outData` (release with
/// free) and their count in `*outLen`. Fails for bf16.
KilnStatus *kilnTensorWriteNpy(const KilnTensor *tensor,
                               void **outData /* OUT */,
                               size_t *outLen /* OUT */);

/// As kilnTensorWriteNpy, writing the file at `path`.
KilnStatus *kilnTensorWriteNpyFile(const KilnTensor *tensor, const char *path);

//===----------------------------------------------------------------------===//
// ONNX TensorProto files (.pb)
//===----------------------------------------------------------------------===//

/// Parses the serialized onnx.TensorProto `data[0, len)` into a new tensor
/// named after the proto's `name` (if set). Elements are decoded as ONNX
/// does: raw_data (little-endian), float_data, double_data, int64_data,
/// int32_data (which carries i8/i16/u8/u16/bool/f16/bf16 values, truncated
/// to the type's width, bool as nonzero) or uint64_data (u32/u64). Fails on
/// malformed wire data, string or complex tensors, external or segmented
/// data, an element count that differs from the dims, or more than one data
/// field. `data` is only read during the call.
KilnStatus *kilnTensorReadPb(const void *data, size_t len,
                             KilnTensor **out /* OUT */);

/// As kilnTensorReadPb for the file at `path`.
KilnStatus *kilnTensorReadPbFile(const char *path, KilnTensor **out /* OUT */);

//===----------------------------------------------------------------------===//
// Compiled models (model.so, the Kiln model library ABI version 1)
//===----------------------------------------------------------------------===//

/// The Kiln version of this runtime (KILN_VERSION_STRING of kiln/version.h):
/// the version whose model libraries it loads. Static, never NULL.
const char *kilnRuntimeGetVersion(void);

/// A loaded model library. Opaque; use the accessors. Runs of one model
/// library do not overlap: a kilnModelRun while another run of the same
/// library is in progress on another thread (through this KilnModel or
/// another loaded from the same file, which shares its code and state)
/// fails at once with an error saying so; serialize the calls, or load a
/// copy of the file under another name per thread. Distinct libraries may
/// run concurrently.
typedef struct KilnModel KilnModel;

/// Loads the model library at `path` (dlopen; its constructors run) and
/// checks its metadata: the Kiln model ABI number, the Kiln version that
/// built it (must be this runtime's, KILN_VERSION_STRING), its target
/// (must be for this host's architecture and CPU features), well-formed
/// input and output records, and its memory plan: the most heap memory a
/// run holds at once must fit this machine's physical memory (or
/// KILN_MEMORY_LIMIT bytes, when that environment variable is set), so a
/// model too big for the machine is refused here rather than killed for
/// memory midway through a run. Fails on a missing, corrupt (its integrity
/// digest) or non-Kiln file.
///
/// A model compiled for a GPU (kilnModelGetGpu) also needs its device: the
/// CUDA driver (libcuda.so.1, loaded at the first such model) and device 0,
/// or device N with the environment variable KILN_CUDA_DEVICE=N, of at
/// least the model's architecture. Its kernels and device state are set up
/// here; a missing driver or device, a device too old or a kernel the
/// driver cannot load is an error naming the cause. One library file can
/// be loaded as one GPU model at a time per process. Destroy with
/// kilnModelDestroy.
KilnStatus *kilnModelLoad(const char *path, KilnModel **out /* OUT */);

/// The integrity digest of the model library at `path` (the 64-bit hash of
/// its bytes that kiln-compile appends and kilnModelLoad checks), after the
/// same file checks, without loading it: two libraries with one digest
/// hold the same code and data (kiln-tune measures such candidates once).
KilnStatus *kilnModelLibraryGetDigest(const char *path,
                                      uint64_t *digest /* OUT */);

/// Unloads `model`; NULL is a no-op. Tensors are independent of it.
void kilnModelDestroy(KilnModel *model);

/// The number of inputs and outputs (0 for a NULL model).
int64_t kilnModelGetNumInputs(const KilnModel *model);
int64_t kilnModelGetNumOutputs(const KilnModel *model);

/// A dim whose size the model takes at run time (kilnModelGetInputDims).
#define KILN_DIM_DYNAMIC ((int64_t)-1)

/// Input `i`'s name (borrowed, valid until kilnModelDestroy), element type,
/// rank and dims (borrowed, `rank` entries; KILN_DIM_DYNAMIC for a dim of
/// any size, which inputs that share its name (kilnModelGetInputDimName)
/// must agree on). An index out of range (or a NULL model) gives NULL, -1
/// as the type and rank, and NULL dims.
const char *kilnModelGetInputName(const KilnModel *model, int64_t i);
KilnElementType kilnModelGetInputElementType(const KilnModel *model, int64_t i);
int64_t kilnModelGetInputRank(const KilnModel *model, int64_t i);
const int64_t *kilnModelGetInputDims(const KilnModel *model, int64_t i);

/// As the input queries, for output `i`. A dynamic output dim's size
/// follows from the inputs: kilnModelGetOutputDimsFor.
const char *kilnModelGetOutputName(const KilnModel *model, int64_t i);
KilnElementType kilnModelGetOutputElementType(const KilnModel *model,
                                              int64_t i);
int64_t kilnModelGetOutputRank(const KilnModel *model, int64_t i);
const int64_t *kilnModelGetOutputDims(const KilnModel *model, int64_t i);

/// The name the model gives dim `dim` of input (or output) `i`: its ONNX
/// dim_param, such as "batch" (borrowed, valid until kilnModelDestroy);
/// NULL for a dim without one, and for indices out of range. A library is
/// compiled for one size of each named dim (kiln-compile --dim NAME=SIZE);
/// the names say which sizes another compilation could change.
const char *kilnModelGetInputDimName(const KilnModel *model, int64_t i,
                                     int64_t dim);
const char *kilnModelGetOutputDimName(const KilnModel *model, int64_t i,
                                      int64_t dim);

/// Metadata strings (borrowed, valid until kilnModelDestroy; NULL for a
/// NULL model): the Kiln version that built the model, its LLVM target
/// triple, CPU name ("generic" if none), CPU features ("-" if none), the
/// kiln-compile options that affect code, and the entry function's name.
const char *kilnModelGetKilnVersion(const KilnModel *model);
const char *kilnModelGetTarget(const KilnModel *model);
const char *kilnModelGetCpu(const KilnModel *model);
const char *kilnModelGetFeatures(const KilnModel *model);
const char *kilnModelGetOptions(const KilnModel *model);
const char *kilnModelGetEntry(const KilnModel *model);

/// The most heap memory one run of the model holds at once, in bytes (its
/// memory plan, computed when it was compiled; the caller's inputs and
/// outputs not included); 0 if the library does not record it.
int64_t kilnModelGetMemoryPlan(const KilnModel *model);

/// How many static fast paths the library holds (kiln-compile
/// --specialize): code compiled for some sizes of its dynamic dims, which
/// runs when the inputs have them.
int64_t kilnModelGetNumSpecializations(const KilnModel *model);
/// Fast path `i`'s dims as "NAME=SIZE" words ("batch=1 seq=128"); NULL
/// out of range. Borrowed from the model.
const char *kilnModelGetSpecialization(const KilnModel *model, int64_t i);

/// The GPU the model runs on, as its metadata's `gpu` record says: the GPU
/// kind and architecture ("cuda sm_90"); NULL for a CPU model (and a NULL
/// model). Borrowed, valid until kilnModelDestroy.
const char *kilnModelGetGpu(const KilnModel *model);

/// The model's sharding plan, as its metadata's `shard` record says ("tp:2",
/// kiln-compile --shard; docs/scale-out.md), NULL for a model that runs in
/// one process. A sharded model runs as that many MPI processes (mpirun -np
/// N): kilnModelLoad starts MPI if the program has not, and kilnModelRun
/// fails when the process count differs. Borrowed, valid until
/// kilnModelDestroy.
const char *kilnModelGetShard(const KilnModel *model);

/// This process's rank among a sharded model's processes (MPI_COMM_WORLD's
/// rank); 0 for a model that is not sharded.
int kilnModelGetShardRank(const KilnModel *model);

/// Sets the number of OpenMP threads the model's runs use (`n` >= 1): each
/// run calls the model library's omp_set_num_threads(n) first and restores
/// the previous value after. By default a run uses the OpenMP runtime's
/// default (OMP_NUM_THREADS, else all cores). For a GPU model it only
/// affects host code; a library without OpenMP runs on one thread anyway.
KilnStatus *kilnModelSetThreadCount(KilnModel *model, int n);

/// The dims every output has when `model` runs on `inputs[0, numInputs)`
/// (checked as kilnModelRun checks them), output i's into `dims[i]` (its
/// rank entries): its static dims, and the dynamic ones as the model's
/// shape function computes them from the inputs (run once for all).
/// Query, then create the outputs and run.
KilnStatus *kilnModelGetOutputDimsFor(KilnModel *model,
                                      KilnTensor *const *inputs,
                                      size_t numInputs,
                                      int64_t *const *dims /* OUT */);

/// Creates the outputs of a run on `inputs` (kilnModelGetOutputDimsFor for
/// each, runtime-owned tensors named after the outputs) into
/// `outputs[0, number of outputs)`.
/// Destroy each with kilnTensorDestroy. On failure none are left.
KilnStatus *kilnModelCreateOutputs(KilnModel *model, KilnTensor *const *inputs,
                                   size_t numInputs,
                                   KilnTensor **outputs /* OUT */);

/// Runs `model` on `inputs[0, numInputs)`, writing `outputs[0, numOutputs)`
/// in place. The caller creates every tensor; each must have the element
/// type and dims the model reports for its slot: a dynamic input dim any
/// size, the same for every input dim of the same name ("input 1 ('mask')
/// dim 1 ('seq') is 64, but input 0 ('ids') gives 'seq' the size 128"),
/// the outputs as kilnModelGetOutputDimsFor says. Fails, without running,
/// on a NULL model, array or tensor, a wrong count, type or shape; fails
/// if the model's code reports an error, such as a run-time check on the
/// data ONNX defines as an error ("run-time check failed: ids (Gather): an
/// index is out of range: ..."; the outputs are then not to be used;
/// kiln-compile --no-runtime-checks builds a library without them). The
/// tensors are only used during
/// the call. A GPU model's run has finished on the device when this
/// returns; its first CUDA error, if any, is the status (e.g. "CUDA error
/// in cuLaunchKernel (kernel 'main_graph_kernel_3'): ..."), and the next
/// run starts afresh.
KilnStatus *kilnModelRun(KilnModel *model, KilnTensor *const *inputs,
                         size_t numInputs, KilnTensor *const *outputs,
                         size_t numOutputs);

//===----------------------------------------------------------------------===//
// Profiles (models built with kiln-compile --profile)
//===----------------------------------------------------------------------===//

/// Whether `model` was built with kiln-compile --profile: its runs time
/// each record (a fused group or a single ONNX node, in program order) and
/// the whole run. False for a NULL model.
bool kilnModelIsProfiled(const KilnModel *model);

/// The number of records (0 for an unprofiled or NULL model).
int64_t kilnModelGetNumProfileRecords(const KilnModel *model);

/// Record `i`'s ONNX nodes: how many (0 for an index out of range), and
/// node `j`'s name ("#INDEX" for an unnamed node) and op type ("Conv"),
/// borrowed until kilnModelDestroy; NULL out of range.
int64_t kilnModelGetProfileRecordNumNodes(const KilnModel *model, int64_t i);
const char *kilnModelGetProfileRecordNodeName(const KilnModel *model, int64_t i,
                                              int64_t j);
const char *kilnModelGetProfileRecordNodeOpType(const KilnModel *model,
                                                int64_t i, int64_t j);

/// Record `i`'s output shape: rank (-1 when unknown or out of range) and
/// dims (borrowed, `rank` entries; NULL when the rank is -1).
int64_t kilnModelGetProfileRecordRank(const KilnModel *model, int64_t i);
const int64_t *kilnModelGetProfileRecordDims(const KilnModel *model, int64_t i);

/// Record `i`'s floating-point operations per run: 2 x the
/// multiply-accumulates of its contractions (convs, matmuls) from their
/// static shapes; 0 when it has none; -1 out of range.
int64_t kilnModelGetProfileRecordFlops(const KilnModel *model, int64_t i);

/// A record's timings, in nanoseconds of CLOCK_MONOTONIC.
typedef struct KilnProfileTimes {
  int64_t runs;        /* runs timed since the load or the last reset */
  int64_t totalNs;     /* the time of those runs, summed */
  int64_t lastNs;      /* the last run's time */
  int64_t lastStartNs; /* when the last run entered the record, from the
                          start of that run's first record */
} KilnProfileTimes;

/// Reads record `i`'s timings into `*out`; `i` equal to
/// kilnModelGetNumProfileRecords gives the whole run (from the first
/// record's start to the last one's end). Fails for a model built without
/// --profile (the message says how to rebuild it) and an `i` out of range.
/// The counters live in the library: two KilnModels of one library file
/// share them.
KilnStatus *kilnModelGetProfileTimes(const KilnModel *model, int64_t i,
                                     KilnProfileTimes *out /* OUT */);

/// Zeroes every record's timings. Fails for a model built without
/// --profile.
KilnStatus *kilnModelResetProfile(KilnModel *model);

#ifdef __cplusplus
}
#endif

#endif
