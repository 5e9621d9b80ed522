#include "kiln/suggest.h"

#include <stdlib.h>
#include <string.h>

size_t kilnEditDistance(const char *a, size_t na, const char *b, size_t nb,
                        size_t limit) {
  if ((na > nb ? na - nb : nb - na) > limit)
    return limit + 1;
  /* One row of the classic dynamic program. */
  size_t *row = malloc((nb + 1) * sizeof(size_t));
  if (!row)
    abort();
  for (size_t j = 0; j <= nb; ++j)
    row[j] = j;
  for (size_t i = 1; i <= na; ++i) {
    size_t diag = row[0], rowMin = i;
    row[0] = i;
    for (size_t j = 1; j <= nb; ++j) {
      size_t up = row[j];
      size_t cost = diag + (a[i - 1] != b[j - 1]);
      size_t del = up + 1, ins = row[j - 1] + 1;
      row[j] = cost < del ? (cost < ins ? cost : ins) : (del < ins ? del : ins);
      diag = up;
      if (row[j] < rowMin)
        rowMin = row[j];
    }
    if (rowMin > limit) {
      free(row);
      return limit + 1;
    }
  }
  size_t d = row[nb];
  free(row);
  return d;
}

void kilnSuggesterInit(KilnSuggester *s, const char *word, size_t wordLength) {
  memset(s, 0, sizeof(*s));
  s->word = word;
  s->wordLength = wordLength;
}

void kilnSuggesterConsider(KilnSuggester *s, const char *candidate) {
  size_t limit = s->wordLength / 3 > 2 ? s->wordLength / 3 : 2;
  size_t n = strlen(candidate);
  size_t d = kilnEditDistance(s->word, s->wordLength, candidate, n, limit);
  /* A truncated name ("require-static") is as good a hint as a typo. */
  if (s->wordLength >= 3 && n > s->wordLength &&
      !memcmp(candidate, s->word, s->wordLength))
    d = 1;
  if (d > limit || d == 0)
    return;
  /* Insert into the sorted best-3 list. */
  int pos = s->count < 3 ? s->count : 3;
  while (pos > 0 && s->bestDistance[pos - 1] > d)
    --pos;
  if (pos >= 3)
    return;
  for (int k = (s->count < 3 ? s->count : 2); k > pos; --k) {
    s->best[k] = s->best[k - 1];
    s->bestDistance[k] = s->bestDistance[k - 1];
  }
  s->best[pos] = candidate;
  s->bestDistance[pos] = d;
  if (s->count < 3)
    ++s->count;
}

void kilnSuggesterAppend(const KilnSuggester *s, KilnStrBuf *out) {
  if (s->count == 0)
    return;
  kilnStrBufAppendf(out, "; did you mean ");
  for (int i = 0; i < s->count; ++i) {
    if (i > 0)
      kilnStrBufAppendf(out, i == s->count - 1 ? " or " : ", ");
    kilnStrBufAppendf(out, "'%s'", s->best[i]);
  }
  kilnStrBufAppendf(out, "?");
}
