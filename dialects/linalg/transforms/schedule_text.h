/* Writing a schedule template: the loops a GPU schedule generates per op
 * are written as MLIR text (a template; passes otherwise build their ops
 * with the C API), with numbered SSA names %vN for the index arithmetic,
 * then parsed (kiln-gpu-tile-contractions, kiln-gpu-block-reductions). */
#ifndef KILN_DIALECTS_LINALG_TRANSFORMS_SCHEDULE_TEXT_H
#define KILN_DIALECTS_LINALG_TRANSFORMS_SCHEDULE_TEXT_H

#include <stdint.h>

#include "kiln/diagnostics.h"
#include "mlir-c/IR.h"

typedef struct KilnScheduleText {
  KilnStrBuf *buf; /* the text, appended to */
  int next;        /* the next SSA number */
} KilnScheduleText;

/// A fresh SSA name %vN; returns N.
int kilnScheduleFresh(KilnScheduleText *t);
/// `%vN = arith.constant V : index`; returns N.
int kilnScheduleIndex(KilnScheduleText *t, int64_t v);
/// `%vN = arith.OP %vA, %vB : index`; returns N.
int kilnScheduleBinop(KilnScheduleText *t, const char *op, int a, int b);
/// `%vN = arith.OP %vA, V` (V an index constant written first); returns N.
int kilnScheduleBinopConst(KilnScheduleText *t, const char *op, int a,
                           int64_t v);

/// `PREFIX%NAME[%vI, ...] : TYPE` and a newline, the indices `idx[0,
/// rank)`.
void kilnScheduleAppendIndexed(KilnScheduleText *t, const char *prefix,
                               const char *name, const int *idx, intptr_t rank,
                               MlirType type);

#endif
