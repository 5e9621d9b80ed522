/* Search strategies of kiln-tune.
 *
 * Why a cost model: a measurement costs a compile and many timed runs,
 * while predicting a configuration costs a few dozen additions, so it pays
 * to spend a lot of prediction on choosing each measurement. Schedule knobs
 * mostly act independently on the log of the run time (a better tile size
 * is better by a factor whatever the unroll), so the model is a ridge
 * regression of log(seconds) on one-hot features of each knob's value,
 * plus one-hot features of each pair of adjacent knobs when that stays
 * small: the caller orders knobs so that the ones that interact most (the
 * tile sizes of one loop nest) sit side by side. The pair features are
 * shrunk harder than the single-knob ones, so with few measurements the
 * model is additive and the interactions only appear once the data show
 * them. Fitting is a Cholesky solve of the normal equations, at most a few
 * hundred unknowns, redone when new measurements arrived.
 *
 * Why annealing: the spaces are up to 16^16 configurations, far too many
 * to predict them all, and the model is cheap but not convex in the
 * discrete space once pair features matter. Several short annealing chains
 * minimise the prediction, half starting from the best measured
 * configurations (refining what works) and half from random points
 * (finding other basins); every unvisited configuration a chain passes
 * through is a candidate, and the best predicted candidates are proposed.
 * A space small enough to enumerate is simply predicted in full.
 *
 * Why a random fraction: the model is fitted to few points and can be
 * confidently wrong, and a search that only follows it never gathers the
 * data that would correct it. About a quarter of each batch is uniformly
 * random (epsilon-greedy), and the first measurements, before the model
 * has anything to fit, are all random.
 *
 * Every configuration recorded or proposed is kept in a hash set keyed by
 * the configuration packed 4 bits per knob (16 knobs of 16 values fill 64
 * bits exactly, so the key is exact for every space, including those whose
 * size overflows 64 bits). */
#include "tools/kiln-tune/search.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum {
  /// Spaces up to this size are predicted in full instead of annealed.
  kEnumerateLimit = 4096,
  /// Pair features are used only if the feature count stays below this.
  kMaxFeatures = 400,
  /// Random tries for an unvisited configuration before scanning.
  kRandomTries = 32,
  kNumChains = 16,
  kChainSteps = 400,
  /// Random proposals until this many valid measurements (or numKnobs+2,
  /// if larger) exist.
  kMinWarmup = 8,
};

/// Ridge penalties: the bias is nearly free, pair features are shrunk
/// harder than single-knob ones (see the top comment).
static const double kLambdaBias = 1e-3;
static const double kLambdaKnob = 0.5;
static const double kLambdaPair = 2.0;
/// The fraction of each guided batch that is uniformly random.
static const double kExploreFraction = 0.25;

/* ---- Helpers: allocation, PRNG ---------------------------------------- */

static void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    abort();
  return p;
}

static void *xrealloc(void *p, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    abort();
  p = realloc(p, count * size ? count * size : 1);
  if (!p)
    abort();
  return p;
}

