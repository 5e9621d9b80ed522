/* The names the sharding passes share (docs/scale-out.md); the plans
 * themselves are runtime/shard_plan.h's. */
#ifndef KILN_DIALECTS_SHARD_TRANSFORMS_SHARD_PLAN_H
#define KILN_DIALECTS_SHARD_TRANSFORMS_SHARD_PLAN_H

#include "runtime/shard_plan.h" /* KilnShardPlan, kilnShardPlanParse */

/// The grid every plan shards over: `shard.grid @kiln_grid(shape = N)`.
#define KILN_SHARD_GRID "kiln_grid"
/// On a lifted weight argument: its whole value, a DenseElementsAttr.
#define KILN_SHARD_WEIGHT_ATTR "kiln.weight"
/// On a lifted weight argument that only embedding lookups read (gather.h),
/// for tp: split it by rows, the lookups masked and all-reduced.
#define KILN_SHARD_LOOKUP_ROWS_ATTR "kiln.lookup_rows"
/// On the module: the plan it was sharded with ("tp:2").
#define KILN_SHARD_PLAN_ATTR "kiln.shard"

#endif
