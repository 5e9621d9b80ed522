/* The metadata of a Kiln model library (docs/runtime.md, ABI version 1):
 * its parser and the host check. Internal to libkiln_runtime; separate from
 * loading so that tests can feed it crafted text. */
#ifndef KILN_RUNTIME_MODEL_H
#define KILN_RUNTIME_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_runtime.h"

/// The model ABI number this runtime reads.
#define KILN_MODEL_ABI_VERSION 1

/// One input or output record.
typedef struct KilnModelSlot {
  char *name; /* decoded (%25 %0A %0D) */
  KilnElementType type;
  int64_t rank;
  int64_t dims[KILN_TENSOR_MAX_RANK];
  /* `dim-name` records: the model's name for each dim (its ONNX
   * dim_param, decoded), NULL for a dim without one. */
  char *dimNames[KILN_TENSOR_MAX_RANK];
} KilnModelSlot;

/// One `profile-op` record: a timed group of ONNX nodes.
typedef struct KilnModelProfileOp {
  int64_t flops;
  int64_t rank; /* -1: unknown */
  int64_t *dims;
  int64_t numNodes;
  char **names, **opTypes; /* decoded */
} KilnModelProfileOp;

/// The parsed metadata. Every string is owned and, but for `gpu`, never
/// NULL after a successful parse (missing optional records get their
/// defaults). `gpu` is the `gpu` record's value ("cuda sm_90"), NULL for a
/// CPU model; `shard` the `shard` record's ("tp:2"), NULL for a model run
/// in one process.
typedef struct KilnModelMetadata {
  char *version, *target, *cpu, *features, *options, *entry, *gpu, *shard;
  int64_t numInputs, numOutputs;
  KilnModelSlot *inputs, *outputs;
  /* The most heap memory one run holds at once, bytes (a `memory`
   * record; 0: not recorded). */
  int64_t memoryBytes;
  /* The run-time checks' messages, `check N MESSAGE` records in order:
   * kiln_model_run returns N when check N failed. */
  int64_t numChecks;
  char **checks;
  /* The static fast paths (kiln-compile --specialize), `specialization
   * TEXT` records in order: the dims each fixes ("batch=1 seq=128"). */
  int64_t numSpecializations;
  char **specializations;
  /* A `profile N` record (kiln-compile --profile) and its N profile-op
   * records, in order. */
  bool profiled;
  int64_t numProfileOps;
  KilnModelProfileOp *profileOps;
} KilnModelMetadata;

/// Parses the metadata text `text[0, len)` into `*out` (zeroed first).
/// Unknown records are ignored; a missing or repeated `kiln-model` record,
/// an ABI number other than 1, a missing `kiln-version` or `target`, a
/// malformed input/output record, or a `gpu` record for another GPU kind
/// than cuda or with a malformed architecture, a malformed `profile` or
/// `profile-op` record, or profile-op records out of order or other in
/// number than `profile` says, or `check` records not numbered 1, 2, ...
/// in order, is an error naming the line.
/// On failure `*out` holds nothing to release.
KilnStatus *kilnModelMetadataParse(const char *text, size_t len,
                                   KilnModelMetadata *out /* OUT */);

/// Checks that `m` was built by this Kiln version for this host's
/// architecture and CPU features, and that its memory plan fits this
/// machine's memory.
KilnStatus *kilnModelMetadataCheckHost(const KilnModelMetadata *m);

/// Checks that a run holding `bytes` of heap memory at once (a memory
/// plan) fits this machine: its physical memory, or KILN_MEMORY_LIMIT
/// bytes when that environment variable is set (tests; services that cap
/// a model's share). kilnModelMetadataCheckHost's check, and kiln-run's
/// before it runs a model it compiled itself.
KilnStatus *kilnModelCheckMemoryPlan(int64_t bytes);

/// The status of a run whose run-time check `code` (1, 2, ...) failed, with
/// that check's `message` (its `check` record; NULL when unknown). The
/// runtime's, and kiln-run's for the models it runs itself.
KilnStatus *kilnModelCheckFailure(int code, const char *message);

/// Releases the contents of `m` and zeroes it.
void kilnModelMetadataDestroy(KilnModelMetadata *m);

#endif
