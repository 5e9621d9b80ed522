#include "tools/kiln-opt/reproducer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools/common/tool_io.h"
#include "tools/kiln-opt/diag_printer.h"

void kilnReproducerCapture(MlirOperation op, KilnStrBuf *out) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  mlirOperationPrintWithFlags(op, flags, kilnStrBufCallback, out);
  mlirOpPrintingFlagsDestroy(flags);
  kilnStrBufAppend(out, "\n", 1);
}

MlirLogicalResult kilnReproducerWrite(const char *path, const KilnStrBuf *ir,
                                      MlirStringRef pipeline,
                                      const KilnOptOptions *o) {
  KilnStrBuf text = {0};
  kilnStrBufAppend(&text, ir->data, ir->len);
  kilnStrBufAppendf(&text, "\n{-#\n  external_resources: {\n"
                           "    mlir_reproducer: {\n      pipeline: \"");
  for (size_t i = 0; i < pipeline.length; ++i) {
    char c = pipeline.data[i];
    if (c == '"' || c == '\\')
      kilnStrBufAppend(&text, "\\", 1);
    kilnStrBufAppend(&text, &c, 1);
  }
  kilnStrBufAppendf(&text,
                    "\",\n      disable_threading: %s,\n"
                    "      verify_each: %s\n    }\n  }\n#-}\n",
                    o->disableThreading ? "true" : "false",
                    o->verifyEach ? "true" : "false");
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  if (kilnToolWriteFileAtomically(path, kilnStrBufGet(&text), text.len) != 0) {
    kilnPrintToolError("kiln-opt", "cannot write the reproducer '%s': %s", path,
                       strerror(errno));
    ok = mlirLogicalResultFailure();
  }
  kilnStrBufDestroy(&text);
  return ok;
}

/* Finds `key: ` after `from` inside [from, end); returns what follows. */
static const char *findValue(const char *from, const char *end,
                             const char *key) {
  size_t n = strlen(key);
  for (const char *p = from; p + n < end; ++p)
    if (!memcmp(p, key, n) && p[n] == ':') {
      p += n + 1;
      while (p < end && (*p == ' ' || *p == '\n' || *p == '\t'))
        ++p;
      return p;
    }
  return NULL;
}

/* Blanks the `mlir_reproducer: {...}` entry out of the input (keeping its
 * newlines, so locations stay right): MLIR's C API parser has no handler
 * for it and would warn. */
static void blankConfig(char *config, const char *end) {
  char *p = config;
  int depth = 0;
  for (; p < end; ++p) {
    depth += (*p == '{') - (*p == '}');
    if (*p == '}' && depth == 0)
      break;
  }
  for (char *q = config; q <= p && q < end; ++q)
    if (*q != '\n')
      *q = ' ';
}

MlirLogicalResult kilnReproducerLoad(char *buf, size_t length,
                                     KilnOptOptions *o) {
  /* The configuration lives in the file-metadata block `{-# ... #-}` that
   * ends the file: search only there, not in comments. */
  const char *begin = NULL, *end = buf + length;
  for (const char *q = buf; q + 3 <= end; ++q)
    if (!memcmp(q, "{-#", 3))
      begin = q;
  if (!begin)
    return mlirLogicalResultSuccess();
  for (const char *q = begin; q + 3 <= end; ++q)
    if (!memcmp(q, "#-}", 3)) {
      end = q;
      break;
    }
  const char *config = findValue(begin, end, "mlir_reproducer");
  const char *pipeline = config ? findValue(config, end, "pipeline") : NULL;
  if (!pipeline || *pipeline != '"')
    return mlirLogicalResultSuccess(); /* as mlir-opt: run the flags */
  kilnStrBufClear(&o->reproducerPipeline);
  const char *p = pipeline + 1;
  for (; p < end && *p != '"'; ++p) {
    p += *p == '\\' && p + 1 < end;
    kilnStrBufAppend(&o->reproducerPipeline, p, 1);
  }
  if (p >= end) {
    kilnPrintToolError("kiln-opt",
                       "--run-reproducer: the pipeline string in '%s' is "
                       "not terminated",
                       o->input);
    return mlirLogicalResultFailure();
  }
  /* As in mlir-opt, the stored pipeline replaces pass flags, but not a
   * --pass-pipeline. */
  if (!o->pipelineFlag) {
    o->pipelineFlag = kilnStrBufGet(&o->reproducerPipeline);
    o->numPassFlags = 0;
  }
  const char *threads = findValue(config, end, "disable_threading");
  if (threads && !strncmp(threads, "true", 4))
    o->disableThreading = 1;
  const char *verify = findValue(config, end, "verify_each");
  if (verify && !strncmp(verify, "false", 5))
    o->verifyEach = 0;
  char *entry = buf + (config - buf);
  while (entry > buf && entry[-1] != ':')
    --entry;
  blankConfig(entry - 1 - strlen("mlir_reproducer"), end);
  return mlirLogicalResultSuccess();
}
