/* Graph ops of the Quant family (quantization and integer arithmetic):
 * table entries and type inference. */
#include "dialects/graph/op_table.h"

/* The family has no ops yet; a one-element array keeps C happy. */
const KilnGraphOpInfo kilnGraphQuantOps[1];
const int kilnGraphQuantOpsCount = 0;
