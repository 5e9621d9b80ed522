/* Schedule records: per-workload values of Kiln's pass options, chosen by
 * kiln-tune (docs/kiln-tune.md) and attached by `kiln-apply-tuning`.
 *
 * A record is a dictionary from a pass's argument to a dictionary of its
 * option values:
 *
 *   {"kiln-tile-and-vectorize" = {rows = 4 : i64, "thread-cols" = 128 : i64},
 *    "convert-graph-to-linalg" = {"conv-channels-inner" = true}}
 *
 * It travels in the locations of the workload's ops, as the metadata of a
 * fused location around each op's own (`loc(fused<{...}>[#orig])`). Every
 * op lowered from a graph op, and every tile cut from it, keeps its
 * location, so the record reaches each pass that schedules the workload
 * without any pass copying attributes; a pass that reads an option per op
 * asks for the op's values here, and ops without a record get the pass's
 * own. */
#ifndef KILN_SUPPORT_SCHEDULE_RECORD_H
#define KILN_SUPPORT_SCHEDULE_RECORD_H

#include "kiln/passes.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The schedule record in `loc` (the metadata of the first fused location
/// that carries one, searched depth first), or a null attribute. Borrowed.
MlirAttribute kilnScheduleRecordGetFromLocation(MlirLocation loc);

/// `loc` with `record` (a dictionary as above) attached: a fused location
/// of `loc`'s own parts (an earlier record is replaced) with `record` as
/// its metadata.
MlirLocation kilnScheduleRecordAttach(MlirLocation loc, MlirAttribute record);

/// Copies `given` (options of `pass`, indexed like `pass->options`) to
/// `out` and overrides the integer and boolean options the schedule record
/// of `op`'s location sets for `pass->argument`. Values of the wrong kind
/// or options the pass does not have are ignored: kiln-apply-tuning
/// validated the record against the knob table before attaching it.
/// Returns whether any option was overridden.
bool kilnScheduleRecordGetOptions(MlirOperation op, const KilnPassInfo *pass,
                                  const KilnPassOptionValue *given,
                                  KilnPassOptionValue *out);

/// The integer the schedule record of `loc` sets for option `option` of
/// the pass `pass` (its argument), into *value; false (and *value
/// untouched) when the record sets none.
bool kilnScheduleRecordGetInt(MlirLocation loc, const char *pass,
                              const char *option, int64_t *value);

#ifdef __cplusplus
}
#endif

#endif
