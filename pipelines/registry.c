/* The registry of Kiln passes and named pipelines, and option parsing. */
#include "kiln/passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "kiln/suggest.h"
#include "pipelines/external_pass.h"
#include "pipelines/option_text.h"

extern const KilnPassInfo kilnGraphVerifyPass;
extern const KilnPassInfo kilnGraphDCEPass;
extern const KilnPassInfo kilnGraphCSEPass;
extern const KilnPassInfo kilnGraphFoldConstantsPass;
extern const KilnPassInfo kilnGraphFoldBatchNormPass;
extern const KilnPassInfo kilnGraphMixedPrecisionPass;
extern const KilnPassInfo kilnGraphLayoutPass;
extern const KilnPassInfo kilnGraphFusePass;
extern const KilnPassInfo kilnGraphPerSamplePass;
extern const KilnPassInfo kilnFuseGroupsPass;
extern const KilnPassInfo kilnTileOutputsInPlacePass;
extern const KilnPassInfo kilnConcatInPlacePass;
extern const KilnPassInfo kilnDepthwiseConvPass;
extern const KilnPassInfo kilnTileAndVectorizePass;
extern const KilnPassInfo kilnApproximateMathPass;
extern const KilnPassInfo kilnSplitReductionsPass;
extern const KilnPassInfo kilnSerializeNestedParallelPass;
extern const KilnPassInfo kilnUnifyDimsPass;
extern const KilnPassInfo kilnRegroupReshapesPass;
extern const KilnPassInfo kilnRecomputeMasksPass;
extern const KilnPassInfo kilnHoistOperandProloguesPass;
extern const KilnPassInfo kilnGraphSimplifyPass;
extern const KilnPassInfo kilnConvertGraphToLinalgPass;
extern const KilnPassInfo kilnRuntimeChecksPass;
extern const KilnPassInfo kilnApplyTuningPass;
extern const KilnPassInfo kilnEmitCInterfacePass;
extern const KilnPassInfo kilnMemrefCopyToLinalgPass;
extern const KilnPassInfo kilnWidenStridedReadsPass;
extern const KilnPassInfo kilnDistinctResultsPass;
extern const KilnPassInfo kilnMemoryPlanPass;
extern const KilnPassInfo kilnShapeFunctionPass;
extern const KilnPassInfo kilnShapeChecksPass;
extern const KilnPassInfo kilnExpandDynamicGroupsPass;
extern const KilnPassInfo kilnOutlineRegionsPass;
extern const KilnPassInfo kilnProfileNodesPass;
extern const KilnPassInfo kilnInstrumentOpsPass;
extern const KilnPassInfo kilnGpuStageIOPass;
extern const KilnPassInfo kilnGpuDeviceMemoryPass;
extern const KilnPassInfo kilnGpuMapLoopsPass;
extern const KilnPassInfo kilnGpuTileContractionsPass;
extern const KilnPassInfo kilnGpuBlockReductionsPass;
extern const KilnPassInfo kilnGpuTileWindowsPass;
extern const KilnPassInfo kilnShardPreparePass;
extern const KilnPassInfo kilnShardPlanPass;
extern const KilnPassInfo kilnShardBindWeightsPass;
extern const KilnPassInfo kilnShardDecomposeCollectivesPass;
extern const KilnPassInfo kilnOpenMpiFixupsPass;
extern const KilnPassInfo kilnMpiWorldGridPass;
extern const KilnPassInfo kilnGpuLaunchPhasesPass;
extern const KilnPassInfo kilnGpuMergeKernelsPass;

/* Named pipelines. */
static const KilnPassInfo kGraphCleanupPipeline = {
    .argument = "graph-cleanup",
    .summary = "Verify the graph, merge duplicate ops, erase dead ones",
    .pipeline = "func.func(graph-verify,graph-cse),graph-dce",
};

/* The parameters of the CPU pipelines: the target, passed on to every
 * kiln-tile-and-vectorize in them (its register tiles and cache blocks are
 * the target's). The session (kiln/session.h) gives them; without them the
 * schedules are this machine's. */
