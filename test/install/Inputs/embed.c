/* A program that embeds Kiln's compiler through the session API, built
 * with `pkg-config --cflags --libs kiln` (test/install/install.test):
 * embed MODEL.onnx LIBRARY.so compiles the model to a library. */
#include <stdio.h>

#include "kiln/session.h"

static void printMessage(const char *severity, const char *location,
                         const char *text, void *userData) {
  (void)userData;
  fprintf(stderr, "%s%s%s: %s\n", location ? location : "",
          location ? ": " : "", severity, text);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: embed MODEL.onnx LIBRARY.so\n");
    return 2;
  }
  KilnSessionOptions options = {.target = {.optLevel = 3},
                                .onMessage = printMessage};
  KilnSession *session = kilnSessionCreate(&options);
  if (!session)
    return 1;
  KilnInvocation *inv = kilnInvocationCreate(session);
  int ok = kilnInvocationParseSource(inv, argv[1]) &&
           kilnInvocationWriteLibrary(inv, argv[2]);
  printf("%s: %s\n", argv[2], ok ? "compiled" : "failed");
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(session);
  return ok ? 0 : 1;
}
