/* The set of model libraries running now; see run_guard.h. A handful of
 * entries at most (one per library running at this moment), so a list
 * under one mutex, held only to look up, add or remove. */
#include "runtime/run_guard.h"

#include <pthread.h>
#include <stdlib.h>

#include "runtime/status.h"

static pthread_mutex_t gLock = PTHREAD_MUTEX_INITIALIZER;
static void **gRunning;
static size_t gNumRunning, gCapacity;

KilnStatus *kilnRunGuardEnter(void *handle, const char *path) {
  pthread_mutex_lock(&gLock);
  for (size_t i = 0; i < gNumRunning; ++i)
    if (gRunning[i] == handle) {
      pthread_mutex_unlock(&gLock);
      return kilnStatusCreatef(
          "kilnModelRun: the model library '%s' is already running on "
          "another thread; runs of one library must not overlap (wait for "
          "the other run to return, or load a copy of the file under "
          "another name)",
          path);
    }
  if (gNumRunning == gCapacity) {
    gCapacity = gCapacity ? 2 * gCapacity : 8;
    void **grown = realloc(gRunning, gCapacity * sizeof(*grown));
    if (!grown)
      abort();
    gRunning = grown;
  }
  gRunning[gNumRunning++] = handle;
  pthread_mutex_unlock(&gLock);
  return NULL;
}

void kilnRunGuardExit(void *handle) {
  pthread_mutex_lock(&gLock);
  for (size_t i = 0; i < gNumRunning; ++i)
    if (gRunning[i] == handle) {
      gRunning[i] = gRunning[--gNumRunning];
      break;
    }
  pthread_mutex_unlock(&gLock);
}