static const KilnPassOptionSpec kCpuTargetParameters[] = {
    {"target-triple", KILN_PASS_OPTION_STRING, "",
     "LLVM triple the code is for; empty: this machine"},
    {"target-features", KILN_PASS_OPTION_STRING, "",
     "LLVM CPU features of the target (+avx2,+fma,...), with target-triple"},
};
#define KILN_CPU_TARGET_PARAMETERS                                             \
  .options = kCpuTargetParameters,                                             \
  .numOptions = sizeof(kCpuTargetParameters) / sizeof(kCpuTargetParameters[0])

/* Kiln's CPU schedules on linalg tensors (docs/cpu-codegen.md): depthwise
 * convs and contractions tiled for threads, cache and registers and
 * vectorized (the init producers, a bias or fill, fused into each thread
 * block; row reductions first split into vector-wide partial results),
 * elementwise chains fused, each block's ops chained through its slice of the
 * output, then the elementwise ops tiled and vectorized. (Conv and matmul
 * epilogues are fused into the contraction's tiles earlier, by kiln-fuse-groups
 * in graph-to-linalg.) */
static const KilnPassInfo kLinalgTileAndFusePipeline = {
    .argument = "linalg-tile-and-fuse",
    .summary = "Tile, fuse and vectorize linalg on tensors for the CPU",
    .pipeline = "func.func(kiln-hoist-operand-prologues,kiln-depthwise-conv,"
                "kiln-split-reductions,"
                "kiln-tile-and-vectorize,kiln-recompute-masks),"
                "linalg-fuse-elementwise-ops,"
                "func.func(kiln-tile-outputs-in-place,"
                "kiln-tile-and-vectorize{contractions=false elementwise=true},"
                "kiln-approximate-math{exp-tanh=true})",
    KILN_CPU_TARGET_PARAMETERS,
};

/* Bufferization with the caller-allocated-outputs ABI, the same for the
 * CPU and the GPU pipelines (between the two parts, each pipeline's own
 * steps on the bufferized function). */
#define KILN_BUFFERIZE                                                         \
  "one-shot-bufferize{bufferize-function-boundaries "                          \
  "function-boundary-type-conversion=identity-layout-map "                     \
  "allow-return-allocs-from-loops}"
#define KILN_OUT_PARAMS_AND_DEALLOC                                            \
  "buffer-results-to-out-params{hoist-static-allocs "                          \
  "modify-public-functions},"                                                  \
  "buffer-deallocation-pipeline,convert-bufferization-to-memref,"              \
  "kiln-memref-copy-to-linalg"

/* Tensors-level linalg/tensor/arith/math to the LLVM dialect with the
 * caller-allocated-outputs ABI (docs/runtime.md). Math ops without an
 * LLVM intrinsic become outlined integer powers (math-to-funcs) or libm
 * calls (math-to-libm: erf, acosh, cbrt, ...; on a vector, one call per
 * lane, whose extracts and inserts a second convert-vector-to-llvm
 * lowers). In a module marked
 * kiln.profile (kiln-compile --profile), kiln-profile-nodes and
 * kiln-instrument-ops add timers around each ONNX node group; otherwise
 * they change nothing. kiln-memory-plan records the most heap memory a run
 * holds at once for the runtime's check at load (memory_plan.h).
 * kiln-unify-dims makes dims the model makes equal one value, so dynamic
 * broadcasts fold; four times, since a size it unifies, once the
 * canonicalizer has folded the comparisons it fed, can make the next
 * broadcast's foldable (a causal mask sliced to the sequence loses its
 * stretch branch in the third, the slices of its result in the fourth).
 * After each round kiln-regroup-reshapes turns the reshapes whose sizes
 * are now the source's own dims into expands and collapses (views, not
 * copies). */
