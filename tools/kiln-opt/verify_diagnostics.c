/* mlir-opt's -verify-diagnostics in C; see verify_diagnostics.h.
 *
 * MLIR's own verifier (SourceMgrDiagnosticVerifierHandler) is C++ only, so
 * Kiln re-implements its semantics: the annotation grammar, line designators,
 * substring matching, notes checked like diagnostics, near misses (right
 * line and text, wrong severity) and unknown locations. Regexes for the -re
 * form use POSIX <regex.h> (extended syntax, close to llvm::Regex). */
#include "tools/kiln-opt/verify_diagnostics.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"

/// An expected-* annotation.
typedef struct Expected {
  MlirDiagnosticSeverity kind;
  int line;       /* file line the diagnostic must be on; 0 with @unknown */
  int unknownLoc; /* @unknown: matches diagnostics without a file location */
  int annLine;    /* where the annotation itself is (for reports) */
  int annCol;
  char *text;  /* the text between the outer {{ }} */
  regex_t *re; /* compiled -re pattern, or NULL for a substring match */
  int matched;
} Expected;

/// A diagnostic (or note) the context emitted.
typedef struct Seen {
  MlirDiagnosticSeverity kind;
  char *file; /* NULL when the location has no file:line:col */
  int line;
  int col;
  char *locText; /* printed location when `file` is NULL and it is known */
  char *message;
} Seen;

struct KilnDiagVerifier {
  char *fileName;
  char *buf; /* a NUL-terminated copy of the chunk, for quoting lines */
  size_t length;
  int firstLine;
  int lastLine;
  Expected *expected;
  size_t numExpected, capExpected;
  Seen *seen;
  size_t numSeen, capSeen;
  KilnStrBuf problems; /* malformed annotations, already formatted */
  int numProblems;     /* those of them that are errors (not warnings) */
  MlirContext ctx;     /* valid while `attached` */
  MlirDiagnosticHandlerID handlerId;
  int attached;
};

static char *copyString(const char *s, size_t n) {
  char *out = malloc(n + 1);
  if (!out)
    abort(); /* out of memory is no user error; see kilnStrBufAppend */
  memcpy(out, s, n);
  out[n] = '\0';
  return out;
}

/// Grows `*arr` (of `*cap` elements of `size` bytes) to hold one more.
static void *growArray(void *arr, size_t count, size_t *cap, size_t size) {
  if (count < *cap)
    return arr;
  size_t newCap = *cap ? *cap * 2 : 8;
  void *grown = realloc(arr, newCap * size);
  if (!grown)
    abort();
  *cap = newCap;
  return grown;
}

//===----------------------------------------------------------------------===//
// Quoting source lines
//===----------------------------------------------------------------------===//

/// Returns the start of file line `line` in the chunk and its length in
/// *len, or NULL when the line is not in the chunk.
static const char *findLine(const KilnDiagVerifier *v, int line, size_t *len) {
  if (line < v->firstLine || line > v->lastLine)
    return NULL;
  const char *p = v->buf, *end = v->buf + v->length;
  for (int l = v->firstLine; l < line; ++l) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      return NULL;
    p = nl + 1;
  }
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  *len = (size_t)((nl ? nl : end) - p);
  if (*len > 0 && p[*len - 1] == '\r')
    --*len;
  return p;
}

/// Appends the quoted source line and a caret under column `col`, as
/// llvm::SourceMgr does, when the line belongs to this chunk.
static void appendSourceLine(const KilnDiagVerifier *v, KilnStrBuf *out,
                             int line, int col) {
  size_t len;
  const char *text = findLine(v, line, &len);
  if (!text)
    return;
  kilnStrBufAppendf(out, "%.*s\n", (int)len, text);
  for (int i = 1; i < col && (size_t)i <= len; ++i)
    kilnStrBufAppend(out, text[i - 1] == '\t' ? "\t" : " ", 1);
  kilnStrBufAppend(out, "^\n", 2);
}

