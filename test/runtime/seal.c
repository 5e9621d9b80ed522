/* kiln-test-seal LIB...: appends the integrity digest that kiln-compile
 * gives every library it links (runtime/library_digest.h) to hand-written
 * test libraries, so that the runtime's other checks can be tested on
 * them. */
#include <stdio.h>
#include <string.h>

#include "runtime/library_digest.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: kiln-test-seal LIB...\n");
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    int err = kilnLibraryDigestAppend(argv[i]);
    if (err) {
      fprintf(stderr, "kiln-test-seal: %s: %s\n", argv[i], strerror(err));
      return 1;
    }
  }
  return 0;
}