static const KilnPassInfo kLinalgToLLVMCpuPipeline = {
    .argument = "linalg-to-llvm-cpu",
    .summary = "Bufferize linalg on tensors, lower to OpenMP loops and LLVM",
    .pipeline =
        "resolve-ranked-shaped-type-result-dims,canonicalize,cse,"
        "func.func(kiln-unify-dims),cse,canonicalize,"
        "func.func(kiln-regroup-reshapes,kiln-unify-dims),cse,canonicalize,"
        "func.func(kiln-regroup-reshapes,kiln-unify-dims),cse,canonicalize,"
        "func.func(kiln-regroup-reshapes,kiln-unify-dims),cse,canonicalize,"
        "func.func(kiln-regroup-reshapes),"
        "kiln-shape-checks,kiln-shape-function,"
        "resolve-ranked-shaped-type-result-dims,kiln-emit-c-interface,"
        "canonicalize,"
        "kiln-profile-nodes,linalg-tile-and-fuse,func.func(kiln-concat-in-"
        "place),"
        "eliminate-empty-tensors," KILN_BUFFERIZE
        ",func.func(kiln-distinct-results)," KILN_OUT_PARAMS_AND_DEALLOC
        ",kiln-memory-plan,kiln-instrument-ops,"
        "func.func(kiln-tile-and-vectorize{contractions=false "
        "elementwise=true},kiln-widen-strided-reads),"
        "scf-forall-to-parallel,convert-linalg-to-parallel-loops,"
        "canonicalize,convert-vector-to-scf{full-unroll=true},"
        "func.func(kiln-serialize-nested-parallel),"
        "kiln-outline-regions,convert-scf-to-openmp,"
        "kiln-expand-dynamic-groups,expand-strided-metadata,"
        "lower-affine,finalize-memref-to-llvm,convert-scf-to-cf,"
        "convert-vector-to-llvm,convert-ub-to-llvm,convert-math-to-llvm,"
        "convert-math-to-funcs,convert-math-to-libm,convert-vector-to-llvm,"
        "convert-arith-to-llvm,convert-cf-to-llvm,convert-openmp-to-llvm,"
        "convert-func-to-llvm,convert-index-to-llvm,"
        "reconcile-unrealized-casts",
    KILN_CPU_TARGET_PARAMETERS,
};

/* Graph optimization levels (docs/optimization-levels.md). Each level
 * runs what the one below runs, then more; graph-verify first, so every
 * pass sees a verified graph, and graph-dce last, so nothing a pass made
 * dead reaches the lowering. Their parameter `precision` reaches
 * graph-mixed-precision (kiln-compile --precision), which runs after the
 * simplifications (it would hide their patterns behind casts) and before
 * the fusion groups form (so the casts join them). */
static const KilnPassOptionSpec kGraphOptParameters[] = {
    {"precision", KILN_PASS_OPTION_STRING, "fp32",
     "Compute precision given to graph-mixed-precision: fp32, fp16, bf16"},
};
#define KILN_GRAPH_OPT_PARAMETERS                                              \
  .options = kGraphOptParameters,                                              \
  .numOptions = sizeof(kGraphOptParameters) / sizeof(kGraphOptParameters[0])

static const KilnPassInfo kGraphO0Pipeline = {
    .argument = "graph-O0",
    .summary = "Graph optimizations at -O0: none (verification only)",
    .pipeline = "func.func(graph-verify,graph-mixed-precision)",
    KILN_GRAPH_OPT_PARAMETERS,
};

static const KilnPassInfo kGraphO1Pipeline = {
    .argument = "graph-O1",
    .summary = "Graph optimizations at -O1: fold constants, remove no-ops, "
               "merge duplicates, erase dead ops",
    .pipeline = "func.func(graph-verify,graph-fold-constants,graph-cse),"
                "graph-dce,"
                "func.func(graph-simplify{recompose=false reassociate=false},"
                "graph-cse,graph-mixed-precision,graph-cse),graph-dce",
    KILN_GRAPH_OPT_PARAMETERS,
};

/* Duplicates are merged and dead ops erased before graph-simplify and
 * graph-fuse: both match single-use chains. */
static const KilnPassInfo kGraphO2Pipeline = {
    .argument = "graph-O2",
    .summary = "Graph optimizations at -O2: -O1, recompose GELU/LayerNorm/"
               "Gemm, fold BatchNorm, form fusion groups",
    .pipeline = "func.func(graph-verify,graph-fold-constants,graph-cse),"
                "graph-dce,"
                "func.func(graph-simplify{reassociate=false},"
                "graph-fold-batchnorm,graph-cse),graph-dce,"
                "func.func(graph-mixed-precision,graph-cse),"
                "func.func(graph-per-sample,graph-fuse)",
    KILN_GRAPH_OPT_PARAMETERS,
};