/// Appends "FILE:LINE:COL: error: MSG" and the quoted line.
static void appendDiagAt(const KilnDiagVerifier *v, KilnStrBuf *out, int line,
                         int col, const char *severity, const char *msg) {
  kilnStrBufAppendf(out, "%s:%d:%d: %s: %s\n", v->fileName, line, col, severity,
                    msg);
  appendSourceLine(v, out, line, col);
}

static void appendErrorAt(const KilnDiagVerifier *v, KilnStrBuf *out, int line,
                          int col, const char *msg) {
  appendDiagAt(v, out, line, col, "error", msg);
}

//===----------------------------------------------------------------------===//
// Scanning annotations
//===----------------------------------------------------------------------===//

/// State carried from line to line while scanning for annotations.
typedef struct ScanState {
  int lastPlainLine; /* last line without an annotation, 0 if none */
  size_t *belowIdx;  /* @below expectations waiting for a plain line */
  size_t numBelow, capBelow;
} ScanState;

/// One annotation as written, before its line is resolved.
typedef struct Annotation {
  MlirDiagnosticSeverity kind;
  int isRegex;
  char designator; /* 0 (same line), '+', '-', 'a'bove, 'b'elow, 'u'nknown */
  long offset;
  const char *text;
  size_t textLen;
} Annotation;

static int isIdentChar(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/// Finds the first "expected-KIND" token in [line, line + n) and returns its
/// offset, or -1. Sets *kind and *afterKind (offset just past KIND).
static long findAnnotation(const char *line, size_t n,
                           MlirDiagnosticSeverity *kind, size_t *afterKind) {
  static const struct {
    const char *word;
    MlirDiagnosticSeverity kind;
  } kinds[] = {{"error", MlirDiagnosticError},
               {"warning", MlirDiagnosticWarning},
               {"note", MlirDiagnosticNote},
               {"remark", MlirDiagnosticRemark}};
  static const char prefix[] = "expected-";
  const size_t prefixLen = sizeof(prefix) - 1;
  for (size_t i = 0; i + prefixLen <= n; ++i) {
    if (memcmp(line + i, prefix, prefixLen) != 0)
      continue;
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
      size_t w = strlen(kinds[k].word), end = i + prefixLen + w;
      if (end > n || memcmp(line + i + prefixLen, kinds[k].word, w) != 0)
        continue;
      /* "expected-error-re" is the regex form; "expected-errors" and the
       * like are ordinary words. */
      int regexSuffix = end + 3 <= n && memcmp(line + end, "-re", 3) == 0 &&
                        (end + 3 == n || !isIdentChar(line[end + 3]));
      if (!regexSuffix && end < n && isIdentChar(line[end]))
        continue;
      *kind = kinds[k].kind;
      *afterKind = end;
      return (long)i;
    }
  }
  return -1;
}

/// Parses an annotation after its KIND word (at `p`, line end `end`). Returns
/// NULL on success or a description of what is malformed.
static const char *parseAnnotation(const char *p, const char *end,
                                   Annotation *a) {
  if (end - p >= 3 && memcmp(p, "-re", 3) == 0) {
    a->isRegex = 1;
    p += 3;
  }
  while (p < end && (*p == ' ' || *p == '\t'))
    ++p;
  if (p < end && *p == '@') {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) {
      a->designator = *p++;
      if (p == end || !isdigit((unsigned char)*p))
        return "expected a line offset after '@+' or '@-'";
      for (; p < end && isdigit((unsigned char)*p); ++p) {
        a->offset = a->offset * 10 + (*p - '0');
        if (a->offset > 1000000)
          return "line offset is too large";
      }
    } else {
      static const char *const words[] = {"above", "below", "unknown"};
      size_t k = 0;
      for (; k < 3; ++k) {
        size_t w = strlen(words[k]);
        if ((size_t)(end - p) >= w && memcmp(p, words[k], w) == 0 &&
            ((size_t)(end - p) == w || !isIdentChar(p[w])))
          break;
      }
      if (k == 3)
        return "expected '@+N', '@-N', '@above', '@below' or '@unknown'";
      a->designator = words[k][0];
      p += strlen(words[k]);
    }
    while (p < end && (*p == ' ' || *p == '\t'))
      ++p;
  }
  if (end - p < 2 || memcmp(p, "{{", 2) != 0)
    return "expected '{{' to start the expected message";
  p += 2;
  if (end - p < 2 || memcmp(end - 2, "}}", 2) != 0)
    return "expected '}}' at the end of the line to close the message";
  a->text = p;
  a->textLen = (size_t)(end - 2 - p);
  return NULL;
}

