/* A run of a CUDA model (gpu.h): the library's entry called eagerly, or a
 * CUDA graph of it replayed.
 *
 * The host code of a model makes a driver call for every kernel launch,
 * copy and allocation, each microseconds of CPU time: for a batch-1 model
 * of a hundred small kernels the calls, not the kernels, set the latency.
 * A CUDA graph records the calls once and replays them with one launch.
 * The runtime does it for any model's code, which needs no changes:
 *
 *   run 1 (eager)    entry(user tensors), its calls watched: a run that
 *                    gives the device work after waiting for it (its host
 *                    code read a result back) cannot be replayed
 *   run 2 (capture)  the same shapes: pinned staging tensors shaped like
 *                    the user's, inputs copied in, entry(staging) captured
 *                    from the model's stream (cuStreamBeginCapture),
 *                    instantiated and launched, outputs copied out
 *   run 3.. (replay) the same shapes: inputs copied in, one cuGraphLaunch,
 *                    outputs copied out
 *
 * A graph holds the addresses it was captured with: the staging buffers,
 * the weights (uploaded at load) and the run's own device buffers (graph
 * allocations: the run's allocations are stream-ordered). New shapes start
 * over at run 1. A capture that fails (a call a capture refuses, an error)
 * turns graphs off for the model and the run goes on eagerly: graphs change
 * the speed of runs, never their results. */
#include <stdlib.h>
#include <string.h>

#include "runtime/gpu_state.h"
#include "runtime/status.h"

void kilnGpuGraphInit(KilnGpuModel *g) {
  const char *env = getenv("KILN_CUDA_GRAPHS");
  /* Allocations cuMemAlloc makes cannot be captured; stream-ordered ones
   * become the graph's own. */
  g->graph = (GraphRun){.off = (env && !strcmp(env, "0")) ||
                               !g->cu->cuStreamBeginCapture || !g->asyncAlloc};
}

void kilnGpuGraphRelease(KilnGpuModel *g) {
  GraphRun *gr = &g->graph;
  if (gr->exec)
    g->cu->cuGraphExecDestroy(gr->exec);
  gr->exec = NULL;
  for (size_t i = 0; i < gr->numTensors; ++i) {
    kilnTensorDestroy(gr->staging[i]);
    if (gr->pinned[i])
      g->cu->cuMemFreeHost(gr->pinned[i]);
  }
  free(gr->staging);
  free(gr->pinned);
  gr->staging = NULL;
  gr->pinned = NULL;
  gr->numTensors = gr->numInputs = 0;
}

/* A hash of the tensors' element types and dims, never 0. */
static uint64_t shapesKey(KilnTensor *const *t, size_t numInputs, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull ^ numInputs;
  for (size_t i = 0; i < n; ++i) {
    int64_t rank = kilnTensorGetRank(t[i]);
    const int64_t *dims = kilnTensorGetDims(t[i]);
    h = (h ^ (uint64_t)kilnTensorGetElementType(t[i])) * 0x100000001b3ull;
    h = (h ^ (uint64_t)rank) * 0x100000001b3ull;
    for (int64_t d = 0; d < rank; ++d)
      h = (h ^ (uint64_t)dims[d]) * 0x100000001b3ull;
  }
  return h | 1;
}

/* Whether the staging tensors have the element types and dims of `t`. */
static bool stagingFits(const GraphRun *gr, KilnTensor *const *t,
                        size_t numInputs, size_t n) {
  if (!gr->staging || gr->numTensors != n || gr->numInputs != numInputs)
    return false;
  for (size_t i = 0; i < n; ++i) {
    const KilnTensor *s = gr->staging[i];
    int64_t rank = kilnTensorGetRank(t[i]);
    if (kilnTensorGetElementType(s) != kilnTensorGetElementType(t[i]) ||
        kilnTensorGetRank(s) != rank ||
        (rank && memcmp(kilnTensorGetDims(s), kilnTensorGetDims(t[i]),
                        (size_t)rank * sizeof(int64_t))))
      return false;
  }
  return true;
}

/* Pinned staging tensors shaped like `t`, replacing any; false, with none
 * kept, if host memory cannot be pinned. */
