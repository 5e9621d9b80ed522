/* Sliding-window attributes and shared IR pieces of the Conv lowering
 * family (see lower_conv_window.h). */
#include "conversions/graph-to-linalg/lower_conv_window.h"

#include <string.h>

int kilnWindowAutoPad(KilnLowerOp *l) {
  static const char *const kNames[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                       "VALID"};
  MlirStringRef s = kilnInferAttrString(&l->infer, "auto_pad", "NOTSET");
  for (int i = 0; i < 4; ++i)
    if (s.length == strlen(kNames[i]) && !memcmp(s.data, kNames[i], s.length))
      return i;
  return KILN_PAD_NOTSET; /* the verifier rejects anything else */
}

static void readInts(KilnLowerOp *l, const char *name, intptr_t n, int64_t dflt,
                     int64_t *out) {
  int64_t v[2 * KILN_MAX_RANK];
  intptr_t len = kilnInferAttrInts(&l->infer, name, v, 2 * KILN_MAX_RANK);
  for (intptr_t i = 0; i < n; ++i)
    out[i] = len == n ? v[i] : dflt;
}

int64_t kilnWindowDilatedKernel(const KilnWindow *w, intptr_t i) {
  return (w->kernel[i] - 1) * w->dilations[i] + 1;
}

void kilnWindowRead(KilnLowerOp *l, MlirValue x, MlirType result,
                    const int64_t *weightKernel, KilnWindow *w) {
  kilnWindowReadAt(l, x, result, weightKernel, 2, w);
}

void kilnWindowReadAt(KilnLowerOp *l, MlirValue x, MlirType result,
                      const int64_t *weightKernel, intptr_t first,
                      KilnWindow *w) {
  intptr_t n = kilnRank(x) - 2;
  w->n = n;
  int64_t kernel[KILN_MAX_RANK], pads[2 * KILN_MAX_RANK];
  if (kilnInferAttrInts(&l->infer, "kernel_shape", kernel, KILN_MAX_RANK) == n)
    memcpy(w->kernel, kernel, n * sizeof(int64_t));
  else
    for (intptr_t i = 0; i < n; ++i)
      w->kernel[i] = weightKernel ? weightKernel[i] : 1;
  readInts(l, "strides", n, 1, w->strides);
  readInts(l, "dilations", n, 1, w->dilations);
  readInts(l, "pads", 2 * n, 0, pads);
  int autoPad = kilnWindowAutoPad(l);
  for (intptr_t i = 0; i < n; ++i) {
    w->in[i] = kilnDim(x, i + first);
    w->out[i] = mlirShapedTypeGetDimSize(result, i + first);
    if (autoPad == KILN_PAD_NOTSET) {
      w->padBegin[i] = pads[i];
      w->padEnd[i] = pads[i + n];
      continue;
    }
    int64_t total = 0;
    if (autoPad != KILN_PAD_VALID) {
      /* ONNX: total = (out - 1) * stride + dilated kernel - in, the odd
       * element at the end (SAME_UPPER) or the beginning (SAME_LOWER). */
      total = (w->out[i] - 1) * w->strides[i] + kilnWindowDilatedKernel(w, i) -
              w->in[i];
      if (total < 0)
        total = 0;
    }
    w->padBegin[i] =
        autoPad == KILN_PAD_SAME_LOWER ? total - total / 2 : total / 2;
    w->padEnd[i] = total - w->padBegin[i];
  }
}

MlirValue kilnWindowPadInput(KilnBuilder *b, MlirValue x, const KilnWindow *w,
                             MlirValue padValue) {
  return kilnWindowPadInputAt(b, x, w, padValue, 2);
}

/* The shape of x padded for the windows of `w` (spatial dims from
 * `first`) and x's offsets in it; whether any padding is needed. */
static bool paddedShape(MlirValue x, const KilnWindow *w, intptr_t first,
                        int64_t *shape, int64_t *offsets) {
  bool needed = false;
  for (intptr_t i = 0; i < w->n + 2; ++i) {
    shape[i] = kilnDim(x, i);
    offsets[i] = 0;
  }
  for (intptr_t i = 0; i < w->n; ++i) {
    /* The last window ends at (out - 1) * stride + dilated kernel; with
     * ceil_mode that may lie past in + padEnd. Padding beyond what any
     * window reads is left out. */
    int64_t reach =
        (w->out[i] - 1) * w->strides[i] + kilnWindowDilatedKernel(w, i);
    int64_t size = w->padBegin[i] + w->in[i];
    shape[i + first] = reach > size ? reach : size;
    offsets[i + first] = w->padBegin[i];
    needed |= w->padBegin[i] != 0 || reach > w->in[i];
  }
  return needed;
}

MlirValue kilnWindowPadInputAt(KilnBuilder *b, MlirValue x, const KilnWindow *w,
                               MlirValue padValue, intptr_t first) {
  intptr_t r = w->n + 2;
  int64_t shape[KILN_MAX_RANK], offsets[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK] = {1, 1, 1, 1, 1, 1, 1, 1};
  if (!paddedShape(x, w, first, shape, offsets))
    return x;
  MlirType type = kilnTensorType(r, shape, kilnElementType(x));
  MlirValue filled = kilnFilled(b, type, padValue);
  return kilnInsertSlice(b, x, filled, offsets, strides);
}

MlirValue kilnWindowPadBorders(KilnBuilder *b, MlirValue x, const KilnWindow *w,
                               MlirValue padValue) {
  intptr_t r = w->n + 2;
  int64_t shape[KILN_MAX_RANK], offsets[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK] = {1, 1, 1, 1, 1, 1, 1, 1};
  if (!paddedShape(x, w, 2, shape, offsets))
    return x;
  MlirType e = kilnElementType(x);
  MlirValue padded = kilnEmpty(b, kilnTensorType(r, shape, e));
  /* Per spatial dim i, the slabs before and after x along i: x's extent
   * along the dims before i (their borders are other slabs), all of the
   * dims after it. */
  for (intptr_t i = 0; i < w->n; ++i) {
    int64_t begin = offsets[2 + i], end = begin + kilnDim(x, 2 + i);
    int64_t ranges[2][2] = {{0, begin}, {end, shape[2 + i]}};
    for (int side = 0; side < 2; ++side) {
      if (ranges[side][1] <= ranges[side][0])
        continue;
      int64_t at[KILN_MAX_RANK] = {0}, size[KILN_MAX_RANK];
      for (intptr_t d = 0; d < r; ++d) {
        bool before = d >= 2 && d < 2 + i;
        at[d] = before ? offsets[d] : 0;
        size[d] = before ? kilnDim(x, d) : shape[d];
      }
      at[2 + i] = ranges[side][0];
      size[2 + i] = ranges[side][1] - ranges[side][0];
      MlirValue slab = kilnFilled(b, kilnTensorType(r, size, e), padValue);
      padded = kilnInsertSlice(b, slab, padded, at, strides);
    }
  }
  return kilnInsertSlice(b, x, padded, offsets, strides);
}

MlirAttribute kilnWindowI64Elements(MlirContext ctx, intptr_t n,
                                    const int64_t *v) {
  int64_t len = n;
  MlirType type = kilnTensorType(1, &len, mlirIntegerTypeGet(ctx, 64));
  return mlirDenseElementsAttrInt64Get(type, n, v);
}

MlirValue kilnWindowKernelTensor(KilnBuilder *b, const KilnWindow *w,
                                 MlirType elementType) {
  return kilnEmpty(b, kilnTensorType(w->n, w->kernel, elementType));
}
