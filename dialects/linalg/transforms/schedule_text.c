#include "dialects/linalg/transforms/schedule_text.h"

int kilnScheduleFresh(KilnScheduleText *t) { return t->next++; }

int kilnScheduleIndex(KilnScheduleText *t, int64_t v) {
  int n = kilnScheduleFresh(t);
  kilnStrBufAppendf(t->buf, "%%v%d = arith.constant %lld : index\n", n,
                    (long long)v);
  return n;
}

int kilnScheduleBinop(KilnScheduleText *t, const char *op, int a, int b) {
  int n = kilnScheduleFresh(t);
  kilnStrBufAppendf(t->buf, "%%v%d = arith.%s %%v%d, %%v%d : index\n", n, op, a,
                    b);
  return n;
}

int kilnScheduleBinopConst(KilnScheduleText *t, const char *op, int a,
                           int64_t v) {
  return kilnScheduleBinop(t, op, a, kilnScheduleIndex(t, v));
}

void kilnScheduleAppendIndexed(KilnScheduleText *t, const char *prefix,
                               const char *name, const int *idx, intptr_t rank,
                               MlirType type) {
  kilnStrBufAppendf(t->buf, "%s%%%s[", prefix, name);
  for (intptr_t i = 0; i < rank; ++i)
    kilnStrBufAppendf(t->buf, "%s%%v%d", i ? ", " : "", idx[i]);
  kilnStrBufAppend(t->buf, "] : ", 4);
  kilnStrBufAppendType(t->buf, type);
  kilnStrBufAppend(t->buf, "\n", 1);
}
