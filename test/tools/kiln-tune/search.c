/* Tests of kiln-tune's search strategies (search.h): exhaustion, no
 * repeats, determinism, and that the cost-model-guided annealing finds
 * faster configurations than random search on a synthetic cost surface
 * with additive structure, an interaction, noise and an invalid region. */
#include "tools/kiln-tune/search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

enum { kMaxBatch = 64 };

static unsigned long long configKey(const int *config, int numKnobs) {
  unsigned long long key = 0;
  for (int k = 0; k < numKnobs; ++k)
    key = key * 16 + (unsigned long long)config[k];
  return key;
}

static bool inSpace(const KilnSearchSpace *space, const int *config) {
  for (int k = 0; k < space->numKnobs; ++k)
    if (config[k] < 0 || config[k] >= space->numValues[k])
      return false;
  return true;
}

/// Proposes until exhaustion (recording each proposal with a made-up time
/// so the guided strategy gets past its warm-up), checking every proposal
/// is new and in the space; returns how many were proposed.
static int drain(KilnSearch *search, const KilnSearchSpace *space, int batch,
                 unsigned long long *seen, int numSeen) {
  int configs[kMaxBatch * KILN_SEARCH_MAX_KNOBS];
  int total = 0;
  for (;;) {
    int n = kilnSearchPropose(search, batch, configs);
    CHECK(n >= 0 && n <= batch);
    if (n <= 0)
      return total;
    for (int i = 0; i < n; ++i) {
      const int *c = configs + i * space->numKnobs;
      CHECK(inSpace(space, c));
      unsigned long long key = configKey(c, space->numKnobs);
      for (int j = 0; j < numSeen; ++j)
        CHECK(seen[j] != key);
      seen[numSeen++] = key;
      kilnSearchRecord(search, c, 1.0 + c[0] + 0.5 * c[space->numKnobs - 1],
                       (c[0] + c[1]) % 5 != 4);
    }
    total += n;
  }
}

static void testExhaustion(KilnSearchStrategy strategy) {
  KilnSearchSpace space = {3, {3, 2, 2}};
  for (int batch = 1; batch <= 5; batch += 2) {
    KilnSearch *search = kilnSearchCreate(&space, strategy, 7);
    unsigned long long seen[64];
    int n = drain(search, &space, batch, seen, 0);
    printf("exhaustion (%s, batch %d): %d proposals\n",
           kilnSearchStrategyName(strategy), batch, n);
    CHECK(n == 12);
    int configs[5 * 3];
    CHECK(kilnSearchPropose(search, 5, configs) == 0);
    kilnSearchDestroy(search);
  }
  /* A larger space, to cover the guided path's enumeration (625 <= 4096
     configurations); annealing is covered by testApiEdges and the
     benchmark. */
  KilnSearchSpace mid = {4, {5, 5, 5, 5}};
  KilnSearch *search = kilnSearchCreate(&mid, strategy, 3);
  unsigned long long *seen = calloc(625, sizeof *seen);
  CHECK(drain(search, &mid, 16, seen, 0) == 625);
  free(seen);
  kilnSearchDestroy(search);
}

static void testNoRepeatsOfRecorded(KilnSearchStrategy strategy) {
  KilnSearchSpace space = {3, {4, 3, 2}};
  KilnSearch *search = kilnSearchCreate(&space, strategy, 11);
  unsigned long long seen[24];
  int numSeen = 0;
  /* Replay a resumed log of 10 configurations (some invalid). */
  for (int i = 0; i < 10; ++i) {
    int c[3] = {i % 4, (i / 4) % 3, (i / 2) % 2};
    unsigned long long key = configKey(c, 3);
    bool dup = false;
    for (int j = 0; j < numSeen; ++j)
      dup |= seen[j] == key;
    if (!dup)
      seen[numSeen++] = key;
    CHECK(kilnSearchRecord(search, c, 0.5 + i, i % 3 != 0));
  }
  int bad[3] = {4, 0, 0};
  CHECK(!kilnSearchRecord(search, bad, 1.0, true));
  int n = drain(search, &space, 3, seen, numSeen);
  printf("no repeats (%s): %d recorded, %d proposed, of 24\n",
         kilnSearchStrategyName(strategy), numSeen, n);
  CHECK(numSeen + n == 24);
  kilnSearchDestroy(search);
}

