/* Search strategies of kiln-tune: which configurations of a tuning task's
 * discrete search space to measure next.
 *
 * A space has K knobs (K <= KILN_SEARCH_MAX_KNOBS); knob k takes one of
 * numValues[k] values (<= KILN_SEARCH_MAX_VALUES), named by their indices
 * 0..numValues[k]-1. A configuration is an array of K such indices. The
 * tuner records every measurement (a time, or invalid: crashed, wrong or
 * timed out) and asks for batches of configurations to measure next; a
 * search never proposes a configuration twice, nor one that was recorded.
 *
 * libc and libm only; no global state (one KilnSearch per thread). */
#ifndef KILN_TOOLS_KILN_TUNE_SEARCH_H
#define KILN_TOOLS_KILN_TUNE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

enum { KILN_SEARCH_MAX_KNOBS = 16, KILN_SEARCH_MAX_VALUES = 16 };

/// A search space: numKnobs knobs, knob k with numValues[k] values
/// (1..KILN_SEARCH_MAX_VALUES). A space with 0 knobs has one (empty)
/// configuration.
typedef struct KilnSearchSpace {
  int numKnobs;
  int numValues[KILN_SEARCH_MAX_KNOBS];
} KilnSearchSpace;

typedef enum KilnSearchStrategy {
  /// Uniformly random unvisited configurations.
  KILN_SEARCH_RANDOM,
  /// Simulated annealing on a cost model fitted to the measurements, with
  /// a random fraction for exploration (see search.c).
  KILN_SEARCH_ANNEALING
} KilnSearchStrategy;

typedef struct KilnSearch KilnSearch;

/// Parses "random" or "annealing" into *out. Returns false (and leaves
/// *out alone) for any other name.
bool kilnSearchStrategyParse(const char *name, KilnSearchStrategy *out);

/// The name kilnSearchStrategyParse accepts for `strategy` (a static
/// string), or NULL for a value outside the enum.
const char *kilnSearchStrategyName(KilnSearchStrategy strategy);

/// Creates a search over a copy of `space`; the same seed, space and
/// sequence of calls gives the same proposals. Returns NULL if the space
/// is out of bounds (numKnobs outside 0..KILN_SEARCH_MAX_KNOBS, a knob with
/// no or too many values) or the strategy is unknown. The caller owns the
/// result and frees it with kilnSearchDestroy. Aborts when out of memory.
KilnSearch *kilnSearchCreate(const KilnSearchSpace *space,
                             KilnSearchStrategy strategy, uint64_t seed);

/// Frees `search`; NULL is a no-op.
void kilnSearchDestroy(KilnSearch *search);

/// Records a measurement of `config` (numKnobs indices, read, not kept):
/// `seconds` when `valid`, otherwise it crashed, was wrong or timed out.
/// Used both for fresh measurements and to replay a resumed log; a
/// recorded configuration is never proposed. A valid time that is not
/// finite and positive counts as invalid. Returns false, recording
/// nothing, if an index is outside its knob's range.
bool kilnSearchRecord(KilnSearch *search, const int *config, double seconds,
                      bool valid);

/// Writes up to `maxCount` configurations to measure next into
/// `configsOut` (the caller's array of maxCount * numKnobs ints, one
/// configuration after another), each distinct and never recorded or
/// proposed before. Returns how many were written: fewer than maxCount,
/// and 0, only once every configuration of the space has been recorded or
/// proposed (or when maxCount <= 0).
int kilnSearchPropose(KilnSearch *search, int maxCount, int *configsOut);

/// Copies the fastest valid measured configuration into `configOut` (the
/// caller's numKnobs ints) and its time into *secondsOut (either may be
/// NULL). Returns false, writing nothing, if no valid measurement exists.
bool kilnSearchGetBest(const KilnSearch *search, int *configOut,
                       double *secondsOut);

/// The number of measurements recorded, and of those that were valid.
int kilnSearchNumMeasured(const KilnSearch *search);
int kilnSearchNumValid(const KilnSearch *search);

#endif