/// Appends `s` to `out` with POSIX ERE metacharacters escaped.
static void appendEscaped(KilnStrBuf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (strchr(".[]()*+?{}|^$\\", s[i]))
      kilnStrBufAppend(out, "\\", 1);
    kilnStrBufAppend(out, s + i, 1);
  }
}

/* Bounds on an -re pattern: group nesting, and compiled size in nodes. */
enum { kMaxRegexDepth = 64, kMaxRegexNodes = 1 << 16 };

static size_t saturatingMul(size_t a, size_t b) {
  return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

/// Returns the end (the closing ']') of the bracket expression at `p`, or
/// the terminating NUL if it has none.
static const char *skipBracket(const char *p) {
  const char *q = p + 1;
  q += *q == '^';
  q += *q == ']'; /* a leading ']' is literal */
  while (*q && *q != ']') {
    char term[3] = {q[1], ']', '\0'};
    const char *close = NULL;
    if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '='))
      close = strstr(q + 2, term); /* [:alpha:], [.x.], [=x=] */
    q = close ? close + 2 : q + 1;
  }
  return q;
}

/// glibc's regcomp copies the operand of each '+' and '{m,n}' (X+ is X X*),
/// so stacked or nested repetitions ("a+++...", "((a+)+)+") cost time and
/// memory exponential in their number: found by fuzzing, as a hang. This
/// estimates the compiled size and refuses patterns over kMaxRegexNodes,
/// and backreferences (their matching can be exponential too). Returns NULL
/// if `re` is acceptable, else the reason.
static const char *regexTooComplex(const char *re) {
  size_t size[kMaxRegexDepth] = {0}; /* of each open group, so far */
  size_t last = 0; /* size of the last atom, which a repetition copies */
  int depth = 0;
  for (const char *p = re; *p; ++p) {
    size_t copies = 0; /* 0: an atom, not a repetition */
    switch (*p) {
    case '(':
      if (++depth >= kMaxRegexDepth)
        return "regex groups nest too deeply";
      size[depth] = 0;
      last = 0;
      continue;
    case ')':
      last = depth > 0 ? size[depth--] + 1 : 1;
      break;
    case '|':
      last = 0;
      continue;
    case '\\':
      if (p[1] >= '1' && p[1] <= '9')
        return "regex backreferences are not supported";
      p += p[1] != '\0';
      last = 1;
      break;
    case '[': {
      const char *end = skipBracket(p);
      p = *end ? end : end - 1;
      last = 1;
      break;
    }
    case '*':
    case '?':
      copies = 1; /* one more node around the operand */
      break;
    case '+':
      copies = 2;
      break;
    case '{': {
      char *end;
      unsigned long m = strtoul(p + 1, &end, 10), n = m;
      if (!isdigit((unsigned char)p[1])) {
        last = 1; /* not an interval */
        break;
      }
      if (*end == ',') { /* {m,n}, or {m,} counted as m + 1 copies */
        ++end;
        n = isdigit((unsigned char)*end) ? strtoul(end, &end, 10) : m + 1;
      }
      copies = m > n ? m : n;
      copies = copies > 1 ? copies : 1;
      p = *end == '}' ? end : p;
      break;
    }
    default:
      last = 1;
      break;
    }
    if (copies) {
      size_t grown = saturatingMul(last, copies);
      grown = grown == last ? last + 1 : grown;
      size[depth] += grown - last; /* the operand is already counted */
      last = grown;
    } else {
      size[depth] += last;
    }
    if (size[depth] > kMaxRegexNodes || last > kMaxRegexNodes)
      return "regex too complex (its repetitions multiply its size)";
  }
  return NULL;
}