/// splitmix64: small state, good enough statistics for a search.
static uint64_t nextRandom(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Uniform in 0..n-1 for 1 <= n <= 2^32.
static uint32_t randomBelow(uint64_t *state, uint64_t n) {
  return (uint32_t)(((nextRandom(state) >> 32) * n) >> 32);
}

/// Uniform in [0, 1).
static double randomUnit(uint64_t *state) {
  return (double)(nextRandom(state) >> 11) * 0x1.0p-53;
}

/* ---- A set of 64-bit keys (open addressing, linear probing) ----------- */

typedef struct KeySet {
  uint64_t *keys;
  uint8_t *used;
  size_t capacity; /* a power of two, or 0 */
  size_t count;
} KeySet;

static size_t hashKey(uint64_t key, size_t capacity) {
  key ^= key >> 33;
  key *= 0xFF51AFD7ED558CCDull;
  key ^= key >> 33;
  return (size_t)key & (capacity - 1);
}

static bool keySetContains(const KeySet *set, uint64_t key) {
  if (!set->capacity)
    return false;
  for (size_t i = hashKey(key, set->capacity); set->used[i];
       i = (i + 1) & (set->capacity - 1))
    if (set->keys[i] == key)
      return true;
  return false;
}

static void keySetInsertNew(KeySet *set, uint64_t key) {
  size_t i = hashKey(key, set->capacity);
  while (set->used[i])
    i = (i + 1) & (set->capacity - 1);
  set->used[i] = 1;
  set->keys[i] = key;
  set->count++;
}

static void keySetGrow(KeySet *set) {
  KeySet old = *set;
  set->capacity = old.capacity ? old.capacity * 2 : 64;
  set->keys = xcalloc(set->capacity, sizeof *set->keys);
  set->used = xcalloc(set->capacity, 1);
  set->count = 0;
  for (size_t i = 0; i < old.capacity; ++i)
    if (old.used[i])
      keySetInsertNew(set, old.keys[i]);
  free(old.keys);
  free(old.used);
}

/// Inserts `key`; returns false if it was already there.
static bool keySetInsert(KeySet *set, uint64_t key) {
  if (keySetContains(set, key))
    return false;
  if (2 * (set->count + 1) > set->capacity)
    keySetGrow(set);
  keySetInsertNew(set, key);
  return true;
}

static void keySetFree(KeySet *set) {
  free(set->keys);
  free(set->used);
  *set = (KeySet){0};
}

/* ---- The search object ------------------------------------------------- */

typedef struct Measurement {
  uint64_t key;
  double seconds; /* valid only */
  bool valid;
} Measurement;

/// A candidate configuration and its predicted log time.
typedef struct Candidate {
  uint64_t key;
  double predicted;
} Candidate;

struct KilnSearch {
  KilnSearchSpace space;
  KilnSearchStrategy strategy;
  uint64_t rng;
  uint64_t totalSize; /* UINT64_MAX when it does not fit */
  KeySet visited;     /* recorded or proposed */
  Measurement *measured;
  int numMeasured, capMeasured, numValid;
  int best; /* index into measured, or -1 */
  /* The cost model: predicted log(seconds) = mean + weights . features. */
  int numFeatures;
  int knobOffset[KILN_SEARCH_MAX_KNOBS];
  int pairOffset[KILN_SEARCH_MAX_KNOBS]; /* -1: no pair features */
  int firstPairFeature;                  /* numFeatures when there are none */
  double *weights, *normal, *rhs;
  double mean;
  int fittedAt; /* numMeasured when last fitted, -1 if no model */
};

static int knobValue(uint64_t key, int knob) {
  return (int)((key >> (4 * knob)) & 15);
}

static uint64_t withKnobValue(uint64_t key, int knob, int value) {
  uint64_t mask = (uint64_t)15 << (4 * knob);
  return (key & ~mask) | ((uint64_t)value << (4 * knob));
}

static void decodeKey(const KilnSearch *s, uint64_t key, int *config) {
  for (int k = 0; k < s->space.numKnobs; ++k)
    config[k] = knobValue(key, k);
}

static bool isExhausted(const KilnSearch *s) {
  return s->totalSize != UINT64_MAX && s->visited.count >= s->totalSize;
}

static void markVisited(KilnSearch *s, uint64_t key) {
  keySetInsert(&s->visited, key);
}

/// Steps `key` to the next configuration in odometer order, wrapping
/// around after the last one.
static uint64_t nextKey(const KilnSearch *s, uint64_t key) {
  for (int k = 0; k < s->space.numKnobs; ++k) {
    int v = knobValue(key, k) + 1;
    if (v < s->space.numValues[k])
      return withKnobValue(key, k, v);
    key = withKnobValue(key, k, 0);
  }
  return key;
}

static uint64_t randomKey(KilnSearch *s) {
  uint64_t key = 0;
  for (int k = 0; k < s->space.numKnobs; ++k)
    key = withKnobValue(
        key, k, (int)randomBelow(&s->rng, (uint64_t)s->space.numValues[k]));
  return key;
}

/// A uniformly random unvisited configuration into *key; false if none is
/// left. When random tries keep hitting visited ones (a nearly exhausted
/// space), scans onward from a random point instead, which always ends.
static bool randomUnvisited(KilnSearch *s, uint64_t *key) {
  if (isExhausted(s))
    return false;
  for (int i = 0; i < kRandomTries; ++i) {
    *key = randomKey(s);
    if (!keySetContains(&s->visited, *key))
      return true;
  }
  while (keySetContains(&s->visited, *key))
    *key = nextKey(s, *key);
  return true;
}

/* ---- The cost model ---------------------------------------------------- */

/// Lays out the features: 0 is the bias, then each knob's one-hot values,
/// then (if the total stays under kMaxFeatures) each adjacent pair's.
static void layOutFeatures(KilnSearch *s) {
  const KilnSearchSpace *sp = &s->space;
  int n = 1;
  for (int k = 0; k < sp->numKnobs; ++k) {
    s->knobOffset[k] = n;
    n += sp->numValues[k];
  }
  int pairs = 0;
  for (int k = 0; k + 1 < sp->numKnobs; ++k)
    pairs += sp->numValues[k] * sp->numValues[k + 1];
  bool usePairs = n + pairs <= kMaxFeatures;
  s->firstPairFeature = n;
  for (int k = 0; k < sp->numKnobs; ++k) {
    s->pairOffset[k] = -1;
    if (usePairs && k + 1 < sp->numKnobs) {
      s->pairOffset[k] = n;
      n += sp->numValues[k] * sp->numValues[k + 1];
    }
  }
  s->numFeatures = n;
}

/// The indices of the features that are 1 for `key` into `out` (room for
/// 2 * KILN_SEARCH_MAX_KNOBS); returns how many.
static int activeFeatures(const KilnSearch *s, uint64_t key, int *out) {
  int n = 0;
  out[n++] = 0;
  for (int k = 0; k < s->space.numKnobs; ++k) {
    int v = knobValue(key, k);
    out[n++] = s->knobOffset[k] + v;
    if (s->pairOffset[k] >= 0)
      out[n++] = s->pairOffset[k] + v * s->space.numValues[k + 1] +
                 knobValue(key, k + 1);
  }
  return n;
}

static double predict(const KilnSearch *s, uint64_t key) {
  int active[2 * KILN_SEARCH_MAX_KNOBS];
  int n = activeFeatures(s, key, active);
  double sum = s->mean;
  for (int i = 0; i < n; ++i)
    sum += s->weights[active[i]];
  return sum;
}

static double ridgePenalty(const KilnSearch *s, int feature) {
  if (feature == 0)
    return kLambdaBias;
  return feature < s->firstPairFeature ? kLambdaKnob : kLambdaPair;
}

/// Factors the symmetric positive definite n x n matrix `a` in place into
/// its lower Cholesky factor. Returns false if it is not positive definite.
static bool choleskyFactor(double *a, int n) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k)
      d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0))
      return false;
    d = sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (int k = 0; k < j; ++k)
        v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / d;
    }
  }
  return true;
}

