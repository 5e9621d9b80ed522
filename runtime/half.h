/* 16-bit float formats <-> float, for Kiln's host-side tensor code (the
 * folding passes, kiln-run's comparisons). No MLIR dependency. */
#ifndef KILN_RUNTIME_HALF_H
#define KILN_RUNTIME_HALF_H

#include <stdint.h>

/// IEEE half (f16 bits) to float; exact.
float kilnHalfToFloat(uint16_t h);
/// Float to IEEE half bits, rounding to nearest even; NaN stays NaN.
uint16_t kilnFloatToHalf(float f);
/// bfloat16 bits to float; exact.
float kilnBF16ToFloat(uint16_t b);
/// Float to bfloat16 bits, rounding to nearest even; NaN stays a quiet NaN.
uint16_t kilnFloatToBF16(float f);

#endif
