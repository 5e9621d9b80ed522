/* kiln-opt's reproducers, in mlir-opt's format: the input IR followed by
 *
 *   {-#
 *     external_resources: {
 *       mlir_reproducer: {
 *         pipeline: "builtin.module(...)",
 *         disable_threading: false,
 *         verify_each: true
 *       }
 *     }
 *   #-}
 *
 * which `kiln-opt --run-reproducer FILE` (and mlir-opt's) runs again.
 * mlir-opt also writes one when a pass crashes; MLIR's C API cannot install
 * its crash handler, so kiln-opt writes one when the pipeline fails (every
 * diagnosed failure), not on a signal. */
#ifndef KILN_TOOLS_KILN_OPT_REPRODUCER_H
#define KILN_TOOLS_KILN_OPT_REPRODUCER_H

#include <stddef.h>

#include "kiln/diagnostics.h"
#include "mlir-c/IR.h"
#include "tools/kiln-opt/options.h"

/// Appends `op` as the reproducer's IR (generic form with locations) to
/// `out`: taken before the passes run, since they change it.
void kilnReproducerCapture(MlirOperation op, KilnStrBuf *out);

/// Writes the reproducer for `ir` (from kilnReproducerCapture) and the
/// anchored `pipeline` to `path`; reports a failure to write.
MlirLogicalResult kilnReproducerWrite(const char *path, const KilnStrBuf *ir,
                                      MlirStringRef pipeline,
                                      const KilnOptOptions *o);

/// Reads the configuration of a reproducer in `buf` into `o` (pipeline,
/// threading, verification): --run-reproducer. The pipeline replaces pass
/// flags in `o`, not a --pass-pipeline (as in mlir-opt); its text is kept in
/// o->reproducerPipeline; the configuration is blanked out of `buf` (MLIR's
/// C API parser would warn about it). A file without one changes nothing.
/// Fails (reported) on an unterminated pipeline string.
MlirLogicalResult kilnReproducerLoad(char *buf, size_t length,
                                     KilnOptOptions *o);

#endif
