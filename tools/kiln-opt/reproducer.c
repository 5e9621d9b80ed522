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

MlirLogicalResult kilnReproducerLoad(const char *buf, size_t length,
                                     KilnOptOptions *o) {
  const char *end = buf + length;
  const char *config = findValue(buf, end, "mlir_reproducer");
  const char *pipeline = config ? findValue(config, end, "pipeline") : NULL;
  if (!pipeline || *pipeline != '"') {
    kilnPrintToolError("kiln-opt",
                       "--run-reproducer: '%s' holds no mlir_reproducer "
                       "configuration with a pipeline",
                       o->input);
    return mlirLogicalResultFailure();
  }
  kilnStrBufClear(&o->reproducerPipeline);
  for (const char *p = pipeline + 1; p < end && *p != '"'; ++p) {
    p += *p == '\\' && p + 1 < end;
    kilnStrBufAppend(&o->reproducerPipeline, p, 1);
  }
  o->pipelineFlag = kilnStrBufGet(&o->reproducerPipeline);
  const char *threads = findValue(config, end, "disable_threading");
  if (threads && !strncmp(threads, "true", 4))
    o->disableThreading = 1;
  const char *verify = findValue(config, end, "verify_each");
  if (verify && !strncmp(verify, "false", 5))
    o->verifyEach = 0;
  return mlirLogicalResultSuccess();
}
