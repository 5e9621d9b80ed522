/* Kiln's parser for MLIR's textual pass-pipeline syntax.
 *
 *   pipeline ::= element (',' element)*
 *   element  ::= anchor '(' pipeline? ')' | name ('{' options '}')?
 *
 * A named pipeline's options are its parameters (KilnPassInfo.options):
 * each is passed on to every pass of its expansion that has an option of
 * that name, and to the named pipelines in it (`linalg-to-llvm-cpu{
 * target-triple=... target-features=...}` reaches every
 * kiln-tile-and-vectorize inside), unless the pass sets it itself.
 *
 * Hand-written because MLIR's own parser cannot see passes registered from C
 * (there is no C registration call), and because mlirParsePassPipeline
 * replaces a pass manager's contents. Kiln names are built from the
 * registry; every other element goes to MLIR verbatim. */
#include "kiln/passes.h"

#include <ctype.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "kiln/suggest.h"
#include "pipelines/option_text.h"

/* Named pipelines may expand to named pipelines; this bounds the nesting
 * (and catches cycles). */
#define KILN_MAX_PIPELINE_DEPTH 16

typedef struct Parser {
  const char *text; /* the pipeline being parsed (one expansion level) */
  size_t length;    /* all of it, for error display */
  size_t end;       /* where parsing stops */
  size_t pos;
  int depth;
  KilnStrBuf *err;      /* the message, once something failed */
  MlirStringRef anchor; /* op name of the pass manager being filled */
  /* The parameters of the named pipeline being expanded ("key=value ...",
   * without braces), passed on to the passes that take them. */
  MlirStringRef forward;
} Parser;

static void skipSpace(Parser *p) {
  while (p->pos < p->end && isspace((unsigned char)p->text[p->pos]))
    ++p->pos;
}

static bool isNameChar(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' ||
         c == '$';
}

