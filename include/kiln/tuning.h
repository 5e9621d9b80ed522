/* Kiln's auto-tuning: workloads, their schedule knobs, the tuning log
 * (docs/kiln-tune.md).
 *
 * A workload is one unit kiln-tune measures and kiln-compile schedules as
 * one: a fusion group of graph-fuse anchored on a conv or a matmul/gemm
 * (`scf.execute_region {graph.fusion = ...}`), or such an op outside any
 * group. Its key hashes what decides its schedule: the ops, their
 * attributes, operand and result types, which operands are constants, and
 * how the ops feed each other; never names or locations, so the same layer
 * in two models has one key. A record sets values of Kiln's own pass
 * options (the knobs) for one workload and target; kiln-apply-tuning
 * attaches the best record of each workload to its ops
 * (support/schedule_record.h).
 *
 * Ownership follows mlir-c: Create/Destroy pairs, Get borrows; destroying
 * NULL is a no-op. */
#ifndef KILN_TUNING_H
#define KILN_TUNING_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/passes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- workloads --------------------------------------------------------- */

/// What a workload's anchor is; it decides which knobs apply.
typedef enum KilnWorkloadKind {
  KILN_WORKLOAD_CONV = 1,           /* a conv with groups == 1 */
  KILN_WORKLOAD_DEPTHWISE_CONV = 2, /* groups == channels */
  KILN_WORKLOAD_GROUPED_CONV = 4,   /* other groups */
  KILN_WORKLOAD_MATMUL = 8,         /* matmul, gemm */
  KILN_WORKLOAD_REDUCTION = 16      /* softmax, reduce_*, pools, norms */
} KilnWorkloadKind;

typedef struct KilnWorkload {
  MlirOperation op;        /* the group or the lone op; borrowed */
  const char *key;         /* 16 hex digits */
  const char *description; /* "conv_epilogue: conv 1x64x56x56 ..." */
  KilnWorkloadKind kind;
} KilnWorkload;

/// Called for each workload; the strings live until the call returns.
typedef void (*KilnWorkloadFn)(const KilnWorkload *workload, void *userData);

/// Calls `fn` for every workload under `root` (graph dialect, after graph
/// optimizations), in program order; returns how many there were.
intptr_t kilnWorkloadsWalk(MlirOperation root, KilnWorkloadFn fn,
                           void *userData);

/// A module holding the workload alone: `@main_graph` takes the values
/// the workload reads from outside (constants are copied in) and returns
/// what it yields. Compiled like a model, it is the workload's kernel.
/// The module is owned by the caller.
MlirModule kilnWorkloadCreateKernelModule(const KilnWorkload *workload);

/* ---- knobs --------------------------------------------------------------- */

enum { KILN_KNOB_MAX_VALUES = 8 };

/// One knob: an integer or boolean option of a Kiln pass and the values
/// kiln-tune tries for it (besides leaving it at the pass's default).
typedef struct KilnTuningKnob {
  const char *pass;   /* "kiln-tile-and-vectorize" */
  const char *option; /* "rows" */
  KilnPassOptionKind kind;
  int numValues;
  int64_t values[KILN_KNOB_MAX_VALUES]; /* booleans: 0, 1 */
  unsigned kinds; /* KilnWorkloadKind bits the knob applies to */
} KilnTuningKnob;

intptr_t kilnTuningKnobGetCount(void);
/// The knob at `i`. Borrowed (static).
const KilnTuningKnob *kilnTuningKnobGetAt(intptr_t i);
/// The index of the knob `pass`.`option`, -1 if there is none.
intptr_t kilnTuningKnobLookup(MlirStringRef pass, MlirStringRef option);

/* ---- schedules and the log ------------------------------------------------
 */

/// A schedule: for each knob, 0 (the pass's default) or 1 + the index of
/// one of its values. All zeros is the default schedule.
typedef struct KilnTuningSchedule {
  uint8_t choice[64];
} KilnTuningSchedule;