/// Compiles an -re message (literal text with {{regex}} pieces, as in MLIR).
/// Returns NULL on success or a message (written to `err`).
static const char *compileRegex(const char *text, regex_t **out,
                                KilnStrBuf *err) {
  KilnStrBuf pattern = {0};
  const char *p = text;
  const char *result = NULL;
  for (;;) {
    const char *open = strstr(p, "{{");
    if (!open) {
      appendEscaped(&pattern, p, strlen(p));
      break;
    }
    appendEscaped(&pattern, p, (size_t)(open - p));
    const char *close = strstr(open + 2, "}}");
    if (!close) {
      result = "found start of regex with no end '}}'";
      goto done;
    }
    kilnStrBufAppend(&pattern, "(", 1);
    kilnStrBufAppend(&pattern, open + 2, (size_t)(close - open - 2));
    kilnStrBufAppend(&pattern, ")", 1);
    p = close + 2;
  }
  result = regexTooComplex(kilnStrBufGet(&pattern));
  if (result)
    goto done;
  regex_t *re = malloc(sizeof(*re));
  if (!re)
    abort();
  int rc = regcomp(re, kilnStrBufGet(&pattern), REG_EXTENDED | REG_NOSUB);
  if (rc != 0) {
    char msg[256];
    regerror(rc, re, msg, sizeof(msg));
    free(re);
    kilnStrBufAppendf(err, "invalid regex: %s", msg);
    result = kilnStrBufGet(err);
    goto done;
  }
  *out = re;
done:
  kilnStrBufDestroy(&pattern);
  return result;
}

static void freeExpected(Expected *e) {
  if (e->re) {
    regfree(e->re);
    free(e->re);
  }
  free(e->text);
}

static void addProblem(KilnDiagVerifier *v, int line, int col,
                       const char *msg) {
  appendErrorAt(v, &v->problems, line, col, msg);
  ++v->numProblems;
}

/// Resolves an annotation's target line and records it. `line` and `col` are
/// where the annotation starts.
static void addExpected(KilnDiagVerifier *v, ScanState *st, const Annotation *a,
                        int line, int col) {
  Expected e = {a->kind, line, 0, line, col, NULL, NULL, 0};
  e.text = copyString(a->text, a->textLen);
  if (a->isRegex) {
    KilnStrBuf err = {0};
    const char *msg = compileRegex(e.text, &e.re, &err);
    if (msg) {
      addProblem(v, line, col, msg);
      kilnStrBufDestroy(&err);
      free(e.text);
      return;
    }
  }
  const char *outside = NULL;
  switch (a->designator) {
  case '+':
    e.line = line + (int)a->offset;
    outside = e.line > v->lastLine ? "after the end of the input" : NULL;
    break;
  case '-':
    e.line = line - (int)a->offset;
    outside = e.line < v->firstLine ? "before the start of the input" : NULL;
    break;
  case 'a':
    e.line = st->lastPlainLine;
    outside = e.line == 0 ? "before the start of the input" : NULL;
    break;
  case 'u':
    e.line = 0;
    e.unknownLoc = 1;
    break;
  case 'b':
    e.line = 0; /* set by the next plain line; dangling if none comes */
    st->belowIdx =
        growArray(st->belowIdx, st->numBelow, &st->capBelow, sizeof(size_t));
    st->belowIdx[st->numBelow++] = v->numExpected;
    break;
  default:
    break;
  }
  if (outside) {
    KilnStrBuf msg = {0};
    if (a->designator == 'a')
      kilnStrBufAppendf(&msg,
                        "expected-%s@above has no line without an annotation "
                        "above it",
                        kilnDiagnosticSeverityGetName(a->kind));
    else
      kilnStrBufAppendf(&msg, "expected-%s refers to line %d, %s",
                        kilnDiagnosticSeverityGetName(a->kind), e.line,
                        outside);
    addProblem(v, line, col, kilnStrBufGet(&msg));
    kilnStrBufDestroy(&msg);
    freeExpected(&e);
    return;
  }
  v->expected =
      growArray(v->expected, v->numExpected, &v->capExpected, sizeof(Expected));
  v->expected[v->numExpected++] = e;
}

