/* Reading hand-written sharding plans (plan_file.h). */
#include "dialects/shard/transforms/plan_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h" /* kilnXCalloc */

/* A plan names a few entries per layer: a file this large is not one. */
enum { kMaxFileBytes = 16 << 20, kMaxEntries = 1 << 20 };

static const char *const kSplitNames[] = {
    [KILN_SHARD_SPLIT_COLUMNS] = "columns",
    [KILN_SHARD_SPLIT_ROWS] = "rows",
    [KILN_SHARD_SPLIT_WHOLE] = "whole",
};

const char *kilnShardSplitName(KilnShardSplit split) {
  return kSplitNames[split];
}

static bool fail(char *error, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(char *error, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error, size, fmt, ap);
  va_end(ap);
  return false;
}

/* The whole file, NUL-terminated, in *text (malloc'd); its length. */
static bool readAll(const char *path, char **text, size_t *length, char *error,
                    size_t errorSize) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return fail(error, errorSize, "%s: cannot read the plan: %s", path,
                strerror(errno));
  char *buf = malloc((size_t)kMaxFileBytes + 1);
  if (!buf)
    abort();
  size_t n = fread(buf, 1, (size_t)kMaxFileBytes + 1, f);
  bool bad = ferror(f);
  fclose(f);
  if (bad || n > (size_t)kMaxFileBytes) {
    free(buf);
    return fail(error, errorSize, "%s: %s", path,
                bad ? "cannot read the plan" : "not a plan (over 16 MiB)");
  }
  buf[n] = '\0';
  *text = buf;
  *length = n;
  return true;
}

static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* One line, comment and surrounding blanks dropped: [begin, end). */
static bool parseLine(KilnShardPlanFile *out, const char *begin,
                      const char *end, int line, char *error,
                      size_t errorSize) {
  const char *hash = memchr(begin, '#', (size_t)(end - begin));
  if (hash)
    end = hash;
  while (begin < end && isSpace(*begin))
    ++begin;
  while (end > begin && isSpace(end[-1]))
    --end;
  if (begin == end)
    return true;
  /* The last word says how; everything before it names. */
  const char *word = end;
  while (word > begin && !isSpace(word[-1]))
    --word;
  const char *nameEnd = word;
  while (nameEnd > begin && isSpace(nameEnd[-1]))
    --nameEnd;
  int wordLength = (int)(end - word);
  if (nameEnd == begin)
    return fail(error, errorSize,
                "%s:%d: expected 'plan tp:N' or 'NAME columns|rows|whole', "
                "got '%.*s'",
                out->path, line, wordLength, word);
  if (nameEnd - begin == 4 && !memcmp(begin, "plan", 4)) {
    if (out->hasPlan)
      return fail(error, errorSize, "%s:%d: a second 'plan' line", out->path,
                  line);
    if (wordLength >= (int)sizeof(out->planText))
      wordLength = (int)sizeof(out->planText) - 1;
    memcpy(out->planText, word, (size_t)wordLength);
    out->planText[wordLength] = '\0';
    if (!kilnShardPlanParse(out->planText, &out->plan))
      return fail(error, errorSize,
                  "%s:%d: plan '%s': expected dp:N or tp:N, N from 2 to 4096",
                  out->path, line, out->planText);
    out->hasPlan = true;
    return true;
  }
  KilnShardSplit split = KILN_SHARD_SPLIT_COLUMNS;
  while (split <= KILN_SHARD_SPLIT_WHOLE &&
         !(strlen(kSplitNames[split]) == (size_t)wordLength &&
           !memcmp(kSplitNames[split], word, (size_t)wordLength)))
    ++split;
  if (split > KILN_SHARD_SPLIT_WHOLE)
    return fail(error, errorSize,
                "%s:%d: '%.*s': expected columns, rows or whole after the "
                "name",
                out->path, line, wordLength, word);
  if (out->numEntries == kMaxEntries)
    return fail(error, errorSize, "%s:%d: more than %d entries", out->path,
                line, kMaxEntries);
  out->entries =
      realloc(out->entries, (out->numEntries + 1) * sizeof(KilnShardPlanEntry));
  if (!out->entries)
    abort();
  size_t n = (size_t)(nameEnd - begin);
  char *name = kilnXCalloc(n + 1, 1);
  memcpy(name, begin, n);
  out->entries[out->numEntries++] =
      (KilnShardPlanEntry){.name = name, .split = split, .line = line};
  return true;
}

bool kilnShardPlanFileRead(const char *path, KilnShardPlanFile *out,
                           char *error, size_t errorSize) {
  *out = (KilnShardPlanFile){.path = kilnXCalloc(strlen(path) + 1, 1)};
  strcpy(out->path, path);
  char *text;
  size_t length;
  if (!readAll(path, &text, &length, error, errorSize))
    return false;
  bool ok = true;
  if (memchr(text, '\0', length))
    ok = fail(error, errorSize, "%s: not a plan (a NUL byte: binary?)", path);
  const char *p = text, *end = text + length;
  for (int line = 1; ok && p < end; ++line) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    ok = parseLine(out, p, eol, line, error, errorSize);
    p = eol + 1;
  }
  free(text);
  return ok;
}

void kilnShardPlanFileDestroy(KilnShardPlanFile *file) {
  for (size_t i = 0; i < file->numEntries; ++i)
    free(file->entries[i].name);
  free(file->entries);
  free(file->path);
  *file = (KilnShardPlanFile){0};
}

/* Whether name location text `s` is `name` or "`name` (OpType)". */
static bool namesIt(MlirStringRef s, const char *name) {
  size_t n = strlen(name);
  if (s.length < n || memcmp(s.data, name, n))
    return false;
  return s.length == n || (s.length > n + 2 && s.data[n] == ' ' &&
                           s.data[n + 1] == '(' && s.data[s.length - 1] == ')');
}

static bool locationNames(MlirLocation loc, const char *name) {
  if (mlirLocationIsAName(loc))
    return namesIt(mlirIdentifierStr(mlirLocationNameGetName(loc)), name) ||
           locationNames(mlirLocationNameGetChildLoc(loc), name);
  if (!mlirLocationIsAFused(loc))
    return false;
  intptr_t n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *parts = kilnXCalloc((size_t)n + 1, sizeof(MlirLocation));
  mlirLocationFusedGetLocations(loc, parts);
  bool found = false;
  for (intptr_t i = 0; i < n && !found; ++i)
    found = locationNames(parts[i], name);
  free(parts);
  return found;
}

KilnShardPlanEntry *kilnShardPlanFileLookup(const KilnShardPlanFile *file,
                                            MlirLocation loc) {
  for (size_t i = 0; i < file->numEntries; ++i)
    if (locationNames(loc, file->entries[i].name))
      return &file->entries[i];
  return NULL;
}