static const KilnPassInfo kGraphO3Pipeline = {
    .argument = "graph-O3",
    .summary = "Graph optimizations at -O3 (the tools' default): -O2, and "
               "reassociate constant chains",
    .pipeline = "func.func(graph-verify,graph-fold-constants,graph-cse),"
                "graph-dce,"
                "func.func(graph-simplify,graph-fold-batchnorm,graph-cse),"
                "graph-dce,func.func(graph-mixed-precision,graph-cse),"
                "func.func(graph-per-sample,graph-fuse)",
    KILN_GRAPH_OPT_PARAMETERS,
};

static const KilnPassInfo *const kGraphOptPipelines[] = {
    &kGraphO0Pipeline, &kGraphO1Pipeline, &kGraphO2Pipeline, &kGraphO3Pipeline};

const char *kilnGraphOptPipelineName(int level) {
  return level >= 0 && level <= 3 ? kGraphOptPipelines[level]->argument : NULL;
}

/* With kiln-runtime-checks: kiln-run's JIT reports a failed check as
 * kiln-compile's libraries do. */
static const KilnPassInfo kCpuPipeline = {
    .argument = "cpu",
    .summary = "Graph dialect to LLVM dialect for the host CPU",
    .pipeline = "kiln-runtime-checks,graph-to-linalg,linalg-to-llvm-cpu",
    KILN_CPU_TARGET_PARAMETERS,
};

/* A sharded model's (MLIR's sharding takes whole linalg ops, not loops):
 * tile=false inlines the fusion groups instead of tiling them into
 * scf.forall loops; im2col-gather=true builds strided convs' windows as
 * one gather instead of a loop of copies. */
static const KilnPassOptionSpec kGraphToLinalgParameters[] = {
    {"tile", KILN_PASS_OPTION_BOOL, "true",
     "Tile and fuse each fusion group (kiln-fuse-groups); false: inline "
     "the groups' ops"},
    {"im2col-gather", KILN_PASS_OPTION_BOOL, "false",
     "Build every im2col window tensor as one gather (convert-graph-to-"
     "linalg), strided convs too"},
};

static const KilnPassInfo kGraphToLinalgPipeline = {
    .argument = "graph-to-linalg",
    .summary = "Lower the graph dialect to linalg on tensors",
    .pipeline = "func.func(graph-verify,convert-graph-to-linalg,canonicalize,"
                "cse,kiln-fuse-groups,canonicalize)",
    .options = kGraphToLinalgParameters,
    .numOptions = 2,
};

/* The GPU pipeline (docs/gpu-codegen.md) in three named parts, so that
 * kiln-compile can stop after any (--emit=gpu) and give the last its
 * architecture. Plain convs lower to im2col with the window tensor as one
 * gather, which linalg-fuse-elementwise-ops folds into the contraction: an
 * implicit GEMM that kiln-gpu-tile-contractions tiles (no window tensor in
 * device memory); matrix products are generics too, so that elementwise
 * producers (--precision's casts to bf16) fuse into their factors. Fusion
 * groups are inlined: the GPU schedules work on whole ops. */
static const KilnPassInfo kGraphToLinalgGpuPipeline = {
    .argument = "graph-to-linalg-gpu",
    .summary = "Lower the graph dialect to linalg on tensors for the GPU",
    .pipeline = "func.func(graph-verify,convert-graph-to-linalg{"
                "conv-im2col=true "
                "im2col-gather=true generic-products=true},canonicalize,cse,"
                "kiln-fuse-groups{tile=false},canonicalize)",
};

/* Bufferized with the host ABI of the CPU pipeline; every buffer but the
 * caller's inputs and outputs in device memory (kiln-gpu-stage-io,
 * kiln-gpu-device-memory); each op's loops mapped to a grid and outlined
 * into a gpu.module, launched asynchronously on one stream. Only erf is
 * approximated in arithmetic (no exp-tanh): exp and tanh have fast device
 * functions. */