/// Scans one line of the chunk (without its newline).
static void scanLine(KilnDiagVerifier *v, ScanState *st, const char *text,
                     size_t n, int line) {
  while (n > 0 && isspace((unsigned char)text[n - 1]))
    --n;
  MlirDiagnosticSeverity kind;
  size_t afterKind;
  long at = findAnnotation(text, n, &kind, &afterKind);
  if (at < 0) {
    /* A plain line: pending @below annotations apply to it. */
    for (size_t i = 0; i < st->numBelow; ++i)
      v->expected[st->belowIdx[i]].line = line;
    st->numBelow = 0;
    st->lastPlainLine = line;
    return;
  }
  Annotation a = {kind, 0, 0, 0, NULL, 0};
  const char *err = parseAnnotation(text + afterKind, text + n, &a);
  if (err) {
    /* mlir-opt skips text that does not parse as an annotation; so does
     * kiln-opt (a file mlir-opt accepts must pass), but it says so. */
    KilnStrBuf msg = {0};
    kilnStrBufAppendf(&msg, "malformed expected-%s annotation ignored: %s",
                      kilnDiagnosticSeverityGetName(kind), err);
    appendDiagAt(v, &v->problems, line, (int)at + 1, "warning",
                 kilnStrBufGet(&msg));
    kilnStrBufDestroy(&msg);
    return;
  }
  addExpected(v, st, &a, line, (int)at + 1);
}

static void scanBuffer(KilnDiagVerifier *v) {
  ScanState st = {0, NULL, 0, 0};
  const char *p = v->buf, *end = v->buf + v->length;
  for (int line = v->firstLine; p < end; ++line) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *lineEnd = nl ? nl : end;
    scanLine(v, &st, p, (size_t)(lineEnd - p), line);
    p = nl ? nl + 1 : end;
  }
  /* Dangling @below annotations are malformed: report and drop them. */
  for (size_t i = 0; i < st.numBelow; ++i) {
    Expected *e = &v->expected[st.belowIdx[i]];
    KilnStrBuf msg = {0};
    kilnStrBufAppendf(&msg,
                      "expected-%s@below has no line without an annotation "
                      "below it",
                      kilnDiagnosticSeverityGetName(e->kind));
    addProblem(v, e->annLine, e->annCol, kilnStrBufGet(&msg));
    kilnStrBufDestroy(&msg);
    e->line = -1;
  }
  free(st.belowIdx);
  size_t kept = 0;
  for (size_t i = 0; i < v->numExpected; ++i) {
    if (v->expected[i].line >= 0) {
      v->expected[kept++] = v->expected[i];
      continue;
    }
    freeExpected(&v->expected[i]);
  }
  v->numExpected = kept;
}

//===----------------------------------------------------------------------===//
// Creation and destruction
//===----------------------------------------------------------------------===//

KilnDiagVerifier *kilnDiagVerifierCreate(const char *fileName, const char *buf,
                                         size_t length, int firstLine) {
  if (!buf && length > 0)
    return NULL;
  KilnDiagVerifier *v = calloc(1, sizeof(*v));
  if (!v)
    return NULL;
  if (!fileName)
    fileName = "";
  v->fileName = copyString(fileName, strlen(fileName));
  v->buf = copyString(buf ? buf : "", length);
  v->length = length;
  v->firstLine = firstLine > 0 ? firstLine : 1;
  /* The last line is the one holding the last character (a final newline
   * does not open a line diagnostics could point to). */
  int lines = 1;
  for (size_t i = 0; i + 1 < length; ++i)
    lines += buf[i] == '\n';
  v->lastLine = v->firstLine + lines - 1;
  scanBuffer(v);
  return v;
}