/// Solves L L^T x = b in place, L from choleskyFactor.
static void choleskySolve(const double *l, int n, double *b) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k)
      b[i] -= l[i * n + k] * b[k];
    b[i] /= l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k)
      b[i] -= l[k * n + i] * b[k];
    b[i] /= l[i * n + i];
  }
}

/// The regression target of a measurement. An invalid configuration is
/// fitted as 4x slower than the slowest valid one rather than left out:
/// invalid configurations cluster by knob value (a tile too big for the
/// cache or registers, an unsupported vector width), and a model that
/// never sees them keeps steering the search back into that region, each
/// visit a wasted measurement. 4x is slow enough to steer away, yet not
/// so extreme that a log-linear fit bends its other predictions around it.
static double targetOf(const Measurement *m, double worstLog) {
  return m->valid ? log(m->seconds) : worstLog + log(4.0);
}

/// Refits the model if measurements arrived since the last fit. Returns
/// false if there is no usable model (too few valid measurements).
static bool fitModel(KilnSearch *s) {
  int warmup =
      s->space.numKnobs + 2 > kMinWarmup ? s->space.numKnobs + 2 : kMinWarmup;
  if (s->numValid < warmup)
    return false;
  if (s->fittedAt == s->numMeasured)
    return true;
  double worstLog = -INFINITY, mean = 0;
  for (int i = 0; i < s->numMeasured; ++i)
    if (s->measured[i].valid && log(s->measured[i].seconds) > worstLog)
      worstLog = log(s->measured[i].seconds);
  for (int i = 0; i < s->numMeasured; ++i)
    mean += targetOf(&s->measured[i], worstLog);
  mean /= s->numMeasured;

  int p = s->numFeatures;
  memset(s->normal, 0, sizeof(double) * (size_t)p * (size_t)p);
  memset(s->rhs, 0, sizeof(double) * (size_t)p);
  for (int f = 0; f < p; ++f)
    s->normal[f * p + f] = ridgePenalty(s, f);
  for (int i = 0; i < s->numMeasured; ++i) {
    int active[2 * KILN_SEARCH_MAX_KNOBS];
    int n = activeFeatures(s, s->measured[i].key, active);
    double y = targetOf(&s->measured[i], worstLog) - mean;
    for (int a = 0; a < n; ++a) {
      s->rhs[active[a]] += y;
      for (int b = 0; b < n; ++b)
        s->normal[active[a] * p + active[b]] += 1;
    }
  }
  if (!choleskyFactor(s->normal, p))
    return false; /* cannot happen with positive penalties; stay random */
  choleskySolve(s->normal, p, s->rhs);
  memcpy(s->weights, s->rhs, sizeof(double) * (size_t)p);
  s->mean = mean;
  s->fittedAt = s->numMeasured;
  return true;
}

