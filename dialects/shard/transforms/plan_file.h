/* Hand-written sharding plans (kiln-compile --shard-plan FILE,
 * kiln-shard-plan{plan-file=FILE}; docs/scale-out.md#hand-written-plans):
 *
 *   # comments run from '#' to the end of the line
 *   plan tp:2                      the base plan (optional with --shard)
 *   /blocks.0/attn/qkv/MatMul  columns
 *   /blocks.0/mlp/fc2/MatMul   rows
 *   lm_head.weight             whole
 *
 * Each entry names an ONNX node or initializer (everything before the
 * line's last word) and says how the products it computes or feeds are
 * split: `columns` (their output features), `rows` (their input features,
 * the partial sums all-reduced) or `whole`. Products no entry names follow
 * the base plan's rule. */
#ifndef KILN_DIALECTS_SHARD_TRANSFORMS_PLAN_FILE_H
#define KILN_DIALECTS_SHARD_TRANSFORMS_PLAN_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"
#include "runtime/shard_plan.h"

typedef enum KilnShardSplit {
  KILN_SHARD_SPLIT_COLUMNS,
  KILN_SHARD_SPLIT_ROWS,
  KILN_SHARD_SPLIT_WHOLE,
} KilnShardSplit;

typedef struct KilnShardPlanEntry {
  char *name;
  KilnShardSplit split;
  int line;  /* in the file, from 1 */
  bool used; /* some product matched it (kiln-shard-plan sets it) */
} KilnShardPlanEntry;

typedef struct KilnShardPlanFile {
  char *path;
  bool hasPlan; /* a `plan` line was given... */
  char planText[16];
  KilnShardPlan plan; /* ...this one */
  KilnShardPlanEntry *entries;
  size_t numEntries;
} KilnShardPlanFile;

/// Reads the plan file at `path` into `out` (destroy it with
/// kilnShardPlanFileDestroy, also after a failure). On failure, returns
/// false with "PATH:LINE: what is wrong" (or "PATH: ...") in `error`.
bool kilnShardPlanFileRead(const char *path, KilnShardPlanFile *out /* OUT */,
                           char *error, size_t errorSize);

void kilnShardPlanFileDestroy(KilnShardPlanFile *file);

/// The entry naming the ONNX node or initializer `loc` comes from, or NULL:
/// an entry matches a name location "NAME" (an initializer) or "NAME
/// (OpType)" (a node, as the importer names them) anywhere in `loc`.
KilnShardPlanEntry *kilnShardPlanFileLookup(const KilnShardPlanFile *file,
                                            MlirLocation loc);

/// "columns", "rows" or "whole".
const char *kilnShardSplitName(KilnShardSplit split);

#endif