void kilnDiagVerifierDestroy(KilnDiagVerifier *v) {
  if (!v)
    return;
  if (v->attached)
    mlirContextDetachDiagnosticHandler(v->ctx, v->handlerId);
  for (size_t i = 0; i < v->numExpected; ++i)
    freeExpected(&v->expected[i]);
  for (size_t i = 0; i < v->numSeen; ++i) {
    free(v->seen[i].file);
    free(v->seen[i].locText);
    free(v->seen[i].message);
  }
  free(v->expected);
  free(v->seen);
  kilnStrBufDestroy(&v->problems);
  free(v->buf);
  free(v->fileName);
  free(v);
}

intptr_t kilnDiagVerifierGetNumExpected(const KilnDiagVerifier *v) {
  return v ? (intptr_t)v->numExpected : 0;
}

//===----------------------------------------------------------------------===//
// Recording diagnostics
//===----------------------------------------------------------------------===//

/// Finds the first file:line:col location inside `loc`, in the pre-order MLIR's
/// Location::findInstanceOf uses (a name's child, a call site's callee then
/// caller, a fused location's parts in order).
static int findFileLoc(MlirLocation loc, MlirLocation *out, int depth) {
  if (mlirLocationIsNull(loc) || depth > 64)
    return 0;
  if (mlirLocationIsAFileLineColRange(loc)) {
    *out = loc;
    return 1;
  }
  if (mlirLocationIsAName(loc))
    return findFileLoc(mlirLocationNameGetChildLoc(loc), out, depth + 1);
  if (mlirLocationIsACallSite(loc))
    return findFileLoc(mlirLocationCallSiteGetCallee(loc), out, depth + 1) ||
           findFileLoc(mlirLocationCallSiteGetCaller(loc), out, depth + 1);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n <= 0)
      return 0;
    MlirLocation *parts = malloc((size_t)n * sizeof(*parts));
    if (!parts)
      abort();
    mlirLocationFusedGetLocations(loc, parts);
    int found = 0;
    for (intptr_t i = 0; i < n && !found; ++i)
      found = findFileLoc(parts[i], out, depth + 1);
    free(parts);
    return found;
  }
  return 0;
}

/// Fallback for location kinds the C API cannot take apart (opaque ones):
/// finds the first `"FILE":LINE:COL` in the printed location. Unescapes
/// MLIR's string escapes (\\, \" and \XX hex).
static int parsePrintedFileLoc(const char *text, Seen *s) {
  for (const char *q = strchr(text, '"'); q; q = strchr(q + 1, '"')) {
    KilnStrBuf name = {0};
    const char *p = q + 1;
    for (; *p && *p != '"'; ++p) {
      char c = *p;
      if (c == '\\' && isxdigit((unsigned char)p[1]) &&
          isxdigit((unsigned char)p[2])) {
        char hex[3] = {p[1], p[2], 0};
        c = (char)strtol(hex, NULL, 16);
        p += 2;
      } else if (c == '\\' && p[1]) {
        c = *++p;
      }
      kilnStrBufAppend(&name, &c, 1);
    }
    int line, col, used = 0;
    if (*p == '"' && sscanf(p + 1, ":%d:%d%n", &line, &col, &used) == 2 &&
        used > 0) {
      s->file = copyString(kilnStrBufGet(&name), name.len);
      s->line = line;
      s->col = col;
      kilnStrBufDestroy(&name);
      return 1;
    }
    kilnStrBufDestroy(&name);
    if (!*p)
      return 0;
    q = p; /* continue after this string */
  }
  return 0;
}

/// Fills the location fields of `s` from `loc`.
static void resolveLocation(MlirLocation loc, Seen *s) {
  MlirLocation fileLoc;
  if (findFileLoc(loc, &fileLoc, 0)) {
    MlirStringRef name =
        mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(fileLoc));
    s->file = copyString(name.data, name.length);
    s->line = mlirLocationFileLineColRangeGetStartLine(fileLoc);
    s->col = mlirLocationFileLineColRangeGetStartColumn(fileLoc);
    return;
  }
  if (mlirLocationIsNull(loc) ||
      mlirLocationEqual(loc,
                        mlirLocationUnknownGet(mlirLocationGetContext(loc))))
    return;
  KilnStrBuf printed = {0};
  mlirLocationPrint(loc, kilnStrBufCallback, &printed);
  if (!parsePrintedFileLoc(kilnStrBufGet(&printed), s))
    s->locText = copyString(kilnStrBufGet(&printed), printed.len);
  kilnStrBufDestroy(&printed);
}

