/* Sampling ops of the NN family: grid_sample (ONNX GridSample-22) and
 * roi_align (RoiAlign-22); inference functions, the table entries are in
 * ops_nn.c. */
#include "dialects/graph/infer.h"
#include "dialects/graph/ops_nn_window.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

/* GridSample-20 names first; "bilinear" and "bicubic" are GridSample-16's
 * names for linear and cubic, still found in exported models. */
static const char *const kGridMode[] = {"linear",   "nearest", "cubic",
                                        "bilinear", "bicubic", NULL};
static const char *const kGridPadding[] = {"zeros", "border", "reflection",
                                           NULL};

/* x is N x C x D1 ... Dr (any element type), grid N x H1 ... Hr x r
 * (float); y is N x C x H1 ... Hr with x's element type. */
MlirLogicalResult kilnNNInferGridSample(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 3, "N x C x D1 ... Dr")))
    return mlirLogicalResultFailure();
  MlirType grid = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(grid) || failed(kilnNNRequireFloat(c, 1, grid)))
    return mlirLogicalResultFailure();
  int mode, padding;
  bool alignCorners;
  if (failed(kilnNNReadChoice(c, "mode", "linear", kGridMode, &mode)) ||
      failed(kilnNNReadChoice(c, "padding_mode", "zeros", kGridPadding,
                              &padding)) ||
      failed(kilnNNReadFlag(c, "align_corners", &alignCorners)))
    return mlirLogicalResultFailure();
  intptr_t r = rankOf(x), spatial = r - 2;
  /* grid's own H1 ... Hr are free: only N and the coordinate count are
   * tied to x. */
  int64_t expect[KILN_MAX_RANK];
  expect[0] = dim(x, 0);
  for (intptr_t k = 1; k < r - 1; ++k)
    expect[k] = dyn();
  expect[r - 1] = spatial;
  if (failed(kilnNNRequireShape(c, 1, grid, r, expect,
                                "N x H1 ... Hr x r (r = spatial rank of x)")))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK];
  shape[0] = known(dim(x, 0)) ? dim(x, 0) : dim(grid, 0);
  shape[1] = dim(x, 1);
  for (intptr_t k = 0; k < spatial; ++k)
    shape[k + 2] = dim(grid, k + 1);
  c->resultTypes[0] = kilnInferTensorType(r, shape, elt(x));
  return ok();
}

static const char *const kRoiMode[] = {"avg", "max", NULL};
static const char *const kRoiCoord[] = {"half_pixel", "output_half_pixel",
                                        NULL};

/* Reads output_height or output_width (default 1), which must be >= 1. */
static MlirLogicalResult readOutputSize(const KilnInferContext *c,
                                        const char *name, int64_t *out) {
  *out = kilnInferAttrInt(c, name, 1);
  if (*out < 1)
    return kilnInferError(c, "attribute '%s' must be positive, got %ld", name,
                          (long)*out);
  return ok();
}

/* x is N x C x H x W (float), rois num_rois x 4 (x's type), batch_indices
 * num_rois (i64); y is num_rois x C x output_height x output_width. */
MlirLogicalResult kilnNNInferRoiAlign(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  MlirType rois = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(rois) ||
      failed(kilnNNRequireSameElement(c, 0, x, 1, rois)))
    return mlirLogicalResultFailure();
  MlirType indices = kilnInferRankedOperand(c, 2);
  if (mlirTypeIsNull(indices) || failed(kilnNNRequireInt(c, 2, indices, 64)))
    return mlirLogicalResultFailure();
  int64_t anyX[] = {dyn(), dyn(), dyn(), dyn()};
  int64_t roiShape[] = {dyn(), 4};
  if (failed(kilnNNRequireShape(c, 0, x, 4, anyX, "N x C x H x W")) ||
      failed(kilnNNRequireShape(c, 1, rois, 2, roiShape, "num_rois x 4")))
    return mlirLogicalResultFailure();
  int64_t numRois = dim(rois, 0);
  if (failed(kilnNNRequireShape(c, 2, indices, 1, &numRois, "num_rois")))
    return mlirLogicalResultFailure();
  int mode, coord;
  int64_t height, width;
  if (failed(kilnNNReadChoice(c, "mode", "avg", kRoiMode, &mode)) ||
      failed(kilnNNReadChoice(c, "coordinate_transformation_mode", "half_pixel",
                              kRoiCoord, &coord)) ||
      failed(readOutputSize(c, "output_height", &height)) ||
      failed(readOutputSize(c, "output_width", &width)))
    return mlirLogicalResultFailure();
  int64_t ratio = kilnInferAttrInt(c, "sampling_ratio", 0);
  if (ratio < 0)
    return kilnInferError(c,
                          "attribute 'sampling_ratio' must be non-negative "
                          "(0: adaptive), got %ld",
                          (long)ratio);
  int64_t shape[] = {known(numRois) ? numRois : dim(indices, 0), dim(x, 1),
                     height, width};
  c->resultTypes[0] = kilnInferTensorType(4, shape, elt(x));
  return ok();
}
