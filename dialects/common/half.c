#include "dialects/common/half.h"

#include <math.h>
#include <string.h>

/* F. Giesen's public-domain conversions. Written out rather than using
 * _Float16, which is not C11. */
float kilnHalfToFloat(uint16_t h) {
  unsigned exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v;
  if (exp == 0)
    v = ldexpf((float)man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = ldexpf((float)(man | 0x400), (int)exp - 25);
  return (h & 0x8000) ? -v : v;
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
