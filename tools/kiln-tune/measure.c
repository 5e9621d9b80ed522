/* Child processes for kiln-tune (measure.h). */
#define _GNU_SOURCE /* readlink, kill, vasprintf, mkdtemp */
#include "tools/kiln-tune/measure.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kiln/kiln_runtime.h"

extern char **environ;

double measureNow(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

char *measureToolDir(void) {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0)
    return strdup(".");
  path[n] = 0;
  char *slash = strrchr(path, '/');
  if (slash)
    *slash = 0;
  return strdup(path);
}

bool measureSpawn(char *const *argv, const char *outPath, double timeout,
                  MeasureJob *job) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const char *out = outPath ? outPath : "/dev/null";
  posix_spawn_file_actions_addopen(&actions, 1, out,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  *job = (MeasureJob){.pid = rc ? -1 : pid,
                      .started = measureNow(),
                      .timeout = timeout,
                      .status = rc ? 127 : -1};
  return rc == 0;
}

void measureWaitAll(MeasureJob *jobs, int n) {
  for (;;) {
    int running = 0;
    for (int i = 0; i < n; ++i) {
      MeasureJob *j = &jobs[i];
      if (j->status >= 0)
        continue;
      int st;
      pid_t r = waitpid(j->pid, &st, WNOHANG);
      if (r == j->pid) {
        j->status = j->killed       ? 124
                    : WIFEXITED(st) ? WEXITSTATUS(st)
                                    : 128 + WTERMSIG(st);
        continue;
      }
      if (!j->killed && j->timeout >= 0 &&
          measureNow() - j->started > j->timeout) {
        kill(j->pid, SIGKILL);
        j->killed = true; /* reaped as a timeout */
      }
      ++running;
    }
    if (!running)
      return;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

double measureReadMedian(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[1024];
  double median = -1;
  while (fgets(line, sizeof(line), f)) {
    const char *m = strstr(line, "median ");
    double v;
    if (!strncmp(line, "benchmark:", 10) && m &&
        sscanf(m, "median %lf ms", &v) == 1)
      median = v * 1e-3;
  }
  fclose(f);
  return median;
}

uint64_t measureLibraryDigest(const char *path) {
  uint64_t digest = 0;
  kilnStatusDestroy(kilnModelLibraryGetDigest(path, &digest));
  return digest;
}

char *measurePath(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    abort();
  va_end(ap);
  return s;
}

char *measureMakeWorkDir(const char *prefix) {
  const char *tmp = getenv("TMPDIR");
  char *path = measurePath("%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
  if (mkdtemp(path))
    return path;
  int saved = errno;
  free(path);
  errno = saved;
  return NULL;
}

/* rm -r: a work directory holds one directory per task. */
void measureRemoveDir(const char *dir) {
  if (!dir)
    return;
  char *argv[] = {"/bin/rm", "-rf", (char *)dir, NULL};
  MeasureJob job;
  if (measureSpawn(argv, NULL, 60, &job))
    measureWaitAll(&job, 1);
}