#define KILN_GPU_BUFFERIZE                                                     \
  "kiln-emit-c-interface,canonicalize,linalg-fuse-elementwise-ops,"            \
  "func.func(kiln-approximate-math),eliminate-empty-tensors," KILN_BUFFERIZE   \
  ",func.func(kiln-distinct-results),kiln-gpu-stage-"                          \
  "io," KILN_OUT_PARAMS_AND_DEALLOC

/* The GPU schedule, up to loops mapped to blocks and threads: what
 * linalg-to-gpu turns into kernels and gpu-on-cpu runs on the CPU (with
 * kiln-gpu-tile-contractions' options TILE_OPTIONS and
 * kiln-gpu-block-reductions' REDUCE_OPTIONS: gpu-on-cpu emulates mma.sync
 * and warp shuffles). */
#define KILN_GPU_SCHEDULE(TILE_OPTIONS, REDUCE_OPTIONS)                        \
  KILN_GPU_BUFFERIZE                                                           \
  ",func.func(kiln-gpu-tile-contractions" TILE_OPTIONS                         \
  ",kiln-gpu-block-reductions" REDUCE_OPTIONS ","                              \
  "kiln-gpu-tile-windows,convert-linalg-to-parallel-loops),"                   \
  "canonicalize,func.func(scf-parallel-loop-fusion),"                          \
  "func.func(kiln-gpu-map-loops)"

/* Tensor cores (kiln-gpu-tile-contractions' mma and tf32): the session
 * gives mma=none below sm_80 and tf32 for kiln-compile --gpu-tf32. */
static const KilnPassOptionSpec kLinalgToGpuParameters[] = {
    {"mma", KILN_PASS_OPTION_STRING, "nvvm",
     "Products of f16/bf16 factors on tensor cores (nvvm.mma.sync, sm_80 and "
     "up) or not (none)"},
    {"tf32", KILN_PASS_OPTION_BOOL, "false",
     "f32 products on tensor cores in TF32"},
};

static const KilnPassInfo kLinalgToGpuPipeline = {
    .argument = "linalg-to-gpu",
    .summary = "Bufferize linalg on tensors, map its loops to GPU kernels",
    .pipeline = KILN_GPU_SCHEDULE(
        "",
        "") ",func.func(kiln-gpu-launch-phases),kiln-gpu-device-memory,"
            "func.func(convert-parallel-loops-to-gpu),convert-math-to-funcs,"
            "gpu-kernel-outlining,kiln-gpu-merge-kernels,func.func(gpu-async-"
            "region),"
            "canonicalize",
    .options = kLinalgToGpuParameters,
    .numOptions = 2,
};

/* The GPU pipeline's schedules (bufferization with staged inputs and
 * outputs, the loops mapped to grids) lowered for the CPU instead, in host
 * memory: the grid loops run sequentially. kiln-run --pipeline=gpu-on-cpu
 * checks the GPU schedules numerically on machines without a GPU. */
static const KilnPassOptionSpec kGpuOnCpuParameters[] = {
    {"tf32", KILN_PASS_OPTION_BOOL, "false",
     "f32 products in the tensor-core layout with TF32 operands"},
    {"wide-min-blocks", KILN_PASS_OPTION_INT, "128",
     "Products in 128 x 128 block tiles where they make at least this "
     "many (1: every one)"},
};

static const KilnPassInfo kGpuOnCpuPipeline = {
    .argument = "gpu-on-cpu",
    .summary = "The GPU pipeline's schedules run sequentially on the CPU "
               "(for numerical checks without a GPU)",
    .pipeline = "graph-to-linalg-gpu," KILN_GPU_SCHEDULE(
        "{mma=emulate}",
        "{shuffles=false}") ",expand-strided-metadata,"
                            "lower-affine,finalize-memref-to-llvm,convert-scf-"
                            "to-"
                            "cf,"
                            "convert-math-to-llvm,convert-math-to-funcs,"
                            "convert-math-to-libm,convert-arith-to-llvm,"
                            "convert-cf-to-llvm,convert-func-to-llvm,"
                            "convert-index-to-llvm,reconcile-unrealized-casts",
    .options = kGpuOnCpuParameters,
    .numOptions = 2,
};

