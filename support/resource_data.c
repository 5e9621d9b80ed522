/* The registry of resource attribute buffers: an open-addressing hash
 * table keyed by the attribute's storage pointer (unique per context and
 * stable while the context lives), guarded by one mutex. Entries leave
 * when their buffer is freed, so a later attribute reusing the storage
 * address of a destroyed context's never finds a stale buffer. */
#include "support/resource_data.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct Entry {
  const void *attr; /* NULL: empty; &kTombstone: removed */
  const void *data;
  size_t size;
  size_t align;               /* kilnResourceDataSetAlignment's, 0 if none */
  size_t rowBytes, usedBytes; /* kilnResourceDataSetRankRows', 0 if none */
} Entry;

static const char kTombstone;
static pthread_mutex_t gLock = PTHREAD_MUTEX_INITIALIZER;
static Entry *gTable;
static size_t gCapacity, gUsed; /* gUsed counts tombstones too */

static size_t slotOf(const void *attr) {
  uintptr_t h = (uintptr_t)attr >> 4;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 29)) & (gCapacity - 1);
}

/* The slot of `attr`, or the empty slot where it would go. */
static Entry *find(const void *attr) {
  Entry *reuse = NULL;
  for (size_t i = slotOf(attr);; i = (i + 1) & (gCapacity - 1)) {
    Entry *e = &gTable[i];
    if (e->attr == attr)
      return e;
    if (e->attr == &kTombstone && !reuse)
      reuse = e;
    if (!e->attr)
      return reuse ? reuse : e;
  }
}

static void grow(void) {
  Entry *old = gTable;
  size_t oldCapacity = gCapacity;
  gCapacity = gCapacity ? gCapacity * 2 : 256;
  gTable = calloc(gCapacity, sizeof(Entry));
  if (!gTable)
    abort();
  gUsed = 0;
  for (size_t i = 0; i < oldCapacity; ++i)
    if (old[i].attr && old[i].attr != &kTombstone) {
      *find(old[i].attr) = old[i];
      ++gUsed;
    }
  free(old);
}

void kilnResourceDataRegister(MlirAttribute attr, const void *data,
                              size_t size) {
  pthread_mutex_lock(&gLock);
  if (4 * (gUsed + 1) > 3 * gCapacity)
    grow();
  Entry *e = find(attr.ptr);
  if (!e->attr)
    ++gUsed;
  *e = (Entry){.attr = attr.ptr, .data = data, .size = size};
  pthread_mutex_unlock(&gLock);
}

/* The entry of registered attribute `attr`, NULL if none; locks gLock
 * either way (the caller unlocks). */
static Entry *lockEntry(MlirAttribute attr) {
  pthread_mutex_lock(&gLock);
  Entry *e = gCapacity ? find(attr.ptr) : NULL;
  return e && e->attr == attr.ptr ? e : NULL;
}

const void *kilnResourceDataLookup(MlirAttribute attr, size_t *size) {
  const void *data = NULL;
  Entry *e = lockEntry(attr);
  if (e) {
    data = e->data;
    *size = e->size;
  }
  pthread_mutex_unlock(&gLock);
  return data;
}

void kilnResourceDataSetAlignment(MlirAttribute attr, size_t align) {
  Entry *e = lockEntry(attr);
  if (e)
    e->align = align;
  pthread_mutex_unlock(&gLock);
}

size_t kilnResourceDataGetAlignment(MlirAttribute attr) {
  Entry *e = lockEntry(attr);
  size_t align = e ? e->align : 0;
  pthread_mutex_unlock(&gLock);
  return align;
}

void kilnResourceDataSetRankRows(MlirAttribute attr, size_t rowBytes,
                                 size_t usedBytes) {
  Entry *e = lockEntry(attr);
  if (e) {
    e->rowBytes = rowBytes;
    e->usedBytes = usedBytes;
  }
  pthread_mutex_unlock(&gLock);
}

bool kilnResourceDataGetRankRows(MlirAttribute attr, size_t *rowBytes,
                                 size_t *usedBytes) {
  Entry *e = lockEntry(attr);
  *rowBytes = e ? e->rowBytes : 0;
  *usedBytes = e ? e->usedBytes : 0;
  pthread_mutex_unlock(&gLock);
  return *rowBytes != 0;
}

void kilnResourceDataForget(const void *data) {
  pthread_mutex_lock(&gLock);
  /* A buffer has one or two entries (the attribute and its flat alias);
   * contexts are destroyed rarely, so a scan is cheap enough. */
  for (size_t i = 0; i < gCapacity; ++i)
    if (gTable[i].attr && gTable[i].attr != &kTombstone &&
        gTable[i].data == data)
      gTable[i].attr = &kTombstone;
  pthread_mutex_unlock(&gLock);
}
