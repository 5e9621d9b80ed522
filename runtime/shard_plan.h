/* Sharding plans, "tp:N" and "dp:N" (docs/scale-out.md): the one parser
 * the compiler (kiln-compile --shard, kiln-shard-plan) and the runtime (a
 * library's `shard` record) share. Built into both static libraries. */
#ifndef KILN_RUNTIME_SHARD_PLAN_H
#define KILN_RUNTIME_SHARD_PLAN_H

#include <stdbool.h>

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