static bool createStaging(KilnGpuModel *g, KilnTensor *const *t,
                          size_t numInputs, size_t n) {
  GraphRun *gr = &g->graph;
  kilnGpuGraphRelease(g);
  gr->staging = calloc(n ? n : 1, sizeof(*gr->staging));
  gr->pinned = calloc(n ? n : 1, sizeof(*gr->pinned));
  if (!gr->staging || !gr->pinned)
    abort();
  gr->numTensors = n;
  gr->numInputs = numInputs;
  for (size_t i = 0; i < n; ++i) {
    size_t bytes = kilnTensorGetByteSize(t[i]);
    bytes += !bytes; /* the driver refuses empty allocations */
    KilnStatus *s = NULL;
    if (g->cu->cuMemHostAlloc(&gr->pinned[i], bytes, 0) != CUDA_SUCCESS) {
      gr->pinned[i] = NULL;
      kilnGpuGraphRelease(g);
      return false;
    }
    if ((s = kilnTensorCreateWithBuffer(
             kilnTensorGetElementType(t[i]), kilnTensorGetRank(t[i]),
             kilnTensorGetDims(t[i]), gr->pinned[i], bytes, &gr->staging[i]))) {
      kilnStatusDestroy(s);
      kilnGpuGraphRelease(g);
      return false;
    }
  }
  return true;
}

static void copyInputs(const GraphRun *gr, KilnTensor *const *t) {
  for (size_t i = 0; i < gr->numInputs; ++i)
    memcpy(kilnTensorGetData(gr->staging[i]), kilnTensorGetConstData(t[i]),
           kilnTensorGetByteSize(t[i]));
}

static void copyOutputs(const GraphRun *gr, KilnTensor *const *t) {
  for (size_t i = gr->numInputs; i < gr->numTensors; ++i)
    memcpy(kilnTensorGetData(t[i]), kilnTensorGetConstData(gr->staging[i]),
           kilnTensorGetByteSize(t[i]));
}

/* Captures entry(model, staging) into the graph's exec. False if the run
 * cannot be captured; the attempt's error, if any, is dropped. */
static bool capture(KilnGpuModel *g, KilnGpuEntryFn entry, void *model) {
  GraphRun *gr = &g->graph;
  const KilnCudaDriver *cu = g->cu;
  if (cu->cuStreamBeginCapture(
          g->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) != CUDA_SUCCESS)
    return false;
  g->capturing = true;
  g->synced = g->workAfterSync = false;
  int rc = entry(model, gr->staging, gr->numTensors);
  g->capturing = false;
  CUgraph graph = NULL;
  bool ok = cu->cuStreamEndCapture(g->stream, &graph) == CUDA_SUCCESS &&
            graph && rc == 0 && !g->error && !g->workAfterSync;
  if (ok &&
      cu->cuGraphInstantiateWithFlags(&gr->exec, graph, 0) != CUDA_SUCCESS) {
    gr->exec = NULL;
    ok = false;
  }
  if (graph)
    cu->cuGraphDestroy(graph); /* the exec is independent of it */
  kilnStatusDestroy(g->error);
  g->error = NULL;
  return ok;
}

/* Runs the captured graph for `t`, capturing it first if needed. False if
 * the run has to be eager: graphs are off now, or `t`'s shapes have no
 * graph and no capturable eager run just before. */
static bool replay(KilnGpuModel *g, KilnGpuEntryFn entry, void *model,
                   KilnTensor *const *t, size_t numInputs, size_t n) {
  GraphRun *gr = &g->graph;
  if (gr->off)
    return false;
  bool fits = stagingFits(gr, t, numInputs, n);
  if (!(fits && gr->exec)) {
    if (shapesKey(t, numInputs, n) != gr->capturableShapes)
      return false;
    if (!(fits || createStaging(g, t, numInputs, n))) {
      gr->off = true;
      return false;
    }
    copyInputs(gr, t);
    if (!capture(g, entry, model)) {
      gr->off = true;
      kilnGpuGraphRelease(g);
      return false;
    }
  } else {
    copyInputs(gr, t);
  }
  kilnGpuCheck(g, g->cu->cuGraphLaunch(gr->exec, g->stream), "cuGraphLaunch");
  return true;
}

KilnStatus *kilnGpuModelRun(KilnGpuModel *g, KilnGpuEntryFn entry, void *model,
                            KilnTensor *const *t, size_t numInputs, size_t n,
                            int *rc) {
  *rc = 0;
  if (kilnGpuCheck(g, g->cu->cuCtxPushCurrent(g->context),
                   "cuCtxPushCurrent")) {
    kilnGpuCurrent = g;
    GraphRun *gr = &g->graph;
    bool replayed = replay(g, entry, model, t, numInputs, n);
    if (!replayed) {
      g->synced = g->workAfterSync = false;
      *rc = entry(model, t, n);
      bool capturable = !g->error && *rc == 0 && !g->workAfterSync;
      gr->capturableShapes = capturable ? shapesKey(t, numInputs, n) : 0;
    }
    /* Outputs are host memory the caller reads next. */
    kilnGpuCheck(g, g->cu->cuStreamSynchronize(g->stream),
                 "cuStreamSynchronize");
    kilnGpuCurrent = NULL;
    g->cu->cuCtxPopCurrent(NULL);
    if (replayed && !g->error)
      copyOutputs(gr, t);
  }
  KilnStatus *s = g->error;
  g->error = NULL;
  return s;
}