/* ---- Candidate generation: enumeration or annealing -------------------- */

/// Unvisited configurations seen while searching the model, each once.
typedef struct Pool {
  Candidate *items;
  int count, capacity;
  KeySet seen;
} Pool;

static void poolAdd(const KilnSearch *s, Pool *pool, uint64_t key,
                    double predicted) {
  if (keySetContains(&s->visited, key) || !keySetInsert(&pool->seen, key))
    return;
  if (pool->count == pool->capacity) {
    pool->capacity = pool->capacity ? 2 * pool->capacity : 256;
    pool->items =
        xrealloc(pool->items, (size_t)pool->capacity, sizeof *pool->items);
  }
  pool->items[pool->count++] = (Candidate){key, predicted};
}

/// A random move: one knob changes, to a neighbouring value half of the
/// time (a local refinement: tile 32 -> 64) and to any other value
/// otherwise (a jump the model may favour for reasons neighbours do not).
static uint64_t randomMove(KilnSearch *s, uint64_t key) {
  int k = (int)randomBelow(&s->rng, (uint64_t)s->space.numKnobs);
  int n = s->space.numValues[k], v = knobValue(key, k);
  if (n < 2)
    return key;
  int next;
  if (nextRandom(&s->rng) >> 63) {
    next = v + ((nextRandom(&s->rng) >> 63) ? 1 : -1);
    if (next < 0 || next >= n)
      next = 2 * v - next; /* reflect at the ends */
  } else {
    next = (int)randomBelow(&s->rng, (uint64_t)(n - 1));
    next += next >= v;
  }
  return withKnobValue(key, k, next);
}

/// One annealing chain from `start`, minimising the prediction with a
/// temperature falling geometrically from t0 to t0 / 100; every state
/// it accepts is a candidate.
static void runChain(KilnSearch *s, Pool *pool, uint64_t start, double t0) {
  uint64_t cur = start;
  double curPredicted = predict(s, cur);
  poolAdd(s, pool, cur, curPredicted);
  for (int step = 0; step < kChainSteps; ++step) {
    double t = t0 * pow(0.01, step / (double)(kChainSteps - 1));
    uint64_t next = randomMove(s, cur);
    if (next == cur)
      continue;
    double predicted = predict(s, next);
    if (predicted > curPredicted &&
        randomUnit(&s->rng) >= exp((curPredicted - predicted) / t))
      continue;
    cur = next;
    curPredicted = predicted;
    poolAdd(s, pool, cur, curPredicted);
  }
}

