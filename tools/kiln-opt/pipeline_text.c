#include "tools/kiln-opt/pipeline_text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kiln/passes.h"

static void appendCallback(MlirStringRef s, void *userData) {
  kilnStrBufAppend(userData, s.data, s.length);
}

static const KilnUpstreamPassInfo *lookupUpstream(const char *name, size_t n) {
  for (intptr_t i = 0; i < kilnUpstreamPassGetCount(); ++i) {
    const KilnUpstreamPassInfo *info = kilnUpstreamPassGetAt(i);
    if (strlen(info->argument) == n && !memcmp(info->argument, name, n))
      return info;
  }
  return NULL;
}

/* The op an upstream pass is restricted to, written to `anchor`; empty for
 * an op-agnostic pass. The C API cannot ask a pass for it, so the pass is
 * added to a scratch pass manager on `root`: MLIR refuses a restricted pass
 * there with "Can't add pass 'X' restricted to 'OP' on a PassManager
 * intended to run on 'ROOT'", which names the op. Only passes are probed:
 * a pipeline's builder adding a mismatched pass is a fatal error. */
static void probeUpstreamAnchor(MlirContext ctx, const char *name, size_t n,
                                MlirStringRef root, KilnStrBuf *anchor) {
  static const char kKey[] = "restricted to '";
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, root);
  KilnStrBuf msg = {0};
  if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(
          mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreate(name, n),
          appendCallback, &msg))) {
    const char *at = strstr(kilnStrBufGet(&msg), kKey);
    if (at) {
      at += sizeof(kKey) - 1;
      kilnStrBufAppend(anchor, at, strcspn(at, "'"));
    }
  }
  kilnStrBufDestroy(&msg);
  mlirPassManagerDestroy(pm);
}

/* mlir-opt adds each pass flag to a pass manager on the root op with
 * implicit nesting (OpPassManager::Nesting::Implicit): a pass restricted to
 * another op gets a nested pass manager of its own, `OP(pass)`; adjacent
 * ones are not merged (that only happens when the pipeline runs, and does
 * not change what it does). Pipelines are added on the root. */
static void buildFromFlags(MlirContext ctx, const KilnOptOptions *o,
                           MlirStringRef root, KilnStrBuf *out) {
  kilnStrBufAppendf(out, "%.*s(", (int)root.length, root.data);
  for (int i = 0; i < o->numPassFlags; ++i) {
    const KilnOptPassFlag *f = &o->passFlags[i];
    KilnStrBuf anchor = {0};
    const KilnPassInfo *info =
        kilnPassRegistryLookup(mlirStringRefCreate(f->name, f->nameLength));
    if (info && !info->pipeline && info->anchor) {
      kilnStrBufAppend(&anchor, info->anchor, strlen(info->anchor));
    } else if (!info) {
      const KilnUpstreamPassInfo *up = lookupUpstream(f->name, f->nameLength);
      if (up && !up->isPipeline)
        probeUpstreamAnchor(ctx, f->name, f->nameLength, root, &anchor);
    }
    bool nest =
        anchor.len > 0 && !kilnStringRefEquals(root, kilnStrBufGet(&anchor));
    if (i > 0)
      kilnStrBufAppend(out, ",", 1);
    if (nest)
      kilnStrBufAppendf(out, "%s(", kilnStrBufGet(&anchor));
    kilnStrBufAppend(out, f->name, f->nameLength);
    if (f->options)
      kilnStrBufAppendf(out, "{%s}", f->options);
    if (nest)
      kilnStrBufAppend(out, ")", 1);
    kilnStrBufDestroy(&anchor);
  }
  kilnStrBufAppend(out, ")", 1);
}

MlirStringRef kilnOptPipelineAnchor(MlirStringRef text) {
  size_t i = 0;
  while (i < text.length && isspace((unsigned char)text.data[i]))
    ++i;
  size_t begin = i;
  while (i < text.length && text.data[i] != '(' &&
         !isspace((unsigned char)text.data[i]) && text.data[i] != '{' &&
         text.data[i] != ',')
    ++i;
  return mlirStringRefCreate(text.data + begin, i - begin);
}

/* Is `text` one `ANCHOR(...)` element with nothing after it? Unbalanced
 * parentheses are left to the pipeline parser to report. */
static bool isAnchored(const char *text) {
  MlirStringRef anchor =
      kilnOptPipelineAnchor(mlirStringRefCreateFromCString(text));
  const char *p = anchor.data + anchor.length;
  if (anchor.length == 0 || *p != '(')
    return false;
  int depth = 0;
  for (; *p; ++p) {
    depth += *p == '(';
    depth -= *p == ')';
    if (depth == 0)
      break;
  }
  if (!*p)
    return true;
  for (++p; *p; ++p)
    if (!isspace((unsigned char)*p))
      return false;
  return true;
}

MlirLogicalResult kilnOptBuildPipeline(MlirContext ctx, const KilnOptOptions *o,
                                       MlirStringRef root, KilnStrBuf *out,
                                       KilnStrBuf *err) {
  kilnStrBufClear(out);
  if (!o->pipelineFlag) {
    buildFromFlags(ctx, o, root, out);
    return mlirLogicalResultSuccess();
  }
  if (!isAnchored(o->pipelineFlag)) {
    kilnStrBufAppendf(err, "expected pass pipeline to be wrapped with the "
                           "anchor operation type, e.g. "
                           "'builtin.module(...)'");
    return mlirLogicalResultFailure();
  }
  kilnStrBufAppend(out, o->pipelineFlag, strlen(o->pipelineFlag));
  return mlirLogicalResultSuccess();
}

/* Counts the top-level elements of "ANCHOR(a,b{x,y},c(d))". */
static int countTopLevel(const char *s, size_t n) {
  int depth = 0, count = 0, braces = 0;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    char c = s[i];
    braces += (c == '{') - (c == '}');
    if (braces)
      continue;
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (depth == 1 && c == ',') {
      ++count;
    } else if (depth == 1 && !isspace((unsigned char)c)) {
      any = true;
    }
  }
  return any ? count + 1 : 0;
}

void kilnOptDumpPipeline(MlirOpPassManager pm) {
  KilnStrBuf text = {0};
  mlirPrintPassPipeline(pm, appendCallback, &text);
  const char *s = kilnStrBufGet(&text);
  fprintf(stderr, "Pass Manager with %d passes:\n", countTopLevel(s, text.len));
  /* MLIR's pretty form: each element on its own line, two spaces a level;
   * option text in braces (which may hold quotes) is copied as is. */
  int depth = 0, braces = 0;
  char quote = 0;
  bool indent = false;
  for (size_t i = 0; i < text.len; ++i) {
    char c = s[i];
    if (quote || braces) {
      if (quote)
        quote = c == quote ? 0 : quote;
      else if (c == '"' || c == '\'')
        quote = c;
      else
        braces += (c == '{') - (c == '}');
      fputc(c, stderr);
      continue;
    }
    if (indent && c != ')') {
      fprintf(stderr, "%*s", 2 * depth, "");
      indent = false;
    }
    if (c == '(') {
      fputs("(\n", stderr);
      ++depth;
      indent = true;
    } else if (c == ',') {
      fputs(",\n", stderr);
      indent = true;
    } else if (c == ')') {
      --depth;
      fprintf(stderr, "\n%*s)", 2 * depth, "");
      indent = false;
    } else {
      braces += c == '{';
      fputc(c, stderr);
    }
  }
  fputs("\n\n", stderr);
  kilnStrBufDestroy(&text);
}
