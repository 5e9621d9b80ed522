/* The blocks of a 3-D conv's output positions (see conv3d_tiles.h). */
#include "dialects/linalg/transforms/conv3d_tiles.h"

#include <stdbool.h>

KilnConv3dTile kilnConv3dTileGet(const int64_t *out, int64_t pixels,
                                 int64_t minBlocks, int64_t minPixels) {
  int64_t plane = out[1] * out[2];
  KilnConv3dTile first = {1, 1, out[0] * out[1]};
  bool found = false;
  /* Candidates largest first: d whole planes (d divides OD), then h rows
   * of one plane (h divides OH, h < OH). */
  for (int64_t d = out[0]; d >= 1; --d) {
    if (out[0] % d || d * plane > pixels)
      continue;
    KilnConv3dTile t = {d, out[1], out[0] / d};
    if (t.count >= minBlocks && d * plane >= minPixels)
      return t;
    if (!found)
      first = t;
    found = true;
  }
  for (int64_t h = out[1] - 1; h >= 1; --h) {
    if (out[1] % h || h * out[2] > pixels)
      continue;
    KilnConv3dTile t = {1, h, out[0] * (out[1] / h)};
    if (t.count >= minBlocks && h * out[2] >= minPixels)
      return t;
    if (!found)
      first = t;
    found = true;
  }
  return first;
}