void kilnDiagVerifierRecord(KilnDiagVerifier *v,
                            MlirDiagnosticSeverity severity, MlirLocation loc,
                            const char *message) {
  if (!v)
    return;
  Seen s = {severity, NULL, 0, 0, NULL, NULL};
  if (severity != MlirDiagnosticWarning && severity != MlirDiagnosticNote &&
      severity != MlirDiagnosticRemark)
    s.kind = MlirDiagnosticError;
  resolveLocation(loc, &s);
  /* MLIR's string parsers name the source "-" (or "") when given no name,
   * as mlirModuleCreateParse does: such locations are in this input. */
  if (s.file &&
      kilnLocationFileIsUnnamed(mlirStringRefCreateFromCString(s.file))) {
    free(s.file);
    s.file = copyString(v->fileName, strlen(v->fileName));
  }
  s.message = copyString(message ? message : "", message ? strlen(message) : 0);
  v->seen = growArray(v->seen, v->numSeen, &v->capSeen, sizeof(Seen));
  v->seen[v->numSeen++] = s;
}

static void recordDiagnostic(KilnDiagVerifier *v, MlirDiagnostic diag) {
  KilnStrBuf msg = {0};
  mlirDiagnosticPrint(diag, kilnStrBufCallback, &msg);
  kilnDiagVerifierRecord(v, mlirDiagnosticGetSeverity(diag),
                         mlirDiagnosticGetLocation(diag), kilnStrBufGet(&msg));
  kilnStrBufDestroy(&msg);
}

/// Whether `note` is the "see current operation: ..." note MLIR attaches to
/// an op's errors while MLIRContext::printOpOnDiagnostic is on (the default).
/// mlir-opt turns that flag off under -verify-diagnostics, but the C API has
/// no setter for it, so the verifier drops those notes instead.
static int isPrintedOpNote(MlirDiagnostic note) {
  static const char prefix[] = "see current operation: ";
  KilnStrBuf msg = {0};
  mlirDiagnosticPrint(note, kilnStrBufCallback, &msg);
  int result = strncmp(kilnStrBufGet(&msg), prefix, sizeof(prefix) - 1) == 0;
  kilnStrBufDestroy(&msg);
  return result;
}

/// The context's diagnostic engine serializes handler calls (it holds its
/// lock while emitting), so no locking is needed here.
static MlirLogicalResult handleDiagnostic(MlirDiagnostic diag, void *userData) {
  KilnDiagVerifier *v = userData;
  recordDiagnostic(v, diag);
  intptr_t numNotes = mlirDiagnosticGetNumNotes(diag);
  for (intptr_t i = 0; i < numNotes; ++i) {
    MlirDiagnostic note = mlirDiagnosticGetNote(diag, i);
    if (!isPrintedOpNote(note))
      recordDiagnostic(v, note);
  }
  return mlirLogicalResultSuccess();
}

/// Called by the context when the handler goes away (detached, or the
/// context destroyed), so that Destroy does not detach twice.
static void handlerReleased(void *userData) {
  ((KilnDiagVerifier *)userData)->attached = 0;
}

MlirDiagnosticHandlerID kilnDiagVerifierAttach(KilnDiagVerifier *v,
                                               MlirContext ctx) {
  if (v->attached)
    mlirContextDetachDiagnosticHandler(v->ctx, v->handlerId);
  v->handlerId = mlirContextAttachDiagnosticHandler(ctx, handleDiagnostic, v,
                                                    handlerReleased);
  v->ctx = ctx;
  v->attached = 1;
  return v->handlerId;
}

//===----------------------------------------------------------------------===//
// Checking
//===----------------------------------------------------------------------===//

