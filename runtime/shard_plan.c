/* Parsing sharding plans (shard_plan.h). */
#include "runtime/shard_plan.h"

#include <stdlib.h>
#include <string.h>

bool kilnShardPlanParse(const char *text, KilnShardPlan *out) {
  *out = (KilnShardPlan){0};
  if (!text || (strncmp(text, "dp:", 3) && strncmp(text, "tp:", 3)))
    return false;
  char *end = NULL;
  long n = strtol(text + 3, &end, 10);
  if (text[3] < '0' || text[3] > '9' || *end || n < 2 || n > 4096)
    return false;
  out->kind = text[0] == 'd' ? KILN_SHARD_DATA : KILN_SHARD_TENSOR;
  out->ranks = (int)n;
  return true;
}