static void testDeterminism(KilnSearchStrategy strategy) {
  KilnSearchSpace space = {5, {7, 3, 9, 4, 6}};
  KilnSearch *a = kilnSearchCreate(&space, strategy, 42);
  KilnSearch *b = kilnSearchCreate(&space, strategy, 42);
  KilnSearch *c = kilnSearchCreate(&space, strategy, 43);
  int ca[8 * 5], cb[8 * 5], cc[8 * 5];
  bool same = true, differs = false;
  for (int round = 0; round < 6; ++round) {
    int na = kilnSearchPropose(a, 8, ca), nb = kilnSearchPropose(b, 8, cb);
    int nc = kilnSearchPropose(c, 8, cc);
    same &= na == nb && memcmp(ca, cb, sizeof ca) == 0;
    differs |= nc != na || memcmp(ca, cc, sizeof ca) != 0;
    for (int i = 0; i < na; ++i) {
      double t = 1.0 + ca[i * 5] * 0.3 + ca[i * 5 + 2] * ca[i * 5 + 3] * 0.1;
      kilnSearchRecord(a, ca + i * 5, t, true);
      kilnSearchRecord(b, ca + i * 5, t, true);
      kilnSearchRecord(c, ca + i * 5, t, true);
    }
  }
  printf("determinism (%s): same seed same proposals %s, other seed "
         "differs %s\n",
         kilnSearchStrategyName(strategy), same ? "yes" : "NO",
         differs ? "yes" : "NO");
  CHECK(same && differs);
  kilnSearchDestroy(a);
  kilnSearchDestroy(b);
  kilnSearchDestroy(c);
}

static void testApiEdges(void) {
  KilnSearchStrategy s = KILN_SEARCH_RANDOM;
  CHECK(kilnSearchStrategyParse("annealing", &s) && s == KILN_SEARCH_ANNEALING);
  CHECK(kilnSearchStrategyParse("random", &s) && s == KILN_SEARCH_RANDOM);
  CHECK(!kilnSearchStrategyParse("grid", &s) && s == KILN_SEARCH_RANDOM);
  CHECK(!kilnSearchStrategyParse(NULL, &s));
  KilnSearchSpace bad = {2, {3, 17}};
  CHECK(!kilnSearchCreate(&bad, KILN_SEARCH_RANDOM, 1));
  bad.numValues[1] = 0;
  CHECK(!kilnSearchCreate(&bad, KILN_SEARCH_RANDOM, 1));
  bad.numKnobs = 17;
  CHECK(!kilnSearchCreate(&bad, KILN_SEARCH_RANDOM, 1));
  kilnSearchDestroy(NULL);
  /* The largest space: 16 knobs of 16 values (2^64 configurations). */
  KilnSearchSpace huge = {16, {0}};
  for (int k = 0; k < 16; ++k)
    huge.numValues[k] = 16;
  KilnSearch *search = kilnSearchCreate(&huge, KILN_SEARCH_ANNEALING, 5);
  int configs[16 * 16];
  double best = 0;
  CHECK(!kilnSearchGetBest(search, configs, &best));
  for (int round = 0; round < 6; ++round) { /* past the warm-up of 18 */
    int n = kilnSearchPropose(search, 16, configs);
    CHECK(n == 16);
    for (int i = 0; i < n; ++i) {
      CHECK(inSpace(&huge, configs + i * 16));
      kilnSearchRecord(search, configs + i * 16, 1.0 + configs[i * 16 + 15],
                       true);
    }
  }
  CHECK(kilnSearchGetBest(search, configs, &best));
  CHECK(best == 1.0 + configs[15]);
  CHECK(kilnSearchNumMeasured(search) == 96 &&
        kilnSearchNumValid(search) == 96);
  kilnSearchDestroy(search);
  /* Zero knobs: a single (empty) configuration. */
  KilnSearchSpace none = {0, {0}};
  search = kilnSearchCreate(&none, KILN_SEARCH_ANNEALING, 5);
  CHECK(kilnSearchPropose(search, 4, configs) == 1);
  CHECK(kilnSearchPropose(search, 4, configs) == 0);
  kilnSearchDestroy(search);
}

/* ---- The synthetic tuning problem -------------------------------------- */

enum { kKnobs = 6, kValues = 6, kBatch = 8, kSeeds = 20 };

/// A deterministic cost surface: log time = sum_k f_k(v_k) + g(v0, v1),
/// with an invalid region (v4 == 5 and v5 >= 4) where the unconstrained
/// optimum lies, so a search that reported an invalid best would look
/// better than it is. `smooth`: each knob has a sweet spot with the cost
/// rising away from it (as tile sizes and unroll factors do), g penalises
/// mismatched v0 and v1, plus a little jitter; otherwise every f_k(v) and
/// g(a, b) is independently random, a worst case for any model.
typedef struct Surface {
  double f[kKnobs][kValues];
  double g[kValues][kValues];
} Surface;