/// The valid measurements, fastest first (insertion sort: qsort has no
/// context argument in C11, and this runs once per batch).
static int *sortedValid(const KilnSearch *s) {
  int *order = xcalloc((size_t)s->numValid, sizeof *order);
  int n = 0;
  for (int i = 0; i < s->numMeasured; ++i) {
    if (!s->measured[i].valid)
      continue;
    int j = n++;
    for (; j > 0 && s->measured[i].seconds < s->measured[order[j - 1]].seconds;
         --j)
      order[j] = order[j - 1];
    order[j] = i;
  }
  return order;
}

/// The annealing temperature: half the spread of the measured log times,
/// so early on a move half as bad as the typical difference is often
/// accepted.
static double startTemperature(const KilnSearch *s) {
  double sum = 0, sumSq = 0;
  for (int i = 0; i < s->numMeasured; ++i) {
    if (!s->measured[i].valid)
      continue;
    double y = log(s->measured[i].seconds);
    sum += y;
    sumSq += y * y;
  }
  double mean = sum / s->numValid;
  double var = sumSq / s->numValid - mean * mean;
  double t0 = 0.5 * sqrt(var > 0 ? var : 0);
  return t0 > 1e-3 ? t0 : 1e-3;
}

/// Runs the chains: half from the best measured configurations, the rest
/// (and any the measurements do not fill) from random points.
static void annealCandidates(KilnSearch *s, Pool *pool) {
  int *order = sortedValid(s);
  double t0 = startTemperature(s);
  for (int c = 0; c < kNumChains; ++c) {
    bool fromBest = c < kNumChains / 2 && c < s->numValid;
    uint64_t start = fromBest ? s->measured[order[c]].key : randomKey(s);
    runChain(s, pool, start, t0);
  }
  free(order);
}

static void enumerateCandidates(const KilnSearch *s, Pool *pool) {
  uint64_t key = 0;
  for (uint64_t i = 0; i < s->totalSize; ++i, key = nextKey(s, key))
    poolAdd(s, pool, key, predict(s, key));
}

static int compareCandidates(const void *a, const void *b) {
  const Candidate *x = a, *y = b;
  if (x->predicted != y->predicted)
    return x->predicted < y->predicted ? -1 : 1;
  return (x->key > y->key) - (x->key < y->key);
}

/// Proposes up to `want` configurations the model predicts fastest into
/// `out`, marking them visited; returns how many.
static int proposeGuided(KilnSearch *s, int want, int *out) {
  Pool pool = {0};
  if (s->totalSize <= kEnumerateLimit)
    enumerateCandidates(s, &pool);
  else
    annealCandidates(s, &pool);
  if (pool.count > 1)
    qsort(pool.items, (size_t)pool.count, sizeof *pool.items,
          compareCandidates);
  int n = pool.count < want ? pool.count : want;
  for (int i = 0; i < n; ++i) {
    markVisited(s, pool.items[i].key);
    decodeKey(s, pool.items[i].key, out + (size_t)i * s->space.numKnobs);
  }
  free(pool.items);
  keySetFree(&pool.seen);
  return n;
}

/* ---- The API ----------------------------------------------------------- */

bool kilnSearchStrategyParse(const char *name, KilnSearchStrategy *out) {
  for (int i = KILN_SEARCH_RANDOM; i <= KILN_SEARCH_ANNEALING; ++i) {
    if (name && strcmp(name, kilnSearchStrategyName(i)) == 0) {
      *out = (KilnSearchStrategy)i;
      return true;
    }
  }
  return false;
}

