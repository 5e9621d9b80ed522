#include "tools/kiln-opt/nesting_limit.h"

bool kilnNestingWithinLimit(const char *text, size_t length, int limit,
                            int *line, int *col) {
  int depth = 0, l = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < length; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++l;
      lineStart = i + 1;
    } else if (c == '"') {
      /* A string literal: skip to its closing quote (escapes included). */
      for (++i; i < length && text[i] != '"' && text[i] != '\n'; ++i)
        i += text[i] == '\\';
      if (i < length && text[i] == '\n')
        --i; /* let the loop count the line */
    } else if (c == '/' && i + 1 < length && text[i + 1] == '/') {
      while (i + 1 < length && text[i + 1] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      if (++depth > limit) {
        *line = l;
        *col = (int)(i - lineStart) + 1;
        return false;
      }
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}
