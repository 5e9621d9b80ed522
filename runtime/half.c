#include "runtime/half.h"

#include <string.h>

/* F. Giesen's public-domain conversions. Written out rather than using
 * _Float16, which is not C11, and with bit operations only: the runtime
 * links libc alone (no libm). */
float kilnHalfToFloat(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
  float v;
  if (exp == 0) { /* zero or subnormal: man * 2^-24, exact */
    v = (float)man * (1.0f / 16777216.0f);
    memcpy(&bits, &v, 4);
    bits |= sign;
  } else if (exp == 31) { /* infinity, or NaN with its payload */
    bits = sign | 0x7f800000u | (man << 13);
  } else { /* rebias the exponent from 15 to 127 */
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  memcpy(&v, &bits, 4);
  return v;
}

uint16_t kilnFloatToHalf(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t a = x & 0x7fffffff;
  if (a >= 0x47800000) /* 2^16 or more, inf or NaN */
    return sign | (a > 0x7f800000 ? 0x7e00 : 0x7c00);
  if (a < 0x38800000) { /* a half subnormal: let the FPU round */
    float af, magic = 0.5f;
    memcpy(&af, &a, 4);
    af += magic;
    uint32_t r, m;
    memcpy(&r, &af, 4);
    memcpy(&m, &magic, 4);
    return sign | (uint16_t)(r - m);
  }
  uint32_t odd = (a >> 13) & 1;
  a += 0xc8000fffu + odd; /* rebias the exponent, round half to even */
  return sign | (uint16_t)(a >> 13);
}

float kilnBF16ToFloat(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

uint16_t kilnFloatToBF16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40); /* quiet NaN */
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}