/* Kernels to NVVM and PTX (embedded as text, JIT-compiled by the driver
 * at load), host code to the LLVM dialect calling the mgpu* runtime
 * functions. For sm_90; kiln-compile substitutes --gpu-arch, and for
 * --gpu-binary=cubin the binary format. */
#define KILN_GPU_TO_NVVM(target, binary)                                       \
  "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"             \
  "convert-nvvm-to-llvm,convert-func-to-llvm,expand-strided-metadata,"         \
  "nvvm-attach-target{" target "},lower-affine,"                               \
  "gpu.module(strip-debuginfo,convert-gpu-to-nvvm,canonicalize,cse,"           \
  "reconcile-unrealized-casts),"                                               \
  "convert-arith-to-llvm,convert-index-to-llvm,canonicalize,cse,"              \
  "gpu-to-llvm,finalize-memref-to-llvm,gpu-module-to-binary{" binary "},"      \
  "convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts"

static const KilnPassInfo kGpuToNvvmPipeline = {
    .argument = "gpu-to-nvvm",
    .summary = "Lower outlined GPU kernels to NVVM/PTX (sm_90) and the host "
               "code to the LLVM dialect",
    .pipeline =
        KILN_GPU_TO_NVVM("chip=sm_90 features=+ptx78 O=3", "format=isa"),
};

const char *kilnGpuToNvvmPipelineFormat(void) {
  return KILN_GPU_TO_NVVM("%s", "%s");
}

static const KilnPassInfo kGpuPipeline = {
    .argument = "gpu",
    .summary = "Graph dialect to LLVM dialect with NVIDIA GPU kernels (sm_90)",
    .pipeline = "graph-to-linalg-gpu,linalg-to-gpu,gpu-to-nvvm",
};

/* A model sharded over processes (docs/scale-out.md): Kiln's plan as
 * annotations, MLIR's propagation (forward then backward: the plan's
 * sources are the inputs and weights, and the whole results must not pull
 * everything back to whole) and partition into the SPMD program, and the
 * weights bound as constants again, each rank reading its slice. On linalg
 * on tensors, after graph-to-linalg. */
static const KilnPassOptionSpec kShardParameters[] = {
    {"plan", KILN_PASS_OPTION_STRING, "",
     "The sharding plan given to kiln-shard-plan: dp:N or tp:N"},
    {"plan-file", KILN_PASS_OPTION_STRING, "",
     "A hand-written plan given to kiln-shard-plan "
     "(docs/scale-out.md#hand-written-plans)"},
};

static const KilnPassInfo kShardPipeline = {
    .argument = "shard",
    .summary = "Shard linalg on tensors over N processes by a plan (dp:N, "
               "tp:N): the SPMD program with shard collectives",
    .pipeline = "func.func(linalg-generalize-named-ops),"
                "kiln-shard-prepare{keep-products=true},"
                "func.func(linalg-fuse-elementwise-ops),canonicalize,"
                "kiln-shard-prepare{keep-products=true},"
                "func.func(linalg-fuse-elementwise-ops),canonicalize,"
                "kiln-shard-prepare,"
                "kiln-shard-plan,func.func(sharding-propagation{traversal="
                "forward-backward},shard-partition),kiln-shard-bind-weights,"
                "kiln-shard-decompose-collectives,canonicalize,"
                "func.func(linalg-specialize-generic-ops)",
    .options = kShardParameters,
    .numOptions = 2,
};