static int matchesText(const Expected *e, const char *message) {
  if (e->re)
    return regexec(e->re, message, 0, NULL, 0) == 0;
  return strstr(message, e->text) != NULL;
}

/// Matches one seen diagnostic against the expectations, as MLIR does: the
/// first expectation on its line with matching text and severity claims it;
/// failing that, one with matching text but another severity is a near miss.
/// Appends a report to `out` and returns 0 when it was not expected.
static int checkSeen(KilnDiagVerifier *v, const Seen *s, KilnStrBuf *out) {
  int inThisFile = s->file && strcmp(s->file, v->fileName) == 0;
  Expected *nearMiss = NULL;
  for (size_t i = 0; i < v->numExpected; ++i) {
    Expected *e = &v->expected[i];
    if (s->file ? !inThisFile || e->unknownLoc || e->line != s->line
                : !e->unknownLoc)
      continue;
    if (!matchesText(e, s->message))
      continue;
    if (e->kind == s->kind) {
      e->matched = 1;
      return 1;
    }
    nearMiss = e;
  }
  KilnStrBuf msg = {0};
  if (nearMiss) {
    kilnStrBufAppendf(&msg, "'%s' diagnostic emitted when expecting a '%s'",
                      kilnDiagnosticSeverityGetName(s->kind),
                      kilnDiagnosticSeverityGetName(nearMiss->kind));
    appendErrorAt(v, out, nearMiss->annLine, nearMiss->annCol,
                  kilnStrBufGet(&msg));
  } else if (s->file) {
    kilnStrBufAppendf(out, "%s:%d:%d: error: unexpected %s: %s\n", s->file,
                      s->line, s->col, kilnDiagnosticSeverityGetName(s->kind),
                      s->message);
    if (inThisFile)
      appendSourceLine(v, out, s->line, s->col);
  } else {
    /* Like MLIR, name a location without file:line:col by its text; an
     * unknown one by the file being checked. */
    kilnStrBufAppendf(out, "%s: error: unexpected %s: %s\n",
                      s->locText ? s->locText : v->fileName,
                      kilnDiagnosticSeverityGetName(s->kind), s->message);
  }
  kilnStrBufDestroy(&msg);
  return 0;
}

MlirLogicalResult kilnDiagVerifierFinishSeen(KilnDiagVerifier *v) {
  if (!v)
    return mlirLogicalResultFailure();
  KilnStrBuf out = {0};
  int ok = v->numProblems == 0;
  kilnStrBufAppend(&out, kilnStrBufGet(&v->problems), v->problems.len);
  for (size_t i = 0; i < v->numSeen; ++i)
    ok &= checkSeen(v, &v->seen[i], &out);
  fputs(kilnStrBufGet(&out), stderr);
  fflush(stderr);
  kilnStrBufDestroy(&out);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

MlirLogicalResult kilnDiagVerifierFinishExpected(KilnDiagVerifier *v) {
  if (!v)
    return mlirLogicalResultFailure();
  KilnStrBuf out = {0};
  int ok = 1;
  for (size_t i = 0; i < v->numExpected; ++i) {
    const Expected *e = &v->expected[i];
    if (e->matched)
      continue;
    KilnStrBuf msg = {0};
    kilnStrBufAppendf(&msg, "expected %s \"%s\" was not produced",
                      kilnDiagnosticSeverityGetName(e->kind), e->text);
    appendErrorAt(v, &out, e->annLine, e->annCol, kilnStrBufGet(&msg));
    kilnStrBufDestroy(&msg);
    ok = 0;
  }
  fputs(kilnStrBufGet(&out), stderr);
  fflush(stderr);
  kilnStrBufDestroy(&out);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

MlirLogicalResult kilnDiagVerifierFinish(KilnDiagVerifier *v) {
  bool seen = mlirLogicalResultIsSuccess(kilnDiagVerifierFinishSeen(v));
  bool expected = mlirLogicalResultIsSuccess(kilnDiagVerifierFinishExpected(v));
  return seen && expected ? mlirLogicalResultSuccess()
                          : mlirLogicalResultFailure();
}
