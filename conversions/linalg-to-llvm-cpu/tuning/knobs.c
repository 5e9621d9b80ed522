/* The knob table: which options of Kiln's passes kiln-tune searches, the
 * values it tries, and the workloads each applies to (docs/kiln-tune.md).
 *
 * Every knob is an existing pass option, read per op from the workload's
 * schedule record (support/schedule_record.h); the pass's default
 * is always a choice too (choice 0), so the all-default schedule is the
 * untuned one. Values stay within what the pass accepts and what the
 * target's registers hold: a register tile of `rows` x `vector-size` f32
 * accumulators is at most 8 x 32 (16 zmm or 32 ymm registers). */
#include "kiln/tuning.h"

#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum {
  kConv = KILN_WORKLOAD_CONV,
  kDepthwise = KILN_WORKLOAD_DEPTHWISE_CONV,
  kGrouped = KILN_WORKLOAD_GROUPED_CONV,
  kMatmul = KILN_WORKLOAD_MATMUL,
  kReduction = KILN_WORKLOAD_REDUCTION,
  kDense = kConv | kGrouped | kMatmul,
};

static const KilnTuningKnob kKnobs[] = {
    /* Register and thread tiles of contractions (convs as im2col
     * contractions, matmuls). */
    {"kiln-tile-and-vectorize",
     "rows",
     KILN_PASS_OPTION_INT,
     5,
     {2, 3, 4, 6, 8},
     kDense | kReduction},
    {"kiln-tile-and-vectorize",
     "vector-size",
     KILN_PASS_OPTION_INT,
     3,
     {8, 16, 32},
     kDense | kReduction},
    {"kiln-tile-and-vectorize",
     "thread-rows",
     KILN_PASS_OPTION_INT,
     4,
     {8, 16, 64, 128},
     kDense | kReduction},
    {"kiln-tile-and-vectorize",
     "thread-cols",
     KILN_PASS_OPTION_INT,
     4,
     {64, 128, 512, 1024},
     kDense},
    {"kiln-tile-and-vectorize",
     "reduction-block",
     KILN_PASS_OPTION_INT,
     5,
     {-1, 64, 128, 256, 512},
     kDense},
    /* The default two-vector tiles of AVX-512 (wide-vector-size) or not:
     * a workload can keep one-vector tiles. */
    {"kiln-tile-and-vectorize",
     "wide-vector-size",
     KILN_PASS_OPTION_INT,
     1,
     {-1},
     kDense},
    {"kiln-tile-and-vectorize",
     "columns-outer",
     KILN_PASS_OPTION_BOOL,
     2,
     {0, 1},
     kDense},
    /* Thread blocks of fused conv/matmul groups. */
    {"kiln-fuse-groups",
     "conv-tile-rows",
     KILN_PASS_OPTION_INT,
     3,
     {2, 4, 8},
     kConv | kGrouped},
    {"kiln-fuse-groups",
     "conv-tile-channels",
     KILN_PASS_OPTION_INT,
     4,
     {8, 16, 64, 128},
     kConv | kGrouped},
    {"kiln-fuse-groups",
     "conv-tile-pixels",
     KILN_PASS_OPTION_INT,
     4,
     {64, 128, 512, 1024},
     kConv | kGrouped},
    /* im2col window rows built per tile (default: with >= 4 row blocks)
     * or the window tensor built whole (0). */
    {"kiln-fuse-groups",
     "conv-window-tiles",
     KILN_PASS_OPTION_INT,
     3,
     {0, 2, 8},
     kConv},
    {"kiln-fuse-groups",
     "matmul-tile-rows",
     KILN_PASS_OPTION_INT,
     4,
     {2, 4, 16, 32},
     kMatmul},
    {"kiln-fuse-groups",
     "depthwise-tasks",
     KILN_PASS_OPTION_INT,
     4,
     {4, 8, 32, 64},
     kDepthwise},
    /* Row reductions: partial results per output row (a vector's lanes
     * by default). */
    {"kiln-split-reductions",
     "lanes",
     KILN_PASS_OPTION_INT,
     3,
     {8, 32, 64},
     kReduction},
    /* The conv's form: output channels innermost. */
    {"convert-graph-to-linalg",
     "conv-channels-inner",
     KILN_PASS_OPTION_BOOL,
     2,
     {0, 1},
     kConv},
    /* Depthwise register tiles and tasks. */
    {"kiln-depthwise-conv",
     "rows",
     KILN_PASS_OPTION_INT,
     4,
     {1, 2, 6, 8},
     kDepthwise},
    {"kiln-depthwise-conv",
     "thread-channels",
     KILN_PASS_OPTION_INT,
     4,
     {2, 4, 16, 32},
     kDepthwise},
    {"kiln-depthwise-conv",
     "strided-rows",
     KILN_PASS_OPTION_INT,
     4,
     {1, 2, 6, 8},
     kDepthwise},
};

enum { kNumKnobs = sizeof(kKnobs) / sizeof(kKnobs[0]) };
_Static_assert(kNumKnobs <= sizeof(((KilnTuningSchedule *)0)->choice),
               "KilnTuningSchedule holds one choice per knob");

intptr_t kilnTuningKnobGetCount(void) { return kNumKnobs; }

const KilnTuningKnob *kilnTuningKnobGetAt(intptr_t i) {
  return i >= 0 && i < kNumKnobs ? &kKnobs[i] : NULL;
}

intptr_t kilnTuningKnobLookup(MlirStringRef pass, MlirStringRef option) {
  for (intptr_t i = 0; i < kNumKnobs; ++i)
    if (kilnStringRefEquals(pass, kKnobs[i].pass) &&
        kilnStringRefEquals(option, kKnobs[i].option))
      return i;
  return -1;
}

/* The record's entries for `pass`: {option = value, ...}. */
static MlirAttribute passEntries(MlirContext ctx, const char *pass,
                                 const KilnTuningSchedule *s) {
  MlirNamedAttribute entries[kNumKnobs];
  intptr_t n = 0;
  for (intptr_t i = 0; i < kNumKnobs; ++i) {
    const KilnTuningKnob *k = &kKnobs[i];
    if (!s->choice[i] || strcmp(k->pass, pass))
      continue;
    int64_t v = k->values[s->choice[i] - 1];
    MlirAttribute value =
        k->kind == KILN_PASS_OPTION_BOOL
            ? mlirBoolAttrGet(ctx, v != 0)
            : mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
    entries[n++] = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, kilnStr(k->option)), value);
  }
  return mlirDictionaryAttrGet(ctx, n, entries);
}

MlirAttribute kilnTuningScheduleGetAttribute(MlirContext ctx,
                                             const KilnTuningSchedule *s) {
  MlirNamedAttribute passes[kNumKnobs];
  intptr_t n = 0;
  for (intptr_t i = 0; i < kNumKnobs; ++i) {
    if (!s->choice[i])
      continue;
    bool seen = false;
    for (intptr_t j = 0; j < i && !seen; ++j)
      seen = s->choice[j] && !strcmp(kKnobs[j].pass, kKnobs[i].pass);
    if (seen)
      continue;
    passes[n++] =
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(kKnobs[i].pass)),
                              passEntries(ctx, kKnobs[i].pass, s));
  }
  return mlirDictionaryAttrGet(ctx, n, passes);
}