/* Formats "MESSAGE\n  TEXT\n  ^" with the caret at `at`. */
static MlirLogicalResult fail(Parser *p, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static MlirLogicalResult fail(Parser *p, size_t at, const char *fmt, ...) {
  if (p->err->len == 0) {
    va_list ap;
    va_start(ap, fmt);
    kilnStrBufAppendv(p->err, fmt, ap);
    va_end(ap);
    kilnStrBufAppendf(p->err, "\n  %.*s\n  %*s^", (int)p->length, p->text,
                      (int)at, "");
  }
  return mlirLogicalResultFailure();
}

static const KilnUpstreamPassInfo *lookupUpstream(const char *name, size_t n) {
  intptr_t count = kilnUpstreamPassGetCount();
  for (intptr_t i = 0; i < count; ++i) {
    const KilnUpstreamPassInfo *info = kilnUpstreamPassGetAt(i);
    if (strlen(info->argument) == n && !memcmp(info->argument, name, n))
      return info;
  }
  return NULL;
}

/* MLIR checks a pass's anchor when its pipeline parser adds the pass, but a
 * registered pipeline's builder adds passes directly, and a mismatch there
 * is an LLVM fatal error (found by fuzzing: "func.func(sparsifier)" aborts
 * the process). C cannot ask which passes a pipeline adds, so upstream
 * pipelines may nest only under a module or 'any', except those known to
 * add only op-agnostic passes. */
static bool upstreamPipelineFits(const KilnUpstreamPassInfo *info,
                                 MlirStringRef anchor) {
  static const char *const kAnyAnchor[] = {"buffer-deallocation-pipeline"};
  if (!info->isPipeline || kilnStringRefEquals(anchor, "builtin.module") ||
      kilnStringRefEquals(anchor, "any"))
    return true;
  for (size_t i = 0; i < sizeof(kAnyAnchor) / sizeof(kAnyAnchor[0]); ++i)
    if (!strcmp(info->argument, kAnyAnchor[i]))
      return true;
  return false;
}

static void suggestPasses(const char *name, size_t n, KilnStrBuf *out) {
  KilnSuggester s;
  kilnSuggesterInit(&s, name, n);
  for (intptr_t i = 0; i < kilnPassRegistryGetCount(); ++i)
    kilnSuggesterConsider(&s, kilnPassRegistryGetAt(i)->argument);
  for (intptr_t i = 0; i < kilnUpstreamPassGetCount(); ++i)
    kilnSuggesterConsider(&s, kilnUpstreamPassGetAt(i)->argument);
  kilnSuggesterAppend(&s, out);
}

/* Scans a balanced '{...}' starting at p->pos; returns its end (exclusive)
 * or 0 if unbalanced. Quotes protect braces inside values. */
static size_t scanOptions(Parser *p) {
  int depth = 0;
  char quote = 0;
  for (size_t i = p->pos; i < p->end; ++i) {
    char c = p->text[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return 0;
}

static MlirLogicalResult parseElements(Parser *p, MlirOpPassManager pm);

static void appendCallback(MlirStringRef s, void *userData) {
  kilnStrBufAppend(userData, s.data, s.length);
}

/* Steps *q (before `end`) past the next "key=value" (or bare "key") of an
 * option text, setting its key and value ranges; false at the end. */
static bool nextOption(const char **q, const char *end, MlirStringRef *key,
                       MlirStringRef *value) {
  while (*q < end && isspace((unsigned char)**q))
    ++*q;
  if (*q >= end)
    return false;
  const char *k = *q;
  while (*q < end && **q != '=' && !isspace((unsigned char)**q))
    ++*q;
  *key = mlirStringRefCreate(k, (size_t)(*q - k));
  *value = mlirStringRefCreate(*q, 0);
  if (*q < end && **q == '=') {
    ++*q;
    *value = mlirStringRefCreate(*q, kilnOptionValueLength(*q, end));
    *q += value->length;
  }
  return true;
}

/* The value of option `name` in the option text `opts`; false when the
 * text does not set it. */
static bool findOption(MlirStringRef opts, const char *name,
                       MlirStringRef *value) {
  const char *q = opts.data, *end = opts.data + opts.length;
  MlirStringRef key;
  while (nextOption(&q, end, &key, value))
    if (kilnStringRefEquals(key, name))
      return true;
  return false;
}

/* Checks that the option text `opts` of the named pipeline `info` sets
 * only its parameters. */
static MlirLogicalResult checkParameters(Parser *p, const KilnPassInfo *info,
                                         size_t optBegin, MlirStringRef opts) {
  if (!info->numOptions)
    return fail(p, optBegin, "named pipeline '%s' takes no options",
                info->argument);
  const char *q = opts.data, *end = opts.data + opts.length;
  MlirStringRef key, value;
  while (nextOption(&q, end, &key, &value)) {
    bool known = false;
    for (int i = 0; i < info->numOptions; ++i)
      known |= kilnStringRefEquals(key, info->options[i].name);
    if (!known)
      return fail(p, optBegin, "named pipeline '%s' has no parameter '%.*s'",
                  info->argument, (int)key.length, key.data);
  }
  return mlirLogicalResultSuccess();
}

/* The option text of Kiln pass `info`: its own options `opts`, then the
 * forwarded parameters it takes and does not set itself, into `out`. */
static MlirStringRef withForwarded(const Parser *p, const KilnPassInfo *info,
                                   MlirStringRef opts, KilnStrBuf *out) {
  if (!p->forward.length)
    return opts;
  kilnStrBufAppend(out, opts.data ? opts.data : "", opts.length);
  for (int i = 0; i < info->numOptions; ++i) {
    const char *name = info->options[i].name;
    MlirStringRef value, own;
    if (findOption(p->forward, name, &value) && !findOption(opts, name, &own))
      kilnStrBufAppendf(out, " %s=%.*s", name, (int)value.length, value.data);
  }
  return mlirStringRefCreate(out->data ? out->data : "", out->len);
}

static MlirLogicalResult expandNamed(Parser *p, MlirOpPassManager pm,
                                     const KilnPassInfo *info, size_t at,
                                     MlirStringRef forward) {
  if (p->depth >= KILN_MAX_PIPELINE_DEPTH)
    return fail(p, at, "pipeline '%s' nests too deeply (a cycle?)",
                info->argument);
  size_t n = strlen(info->pipeline);
  Parser sub = {info->pipeline, n,      n,         0,
                p->depth + 1,   p->err, p->anchor, forward};
  if (mlirLogicalResultIsSuccess(parseElements(&sub, pm)))
    return mlirLogicalResultSuccess();
  /* Point at the use too: the inner message shows the expansion. */
  kilnStrBufAppendf(p->err, "\n  in named pipeline '%s':\n  %.*s\n  %*s^",
                    info->argument, (int)p->length, p->text, (int)at, "");
  return mlirLogicalResultFailure();
}

/* MLIR's option errors come as several lines with blank ones between:
 * join the non-empty lines with a space so the message reads as one. */
static void squeezeLines(KilnStrBuf *msg) {
  size_t out = 0;
  bool pendingSeparator = false;
  for (size_t i = 0; i < msg->len; ++i) {
    char c = msg->data[i];
    if (c == '\n' || c == '\r') {
      pendingSeparator = out > 0;
      continue;
    }
    if (pendingSeparator) {
      msg->data[out++] = ' ';
      pendingSeparator = false;
    }
    msg->data[out++] = c;
  }
  msg->len = out;
  if (msg->data)
    msg->data[out] = '\0';
}

/* Is `key` (n bytes) one of the space-separated names in `list`? */
static bool listContains(const char *list, const char *key, size_t n) {
  for (const char *w = list; *w;) {
    size_t len = strcspn(w, " ");
    if (len == n && !memcmp(w, key, n))
      return true;
    w += len;
    w += *w == ' ';
  }
  return false;
}

/* Checks the option names in `{...}` (text [begin, end)) against the names
 * Debian's mlir-opt lists for the pass, so a typo gets Kiln's message with
 * close names instead of MLIR's, which also goes straight to stderr. */
static MlirLogicalResult checkUpstreamOptions(Parser *p,
                                              const KilnUpstreamPassInfo *info,
                                              size_t begin, size_t end) {
  const char *q = p->text + begin + 1, *stop = p->text + end - 1;
  while (q < stop) {
    if (isspace((unsigned char)*q)) {
      ++q;
      continue;
    }
    const char *key = q;
    while (q < stop && *q != '=' && !isspace((unsigned char)*q))
      ++q;
    size_t n = (size_t)(q - key);
    if (!listContains(info->options, key, n)) {
      KilnStrBuf hint = {0};
      KilnSuggester s;
      kilnSuggesterInit(&s, key, n);
      /* The suggester keeps pointers to candidates: split a copy of the
       * list in place into NUL-terminated names. */
      KilnStrBuf words = {0};
      kilnStrBufAppend(&words, info->options, strlen(info->options));
      for (char *w = words.data; w && *w;) {
        size_t len = strcspn(w, " ");
        bool last = w[len] == '\0';
        w[len] = '\0';
        kilnSuggesterConsider(&s, w);
        w += len + !last;
      }
      kilnSuggesterAppend(&s, &hint);
      fail(p, (size_t)(key - p->text),
           "unknown option '%.*s' for pass '%s'%s%s", (int)n, key,
           info->argument, kilnStrBufGet(&hint),
           *info->options ? "" : " (it takes no options)");
      kilnStrBufDestroy(&words);
      kilnStrBufDestroy(&hint);
      return mlirLogicalResultFailure();
    }
    if (q < stop && *q == '=')
      q += 1 + kilnOptionValueLength(q + 1, stop);
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult addPass(Parser *p, MlirOpPassManager pm, size_t at,
                                 const char *name, size_t nameLength,
                                 size_t optBegin, size_t optEnd) {
  const KilnPassInfo *info =
      kilnPassRegistryLookup(mlirStringRefCreate(name, nameLength));
  MlirStringRef opts = {NULL, 0};
  if (optEnd > optBegin)
    opts = mlirStringRefCreate(p->text + optBegin + 1, optEnd - optBegin - 2);
  if (info && info->pipeline) {
    /* Parameters given here replace the ones passed down. */
    if (optEnd > optBegin &&
        mlirLogicalResultIsFailure(checkParameters(p, info, optBegin, opts)))
      return mlirLogicalResultFailure();
    return expandNamed(p, pm, info, at, optEnd > optBegin ? opts : p->forward);
  }
  if (info) {
    KilnStrBuf err = {0}, merged = {0};
    opts = withForwarded(p, info, opts, &merged);
    MlirPass pass = kilnPassCreate(info, opts, appendCallback, &err);
    kilnStrBufDestroy(&merged);
    if (!pass.ptr) {
      fail(p, optBegin ? optBegin : at, "%s", kilnStrBufGet(&err));
      kilnStrBufDestroy(&err);
      return mlirLogicalResultFailure();
    }
    kilnStrBufDestroy(&err);
    mlirOpPassManagerAddOwnedPass(pm, pass);
    return mlirLogicalResultSuccess();
  }
  const KilnUpstreamPassInfo *upstream = lookupUpstream(name, nameLength);
  if (!upstream) {
    KilnStrBuf hint = {0};
    suggestPasses(name, nameLength, &hint);
    fail(p, at, "unknown pass or pipeline '%.*s'%s", (int)nameLength, name,
         kilnStrBufGet(&hint));
    kilnStrBufDestroy(&hint);
    return mlirLogicalResultFailure();
  }
  if (!upstreamPipelineFits(upstream, p->anchor))
    return fail(p, at,
                "pipeline '%.*s' must run on 'builtin.module', not '%.*s': "
                "nest it under builtin.module(...)",
                (int)nameLength, name, (int)p->anchor.length, p->anchor.data);
  if (optEnd > optBegin && mlirLogicalResultIsFailure(checkUpstreamOptions(
                               p, upstream, optBegin, optEnd)))
    return mlirLogicalResultFailure();
  size_t end = optEnd > optBegin ? optEnd : at + nameLength;
  KilnStrBuf err = {0};
  MlirLogicalResult ok = mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreate(p->text + at, end - at), appendCallback, &err);
  if (mlirLogicalResultIsFailure(ok)) {
    squeezeLines(&err);
    fail(p, optBegin ? optBegin : at, "invalid use of pass '%.*s': %s",
         (int)nameLength, name, kilnStrBufGet(&err));
  }
  kilnStrBufDestroy(&err);
  return ok;
}

static MlirLogicalResult parseElement(Parser *p, MlirOpPassManager pm) {
  skipSpace(p);
  size_t at = p->pos;
  while (p->pos < p->end && isNameChar(p->text[p->pos]))
    ++p->pos;
  if (p->pos == at)
    return fail(p, at, "expected a pass or anchor name");
  const char *name = p->text + at;
  size_t nameLength = p->pos - at;
  skipSpace(p);
  if (p->pos < p->end && p->text[p->pos] == '(') {
    ++p->pos;
    MlirStringRef outer = p->anchor;
    p->anchor = mlirStringRefCreate(name, nameLength);
    MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(pm, p->anchor);
    skipSpace(p);
    if (p->pos < p->end && p->text[p->pos] != ')' &&
        mlirLogicalResultIsFailure(parseElements(p, nested)))
      return mlirLogicalResultFailure();
    p->anchor = outer;
    skipSpace(p);
    if (p->pos >= p->end || p->text[p->pos] != ')')
      return fail(p, p->pos, "expected ')' to close '%.*s('", (int)nameLength,
                  name);
    ++p->pos;
    return mlirLogicalResultSuccess();
  }
  size_t optBegin = 0, optEnd = 0;
  if (p->pos < p->end && p->text[p->pos] == '{') {
    optBegin = p->pos;
    optEnd = scanOptions(p);
    if (!optEnd)
      return fail(p, optBegin, "unbalanced '{' in options of '%.*s'",
                  (int)nameLength, name);
    p->pos = optEnd;
  }
  return addPass(p, pm, at, name, nameLength, optBegin, optEnd);
}

static MlirLogicalResult parseElements(Parser *p, MlirOpPassManager pm) {
  for (;;) {
    if (mlirLogicalResultIsFailure(parseElement(p, pm)))
      return mlirLogicalResultFailure();
    skipSpace(p);
    if (p->pos >= p->end || p->text[p->pos] != ',')
      return mlirLogicalResultSuccess();
    ++p->pos;
  }
}

/* If the text is "ANCHOR( ... )" spanning the whole string with ANCHOR the
 * pass manager's own op, returns the inner range. */
static bool unwrapOuterAnchor(Parser *p, MlirStringRef anchorName) {
  size_t n = anchorName.length;
  skipSpace(p);
  size_t start = p->pos;
  if (p->end - start < n + 2 ||
      memcmp(p->text + start, anchorName.data, n) != 0)
    return false;
  size_t open = start + n;
  while (open < p->end && isspace((unsigned char)p->text[open]))
    ++open;
  if (open >= p->end || p->text[open] != '(')
    return false;
  /* Find the ')' matching this '(' and require only space after it. */
  int depth = 0;
  size_t close = open;
  for (; close < p->end; ++close) {
    depth += p->text[close] == '(';
    depth -= p->text[close] == ')';
    if (depth == 0)
      break;
  }
  if (close >= p->end)
    return false;
  for (size_t i = close + 1; i < p->end; ++i)
    if (!isspace((unsigned char)p->text[i]))
      return false;
  p->pos = open + 1;
  p->end = close;
  return true;
}

MlirLogicalResult kilnPipelineAppend(MlirOpPassManager pm,
                                     MlirStringRef anchorName,
                                     MlirStringRef text,
                                     MlirStringCallback errorCallback,
                                     void *userData) {
  KilnStrBuf err = {0};
  Parser p = {text.data, text.length, text.length, 0,
              0,         &err,        anchorName,  (MlirStringRef){NULL, 0}};
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  unwrapOuterAnchor(&p, anchorName);
  skipSpace(&p);
  if (p.pos < p.end)
    ok = parseElements(&p, pm);
  skipSpace(&p);
  if (mlirLogicalResultIsSuccess(ok) && p.pos < p.end)
    ok = fail(&p, p.pos, "unexpected '%c' in pass pipeline", p.text[p.pos]);
  if (mlirLogicalResultIsFailure(ok) && errorCallback)
    errorCallback(mlirStringRefCreate(err.data, err.len), userData);
  kilnStrBufDestroy(&err);
  return ok;
}