/* Listing order is the order of --list-passes. One entry per line. */
/* clang-format off */
static const KilnPassInfo *const kEntries[] = {
    &kilnGraphVerifyPass,
    &kilnGraphDCEPass,
    &kilnGraphCSEPass,
    &kilnGraphSimplifyPass,
    &kilnGraphFoldConstantsPass,
    &kilnGraphFoldBatchNormPass,
    &kilnGraphMixedPrecisionPass,
    &kilnGraphLayoutPass,
    &kilnGraphPerSamplePass,
    &kilnGraphFusePass,
    &kGraphCleanupPipeline,
    &kGraphO0Pipeline,
    &kGraphO1Pipeline,
    &kGraphO2Pipeline,
    &kGraphO3Pipeline,
    &kilnRuntimeChecksPass,
    &kilnShapeChecksPass,
    &kilnApplyTuningPass,
    &kilnConvertGraphToLinalgPass,
    &kilnFuseGroupsPass,
    &kGraphToLinalgPipeline,
    &kilnDepthwiseConvPass,
    &kilnTileAndVectorizePass,
    &kilnTileOutputsInPlacePass,
    &kilnConcatInPlacePass,
    &kilnApproximateMathPass,
    &kilnSplitReductionsPass,
    &kilnSerializeNestedParallelPass,
    &kilnUnifyDimsPass,
    &kilnRegroupReshapesPass,
    &kilnRecomputeMasksPass,
    &kilnHoistOperandProloguesPass,
    &kLinalgTileAndFusePipeline,
    &kilnEmitCInterfacePass,
    &kilnMemrefCopyToLinalgPass,
    &kilnWidenStridedReadsPass,
    &kilnDistinctResultsPass,
    &kilnMemoryPlanPass,
    &kilnShapeFunctionPass,
    &kilnExpandDynamicGroupsPass,
    &kilnOutlineRegionsPass,
    &kilnProfileNodesPass,
    &kilnInstrumentOpsPass,
    &kLinalgToLLVMCpuPipeline,
    &kCpuPipeline,
    &kGraphToLinalgGpuPipeline,
    &kilnGpuStageIOPass,
    &kilnGpuDeviceMemoryPass,
    &kilnGpuTileContractionsPass,
    &kilnGpuBlockReductionsPass,
    &kilnGpuTileWindowsPass,
    &kilnShardPreparePass,
    &kilnShardPlanPass,
    &kilnShardBindWeightsPass,
    &kilnShardDecomposeCollectivesPass,
    &kilnOpenMpiFixupsPass,
    &kilnMpiWorldGridPass,
    &kShardPipeline,
    &kilnGpuMapLoopsPass,
    &kilnGpuLaunchPhasesPass,
    &kilnGpuMergeKernelsPass,
    &kLinalgToGpuPipeline,
    &kGpuToNvvmPipeline,
    &kGpuPipeline,
    &kGpuOnCpuPipeline,
};
/* clang-format on */
enum { kNumEntries = sizeof(kEntries) / sizeof(kEntries[0]) };

intptr_t kilnPassRegistryGetCount(void) { return kNumEntries; }

const KilnPassInfo *kilnPassRegistryGetAt(intptr_t i) {
  return i >= 0 && i < kNumEntries ? kEntries[i] : NULL;
}

const KilnPassInfo *kilnPassRegistryLookup(MlirStringRef argument) {
  for (int i = 0; i < kNumEntries; ++i)
    if (kilnStringRefEquals(argument, kEntries[i]->argument))
      return kEntries[i];
  return NULL;
}

static void report(MlirStringCallback cb, void *userData, KilnStrBuf *msg) {
  if (cb)
    cb(mlirStringRefCreate(msg->data, msg->len), userData);
}

/* Parses one value of `spec`'s kind from text [v, v+n). */
static MlirLogicalResult parseValue(const KilnPassInfo *info,
                                    const KilnPassOptionSpec *spec,
                                    const char *v, size_t n,
                                    KilnPassOptionValue *out, KilnStrBuf *err) {
  /* Strip one level of quotes or braces, as MLIR does. */
  if (n >= 2 &&
      ((v[0] == '\'' && v[n - 1] == '\'') || (v[0] == '"' && v[n - 1] == '"') ||
       (v[0] == '{' && v[n - 1] == '}'))) {
    ++v;
    n -= 2;
  }
  char *text = malloc(n + 1);
  if (!text)
    abort();
  memcpy(text, v, n);
  text[n] = '\0';
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  switch (spec->kind) {
  case KILN_PASS_OPTION_BOOL:
    if (!strcmp(text, "true") || !strcmp(text, "1"))
      out->b = true;
    else if (!strcmp(text, "false") || !strcmp(text, "0"))
      out->b = false;
    else
      ok = mlirLogicalResultFailure();
    break;
  case KILN_PASS_OPTION_INT: {
    char *end = NULL;
    errno = 0;
    long long x = strtoll(text, &end, 0);
    if (n == 0 || *end != '\0' || errno == ERANGE)
      ok = mlirLogicalResultFailure();
    out->i = x;
    break;
  }
  case KILN_PASS_OPTION_STRING:
    free(out->s);
    out->s = text;
    text = NULL;
    break;
  }
  if (mlirLogicalResultIsFailure(ok))
    kilnStrBufAppendf(err,
                      "invalid value '%s' for option '%s' of pass '%s' "
                      "(expected %s)",
                      text, spec->name, info->argument,
                      spec->kind == KILN_PASS_OPTION_BOOL ? "true or false"
                                                          : "an integer");
  free(text);
  return ok;
}

