#include "pipelines/option_text.h"

size_t kilnOptionValueLength(const char *p, const char *end) {
  const char *q = p;
  if (q < end && (*q == '\'' || *q == '"')) {
    char quote = *q++;
    while (q < end && *q != quote)
      ++q;
    return (size_t)(q < end ? q + 1 - p : q - p);
  }
  int depth = 0;
  while (q < end && (depth > 0 || (*q != ' ' && *q != '\t'))) {
    depth += *q == '{';
    depth -= *q == '}';
    ++q;
  }
  return (size_t)(q - p);
}