const char *kilnSearchStrategyName(KilnSearchStrategy strategy) {
  switch (strategy) {
  case KILN_SEARCH_RANDOM:
    return "random";
  case KILN_SEARCH_ANNEALING:
    return "annealing";
  }
  return NULL;
}

static bool spaceIsValid(const KilnSearchSpace *space) {
  if (!space || space->numKnobs < 0 || space->numKnobs > KILN_SEARCH_MAX_KNOBS)
    return false;
  for (int k = 0; k < space->numKnobs; ++k)
    if (space->numValues[k] < 1 || space->numValues[k] > KILN_SEARCH_MAX_VALUES)
      return false;
  return true;
}

KilnSearch *kilnSearchCreate(const KilnSearchSpace *space,
                             KilnSearchStrategy strategy, uint64_t seed) {
  if (!spaceIsValid(space) || !kilnSearchStrategyName(strategy))
    return NULL;
  KilnSearch *s = xcalloc(1, sizeof *s);
  s->space = *space;
  s->strategy = strategy;
  s->rng = seed;
  s->totalSize = 1;
  for (int k = 0; k < space->numKnobs; ++k) {
    uint64_t n = (uint64_t)space->numValues[k];
    s->totalSize =
        s->totalSize > (UINT64_MAX - 1) / n ? UINT64_MAX : s->totalSize * n;
  }
  s->best = -1;
  s->fittedAt = -1;
  layOutFeatures(s);
  size_t p = (size_t)s->numFeatures;
  s->weights = xcalloc(p, sizeof(double));
  s->rhs = xcalloc(p, sizeof(double));
  s->normal = xcalloc(p * p, sizeof(double));
  return s;
}

void kilnSearchDestroy(KilnSearch *search) {
  if (!search)
    return;
  keySetFree(&search->visited);
  free(search->measured);
  free(search->weights);
  free(search->rhs);
  free(search->normal);
  free(search);
}

bool kilnSearchRecord(KilnSearch *search, const int *config, double seconds,
                      bool valid) {
  uint64_t key = 0;
  for (int k = 0; k < search->space.numKnobs; ++k) {
    if (config[k] < 0 || config[k] >= search->space.numValues[k])
      return false;
    key = withKnobValue(key, k, config[k]);
  }
  valid = valid && isfinite(seconds) && seconds > 0;
  markVisited(search, key);
  if (search->numMeasured == search->capMeasured) {
    search->capMeasured = search->capMeasured ? 2 * search->capMeasured : 64;
    search->measured = xrealloc(search->measured, (size_t)search->capMeasured,
                                sizeof *search->measured);
  }
  int i = search->numMeasured++;
  search->measured[i] = (Measurement){key, valid ? seconds : 0, valid};
  if (valid) {
    search->numValid++;
    if (search->best < 0 || seconds < search->measured[search->best].seconds)
      search->best = i;
  }
  return true;
}

int kilnSearchPropose(KilnSearch *search, int maxCount, int *configsOut) {
  if (maxCount <= 0)
    return 0;
  int count = 0;
  if (search->strategy == KILN_SEARCH_ANNEALING && fitModel(search)) {
    /* floor(maxCount * fraction + u): a quarter on average, even for
       batches of one. */
    int explore = (int)(maxCount * kExploreFraction + randomUnit(&search->rng));
    count = proposeGuided(search, maxCount - explore, configsOut);
  }
  uint64_t key;
  while (count < maxCount && randomUnvisited(search, &key)) {
    markVisited(search, key);
    decodeKey(search, key, configsOut + (size_t)count * search->space.numKnobs);
    count++;
  }
  return count;
}

bool kilnSearchGetBest(const KilnSearch *search, int *configOut,
                       double *secondsOut) {
  if (search->best < 0)
    return false;
  if (configOut)
    decodeKey(search, search->measured[search->best].key, configOut);
  if (secondsOut)
    *secondsOut = search->measured[search->best].seconds;
  return true;
}

int kilnSearchNumMeasured(const KilnSearch *search) {
  return search->numMeasured;
}

int kilnSearchNumValid(const KilnSearch *search) { return search->numValid; }
