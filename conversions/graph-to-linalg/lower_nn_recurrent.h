/* Internal to lower_nn_recurrent*.c: the recurrent ops' configuration
 * and their cell, the elementwise generic each time step runs (its
 * activations and gate arithmetic), built by lower_nn_recurrent_cell.c for
 * the time loop of lower_nn_recurrent.c. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_NN_RECURRENT_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_NN_RECURRENT_H

#include "conversions/graph-to-linalg/lower_nn.h"

enum { KILN_RNN, KILN_GRU, KILN_LSTM };

/* An activation (an index into the ONNX names of
 * lower_nn_recurrent_cell.c) and its alpha and beta. */
typedef struct KilnRnnAct {
  int kind;
  double alpha, beta;
} KilnRnnAct;

/* One direction's configuration. */
typedef struct KilnRnn {
  int cell, gates, dirs;
  bool reverse; /* direction = reverse */
  int64_t seq, batch, input, hidden;
  bool hasClip, linearBeforeReset;
  bool masked; /* sequence_lens applied at run time (forward only) */
  double clip;
  KilnRnnAct acts[2][3]; /* per direction: f, g, h */
  MlirType elt;
} KilnRnn;

/* The cell generic over [batch, hidden]. Inputs: the G gate columns of the
 * step's accumulator (x·Wᵀ + h·Rᵀ + biases), then, where the cell has
 * them, P's i, o, f columns, the GRU's h·Rhᵀ and Rbh (linear_before_reset)
 * and the step's row of the mask (1 where the step is within the batch
 * entry's sequence_lens, else 0). Outputs: H and C (LSTM), which it reads and
 * overwrites elementwise (in place), and the step's row of Y (where
 * masked: H if the step is valid, else 0). The GRU's pre-step reads
 * H_prev as an input before its gates and writes r ⊙ H_prev. Fields `at*`
 * are block-argument positions, -1 when absent. */
typedef struct KilnRnnCell {
  const KilnRnn *r;
  const KilnRnnAct *act; /* this direction's f, g, h */
  bool resetOnly;        /* GRU pre-step: yields r ⊙ H_prev */
  int atGates, atH, atC, atP, atHr, atRbh, atMask;
} KilnRnnCell;

/// Fills r->acts from the op's 'activations', 'activation_alpha/beta'
/// (their defaults for r->cell); emits an error or "unsupported" and
/// returns it for a wrong count or an unknown name.
KilnLowerStatus kilnLowerRnnReadActivations(KilnLowerOp *l, KilnRnn *r,
                                            int perDir);
/// Builds the cell generic of `c`: `pre` (null: none) is read first, then
/// the G `gates` [batch, hidden], then `extra` (1-D ones along the hidden
/// dim, the one at c->atMask along the batch); `outs` are its outputs.
/// Returns the op.
MlirOperation kilnLowerRnnCell(KilnBuilder *b, const KilnRnnCell *c,
                               MlirValue pre, const MlirValue *gates,
                               intptr_t nExtra, const MlirValue *extra,
                               intptr_t nOut, const MlirValue *outs);

#endif
