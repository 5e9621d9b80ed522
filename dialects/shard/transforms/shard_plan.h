/* Sharding plans (docs/scale-out.md): what kiln-shard-plan annotates and
 * kiln-shard-bind-weights binds, and the names both passes share. */
#ifndef KILN_DIALECTS_SHARD_TRANSFORMS_SHARD_PLAN_H
#define KILN_DIALECTS_SHARD_TRANSFORMS_SHARD_PLAN_H

#include <stdbool.h>

/// The grid every plan shards over: `shard.grid @kiln_grid(shape = N)`.
#define KILN_SHARD_GRID "kiln_grid"
/// On a lifted weight argument: its whole value, a DenseElementsAttr.
#define KILN_SHARD_WEIGHT_ATTR "kiln.weight"
/// On the module: the plan it was sharded with ("tp:2").
#define KILN_SHARD_PLAN_ATTR "kiln.shard"

typedef enum KilnShardKind {
  KILN_SHARD_DATA,  /* dp:N, inputs split along their batch dim */
  KILN_SHARD_TENSOR /* tp:N, matrix products' weights split */
} KilnShardKind;

typedef struct KilnShardPlan {
  KilnShardKind kind;
  int ranks; /* 2 to 4096 */
} KilnShardPlan;

/// Parses "dp:N" or "tp:N" (N from 2 to 4096); false otherwise.
bool kilnShardPlanParse(const char *text, KilnShardPlan *out /* OUT */);

#endif
