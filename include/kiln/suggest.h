/* "Did you mean" suggestions for unknown names: of passes, options, stages
 * (kiln-opt, the pipeline parser, the session). */
#ifndef KILN_SUGGEST_H
#define KILN_SUGGEST_H

#include <stddef.h>

#include "kiln/diagnostics.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Edit distance (insertions, deletions, substitutions) between a and b,
/// capped at `limit + 1` to stay cheap on long strings.
size_t kilnEditDistance(const char *a, size_t na, const char *b, size_t nb,
                        size_t limit);

/// Collects up to 3 candidates closest to `word` (distance at most a third of
/// its length, at least 2). Feed candidates one by one, then append the
/// suggestion ("; did you mean 'x' or 'y'?") to a buffer.
typedef struct KilnSuggester {
  const char *word;
  size_t wordLength;
  const char *best[3];
  size_t bestDistance[3];
  int count;
} KilnSuggester;

void kilnSuggesterInit(KilnSuggester *s, const char *word, size_t wordLength);
void kilnSuggesterConsider(KilnSuggester *s, const char *candidate);
/// Appends "; did you mean 'a', 'b' or 'c'?" (nothing without candidates).
void kilnSuggesterAppend(const KilnSuggester *s, KilnStrBuf *out);

#ifdef __cplusplus
}
#endif

#endif