static const KilnPassOptionSpec *findOption(const KilnPassInfo *info,
                                            const char *key, size_t n) {
  for (int i = 0; i < info->numOptions; ++i)
    if (strlen(info->options[i].name) == n &&
        !memcmp(info->options[i].name, key, n))
      return &info->options[i];
  return NULL;
}

static MlirLogicalResult parseOptions(const KilnPassInfo *info,
                                      MlirStringRef text,
                                      KilnPassOptionValue *values,
                                      KilnStrBuf *err) {
  const char *p = text.data, *end = text.data + text.length;
  while (p < end) {
    if (*p == ' ' || *p == '\t' || *p == '\n') {
      ++p;
      continue;
    }
    const char *key = p;
    while (p < end && *p != '=' && *p != ' ' && *p != '\t')
      ++p;
    size_t keyLength = (size_t)(p - key);
    const KilnPassOptionSpec *spec = findOption(info, key, keyLength);
    if (!spec) {
      kilnStrBufAppendf(err, "unknown option '%.*s' for pass '%s'",
                        (int)keyLength, key, info->argument);
      KilnSuggester s;
      kilnSuggesterInit(&s, key, keyLength);
      for (int i = 0; i < info->numOptions; ++i)
        kilnSuggesterConsider(&s, info->options[i].name);
      kilnSuggesterAppend(&s, err);
      if (info->numOptions == 0)
        kilnStrBufAppendf(err, " (it takes no options)");
      return mlirLogicalResultFailure();
    }
    KilnPassOptionValue *out = &values[spec - info->options];
    if (p < end && *p == '=') {
      ++p;
      size_t n = kilnOptionValueLength(p, end);
      if (mlirLogicalResultIsFailure(parseValue(info, spec, p, n, out, err)))
        return mlirLogicalResultFailure();
      p += n;
    } else if (spec->kind == KILN_PASS_OPTION_BOOL) {
      out->b = true; /* a bare flag */
    } else {
      kilnStrBufAppendf(err, "option '%s' of pass '%s' needs a value",
                        spec->name, info->argument);
      return mlirLogicalResultFailure();
    }
  }
  return mlirLogicalResultSuccess();
}

static void freeValues(const KilnPassInfo *info, KilnPassOptionValue *values) {
  for (int i = 0; i < info->numOptions; ++i)
    free(values[i].s);
  free(values);
}

MlirPass kilnPassCreate(const KilnPassInfo *info, MlirStringRef optionText,
                        MlirStringCallback errorCallback, void *userData) {
  KilnStrBuf err = {0};
  MlirPass pass = {NULL};
  KilnPassOptionValue *values =
      calloc((size_t)info->numOptions + 1, sizeof(*values));
  if (!values)
    abort();
  for (int i = 0; i < info->numOptions; ++i) {
    const KilnPassOptionSpec *spec = &info->options[i];
    const char *d = spec->defaultValue ? spec->defaultValue : "";
    /* Defaults are Kiln's own text; a bad one is a bug in the entry. */
    if (mlirLogicalResultIsFailure(
            parseValue(info, spec, d, strlen(d), &values[i], &err)))
      goto done;
  }
  if (optionText.data &&
      mlirLogicalResultIsFailure(parseOptions(info, optionText, values, &err)))
    goto done;
  pass = kilnExternalPassCreate(info, values);
done:
  if (!pass.ptr)
    report(errorCallback, userData, &err);
  freeValues(info, values);
  kilnStrBufDestroy(&err);
  return pass;
}