/// The schedule as a record dictionary (schedule_record.h) in `ctx`.
MlirAttribute kilnTuningScheduleGetAttribute(MlirContext ctx,
                                             const KilnTuningSchedule *s);

/// What a log's records must have been tuned for to be used.
typedef struct KilnTuningTarget {
  const char *triple;   /* "x86_64-pc-linux-gnu" */
  const char *cpu;      /* "znver4" */
  const char *features; /* "+avx2,+fma,..." */
} KilnTuningTarget;

/// The target with LLVM triple `triple`, CPU `cpu` and features
/// `features` (copied); a NULL or empty triple: this machine (its triple,
/// CPU and features); otherwise a NULL CPU is "generic" and NULL features
/// none. The strings are owned by `target`; release them with
/// kilnTuningTargetDestroy.
void kilnTuningTargetCreate(const char *triple, const char *cpu,
                            const char *features,
                            KilnTuningTarget *target /* OUT */);
void kilnTuningTargetDestroy(KilnTuningTarget *target);

/// The revision of the default schedule a record is relative to: a record
/// lists only the knobs that differ from the passes' defaults, so when a
/// default rule changes, older records describe other schedules. Bumped
/// with every such change; records of another revision are skipped.
/// 2: two-vector register tiles for contractions on AVX-512
/// (kiln-tile-and-vectorize's wide-vector-size).
enum { KILN_TUNING_DEFAULTS_REVISION = 2 };

typedef struct KilnTuningLog KilnTuningLog;

/// Reads the JSON-lines log at `path` and keeps, per workload key, its
/// fastest schedule for `target`: the least median over each schedule's
/// measurements; a schedule that failed once is never chosen. Records for
/// another target, CPU or Kiln version, and lines that do not parse, are
/// skipped with one message each to `warningCallback` ("PATH:LINE: ...").
/// Returns NULL after one message to `errorCallback` when the file cannot be
/// read or a record sets a knob that does not exist or a value out of its range
/// (it names the line and the workload). Destroy with kilnTuningLogDestroy.
KilnTuningLog *
kilnTuningLogLoad(const char *path, const KilnTuningTarget *target,
                  MlirStringCallback warningCallback, void *warningUserData,
                  MlirStringCallback errorCallback, void *errorUserData);
void kilnTuningLogDestroy(KilnTuningLog *log);
/// How many workloads have a usable record.
intptr_t kilnTuningLogGetNumWorkloads(const KilnTuningLog *log);
/// The best schedule for `key`; false if the log has none.
bool kilnTuningLogLookup(const KilnTuningLog *log, const char *key,
                         KilnTuningSchedule *schedule /* OUT */);

/// Attaches the best record of each workload under `root` that `log` has
/// (a default schedule attaches nothing). Returns how many workloads got
/// one; `*numWorkloads` (may be NULL) is set to how many there are.
intptr_t kilnTuningLogApply(const KilnTuningLog *log, MlirOperation root,
                            intptr_t *numWorkloads /* OUT */);

/// How many usable records the log holds (every measurement for this
/// target, valid or not, sorted by key and then schedule), for tools that
/// replay a log (kiln-tune --resume).
intptr_t kilnTuningLogGetNumRecords(const KilnTuningLog *log);
/// Record `i`: its workload key (borrowed), schedule, and seconds
/// (negative for a candidate that failed).
void kilnTuningLogGetRecord(const KilnTuningLog *log, intptr_t i,
                            const char **key /* OUT */,
                            KilnTuningSchedule *schedule /* OUT */,
                            double *seconds /* OUT */);

/// One log line (JSON, no newline) for a measurement of `schedule` on the
/// workload `key` (`workload`: its description): `seconds`, or a negative
/// value and `error` (may be NULL otherwise) for a failed candidate.
/// Release with kilnTuningRecordLineDestroy.
char *kilnTuningRecordCreateLine(const char *key, const char *workload,
                                 const KilnTuningTarget *target, int threads,
                                 const KilnTuningSchedule *schedule,
                                 double seconds, const char *error);
void kilnTuningRecordLineDestroy(char *line);

#ifdef __cplusplus
}
#endif

#endif
