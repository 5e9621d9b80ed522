/* Internal to the Conv lowering family (lower_conv.c, lower_conv_im2col.c,
 * lower_pool.c): the
 * sliding-window attributes of conv, conv_transpose and the pools, resolved
 * to explicit numbers, and the IR pieces those lowerings share. Nothing
 * outside the family includes this header. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_CONV_WINDOW_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_CONV_WINDOW_H

#include "conversions/graph-to-linalg/lower.h"

/* A window over n spatial dims with every attribute resolved: auto_pad has
 * become explicit pads. The graph verifier has already checked the
 * attributes (lengths, signs, kernel against w), so reading trusts them. */
typedef struct KilnWindow {
  intptr_t n;
  int64_t kernel[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK];
  int64_t dilations[KILN_MAX_RANK];
  int64_t padBegin[KILN_MAX_RANK];
  int64_t padEnd[KILN_MAX_RANK];
  int64_t in[KILN_MAX_RANK];  /* spatial input sizes */
  int64_t out[KILN_MAX_RANK]; /* spatial output sizes (from the result) */
} KilnWindow;

enum {
  KILN_PAD_NOTSET,
  KILN_PAD_SAME_UPPER,
  KILN_PAD_SAME_LOWER,
  KILN_PAD_VALID
};

/// Reads auto_pad as one of the KILN_PAD_* values (verified already).
int kilnWindowAutoPad(KilnLowerOp *l);

/// Fills `w` for input `x` (N x C x D1 ... Dn) and result type `result`:
/// kernel from kernel_shape or, when absent, `weightKernel` (may be NULL
/// for pools, which require kernel_shape); strides, dilations; pads from
/// the pads attribute or computed for SAME_UPPER / SAME_LOWER / VALID.
void kilnWindowRead(KilnLowerOp *l, MlirValue x, MlirType result,
                    const int64_t *weightKernel, KilnWindow *w);

/// kilnWindowRead for spatial dims starting at dim `first` of x and the
/// result: 2 channels-first (N x C x D..), 1 channels-last (N x D.. x C).
void kilnWindowReadAt(KilnLowerOp *l, MlirValue x, MlirType result,
                      const int64_t *weightKernel, intptr_t first,
                      KilnWindow *w);

/// (kernel - 1) * dilation + 1 of spatial dim i.
int64_t kilnWindowDilatedKernel(const KilnWindow *w, intptr_t i);

/// `x` placed in a tensor filled with `padValue` (a scalar of x's element
/// type) at offsets padBegin, large enough for every window of the output
/// (ceil_mode windows may reach past the end padding); `x` itself when no
/// padding is needed. Never tensor.pad (docs/graph-to-linalg.md:
/// its bufferized copy needs memrefCopy from MLIR's runner library).
MlirValue kilnWindowPadInput(KilnBuilder *b, MlirValue x, const KilnWindow *w,
                             MlirValue padValue);

/// kilnWindowPadInput filling only the borders around `x` (one slab
/// before and one after x along each spatial dim), so that no element is
/// written twice once x's producer writes the interior in place.
MlirValue kilnWindowPadBorders(KilnBuilder *b, MlirValue x, const KilnWindow *w,
                               MlirValue padValue);

/// kilnWindowPadInput with the spatial dims starting at dim `first`.
MlirValue kilnWindowPadInputAt(KilnBuilder *b, MlirValue x, const KilnWindow *w,
                               MlirValue padValue, intptr_t first);

/// A dense i64 elements attribute tensor<n x i64> (named-op strides and
/// dilations).
MlirAttribute kilnWindowI64Elements(MlirContext ctx, intptr_t n,
                                    const int64_t *v);

/// tensor.empty of the kernel's shape: the shape-only operand of linalg
/// pooling ops and of window generics (it gives the kernel loops their
/// extent).
MlirValue kilnWindowKernelTensor(KilnBuilder *b, const KilnWindow *w,
                                 MlirType elementType);

/* Shared by lower_conv.c and lower_conv_im2col.c. */

/// The accumulator of a conv with result type `type`: `bias` (a tensor
/// whose dims are `type`'s dims `biasDims`) broadcast, or zeros (`bias`
/// null).
MlirValue kilnConvInit(KilnBuilder *b, MlirValue bias, MlirType type,
                       intptr_t nBiasDims, const int64_t *biasDims);

/// A linalg.generic body: out + in0 * in1.
void kilnConvMacBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData);

/// The conv of the padded `x` (N x C x D.., static float) by `w` (M x
/// C/group x k..) with `win`'s strides, dilations and output sizes, plus
/// the optional bias (M), as an im2col contraction (grouped: one with a
/// group loop); `gather`: the window tensor as one gather even with
/// strides (GPU); `channelsInner`: a group-1 conv with a constant filter
/// on a small plane (a mostly idle remainder vector of pixels) loops over
/// its output channels innermost, with the filter transposed (see
/// lower_conv_im2col.c). Null when even one block of its window matrix
/// would be too big (then the caller lowers the conv directly).
MlirValue kilnIm2colConv(KilnBuilder *b, MlirValue x, MlirValue w,
                         MlirValue bias, int64_t group, const KilnWindow *win,
                         MlirType resultType, bool gather, bool channelsInner);

/// The channels-last 2-D conv of the padded `x` (N x H x W x C) by `w`
/// (KH x KW x C x M) as an im2col contraction vectorized over M; null when
/// its window matrix would be too big.
MlirValue kilnIm2colConvLast(KilnBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, const KilnWindow *win,
                             MlirType resultType, bool gather);

/// The conv of the already padded `x` by `w` (lower_conv.c's core: im2col
/// for static float shapes with `im2col` 1, linalg's convs otherwise).
MlirValue kilnConvCore(KilnBuilder *b, MlirValue x, MlirValue w, MlirValue bias,
                       int64_t group, const KilnWindow *win,
                       MlirType resultType, int im2col);

/// A strided conv_transpose of `x` (N x C x D.., static float) as one
/// stride-1 conv per output phase (lower_conv_transpose.c): `wt` is the
/// flipped conv-layout kernel (M x C/group x K..), `win` has the
/// transpose's strides, kernel and sizes, `pb` the begin padding of the
/// spread input per spatial dim. Null when it does not apply (a dilation
/// other than 1, no stride above 1, more than 64 phases).
MlirValue kilnConvTransposePhases(KilnBuilder *b, MlirValue x, MlirValue wt,
                                  MlirValue bias, int64_t group,
                                  const KilnWindow *win, const int64_t *pb,
                                  MlirType resultType);

/* Pool lowerings (lower_pool.c), listed in kilnLowerConv. */
KilnLowerStatus kilnLowerMaxPool(KilnLowerOp *l);
KilnLowerStatus kilnLowerAveragePool(KilnLowerOp *l);
KilnLowerStatus kilnLowerGlobalAveragePool(KilnLowerOp *l);
KilnLowerStatus kilnLowerGlobalMaxPool(KilnLowerOp *l);
KilnLowerStatus kilnLowerMaxUnpool(KilnLowerOp *l);

#endif