static unsigned long long testRandom(unsigned long long *state) {
  unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double testUnit(unsigned long long *state) {
  return (double)(testRandom(state) >> 11) * 0x1.0p-53;
}

static void makeSurface(Surface *s, bool smooth) {
  unsigned long long state = 2024;
  for (int k = 0; k < kKnobs; ++k) {
    double weight = 0.3 + 1.2 * testUnit(&state);
    int sweet = k >= 4 ? 5 : (int)(testUnit(&state) * kValues);
    for (int v = 0; v < kValues; ++v) {
      double d = (v - sweet) / (double)(kValues - 1);
      s->f[k][v] = smooth ? weight * d * d + 0.1 * testUnit(&state)
                          : 0.8 * testUnit(&state);
    }
  }
  for (int a = 0; a < kValues; ++a)
    for (int b = 0; b < kValues; ++b)
      s->g[a][b] = smooth ? 0.15 * abs(a - b) + 0.1 * testUnit(&state)
                          : 0.6 * testUnit(&state);
  if (!smooth) {
    s->f[4][5] = -1.0; /* the invalid region looks best */
    s->f[5][4] = s->f[5][5] = -1.0;
  }
}

static bool isValid(const int *c) { return !(c[4] == 5 && c[5] >= 4); }

static double trueCost(const Surface *s, const int *c) {
  double sum = s->g[c[0]][c[1]];
  for (int k = 0; k < kKnobs; ++k)
    sum += s->f[k][c[k]];
  return exp(sum);
}

/// The fastest valid configuration's cost, by enumeration.
static double optimum(const Surface *s) {
  double best = INFINITY;
  int c[kKnobs] = {0};
  for (int i = 0; i < 46656; ++i) {
    for (int k = 0, r = i; k < kKnobs; ++k, r /= kValues)
      c[k] = r % kValues;
    if (isValid(c) && trueCost(s, c) < best)
      best = trueCost(s, c);
  }
  return best;
}

/// One tuning run: the default (all zeros) then batches until `budget`;
/// returns the true cost of the configuration the search reports best.
static double tune(const Surface *s, KilnSearchStrategy strategy, int budget,
                   unsigned long long seed) {
  KilnSearchSpace space = {kKnobs, {0}};
  for (int k = 0; k < kKnobs; ++k)
    space.numValues[k] = kValues;
  KilnSearch *search = kilnSearchCreate(&space, strategy, seed);
  unsigned long long noise = seed * 7919 + 1;
  int configs[kBatch * kKnobs] = {0};
  int measured = 0;
  kilnSearchRecord(search, configs, trueCost(s, configs), true);
  measured++;
  while (measured < budget) {
    int want = budget - measured < kBatch ? budget - measured : kBatch;
    int n = kilnSearchPropose(search, want, configs);
    CHECK(n == want);
    for (int i = 0; i < n; ++i) {
      const int *c = configs + i * kKnobs;
      double t = trueCost(s, c) * (1 + 0.1 * (2 * testUnit(&noise) - 1));
      kilnSearchRecord(search, c, isValid(c) ? t : 1e-9, isValid(c));
    }
    measured += n;
  }
  int best[kKnobs];
  double seconds;
  CHECK(kilnSearchGetBest(search, best, &seconds));
  CHECK(isValid(best));
  kilnSearchDestroy(search);
  return isValid(best) ? trueCost(s, best) : INFINITY;
}

/// Runs both strategies on a surface over kSeeds seeds; the mean and
/// worst ratio of the best found to the optimum go to mean[] and worst[]
/// (random first).
static void compare(bool smooth, int budget, double mean[2], double worst[2]) {
  Surface s;
  makeSurface(&s, smooth);
  double opt = optimum(&s);
  KilnSearchStrategy strategies[2] = {KILN_SEARCH_RANDOM,
                                      KILN_SEARCH_ANNEALING};
  for (int i = 0; i < 2; ++i) {
    mean[i] = worst[i] = 0;
    for (unsigned long long seed = 1; seed <= kSeeds; ++seed) {
      double ratio = tune(&s, strategies[i], budget, seed) / opt;
      mean[i] += ratio / kSeeds;
      worst[i] = ratio > worst[i] ? ratio : worst[i];
    }
  }
  printf("%s surface, 6 knobs x 6 values, %d trials in batches of %d, %d "
         "seeds: best found / optimum\n",
         smooth ? "smooth" : "random-table", budget, kBatch, kSeeds);
  printf("  random:    mean %.3f, worst %.3f\n", mean[0], worst[0]);
  printf("  annealing: mean %.3f, worst %.3f\n", mean[1], worst[1]);
}

/// With 64 trials (0.14% of the space) the guided search lands about 25%
/// above the optimum, against 70-80% for random search; with 128 it is
/// within about 10%. The bounds leave room for a change of seeds.
static void testGuidedBeatsRandom(void) {
  double mean[2], worst[2];
  for (int smooth = 1; smooth >= 0; --smooth) {
    compare(smooth, 64, mean, worst);
    CHECK(mean[1] <= 1.35);
    CHECK(mean[1] < 0.8 * mean[0]);
    compare(smooth, 128, mean, worst);
    CHECK(mean[1] <= 1.12);
    CHECK(mean[1] < 0.8 * mean[0]);
  }
}

int main(void) {
  testApiEdges();
  KilnSearchStrategy strategies[2] = {KILN_SEARCH_RANDOM,
                                      KILN_SEARCH_ANNEALING};
  for (int i = 0; i < 2; ++i) {
    testExhaustion(strategies[i]);
    testNoRepeatsOfRecorded(strategies[i]);
    testDeterminism(strategies[i]);
  }
  testGuidedBeatsRandom();
  if (failures) {
    printf("FAILED: %d checks\n", failures);
    return 1;
  }
  printf("all search tests passed\n");
  return 0;
}
