/* A growable list of operations, shared by Kiln's passes.
 *
 * Passes collect ops in a walk and rewrite them afterwards (a walk must not
 * see ops it has freed), or keep worklists of ops to visit. The list holds
 * borrowed handles: it never creates nor destroys the operations. */
#ifndef KILN_SUPPORT_OP_LIST_H
#define KILN_SUPPORT_OP_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/// A growable array of borrowed operation handles, `data[0..len)`.
/// Zero-initialize to start; release with kilnOpListDestroy.
typedef struct KilnOpList {
  MlirOperation *data;
  size_t len;
  size_t cap;
} KilnOpList;

/// Appends `op`. Aborts on allocation failure (out of memory is not a user
/// error Kiln can report meaningfully).
void kilnOpListPush(KilnOpList *list, MlirOperation op);
/// Whether `op` is in the list (a linear search).
bool kilnOpListContains(const KilnOpList *list, MlirOperation op);
/// Empties the list and keeps its storage for reuse.
void kilnOpListClear(KilnOpList *list);
/// Appends every op named `name` ("linalg.generic") under `root`, `root`
/// included, in the walk order `order` (MlirWalkPostOrder: nested ops
/// before the ops around them).
void kilnOpListCollectNamed(KilnOpList *list, MlirOperation root,
                            const char *name, MlirWalkOrder order);
/// Appends the op owning each use of `value`, in use-list order (an op
/// using it twice is appended twice): rewrite a value's users after
/// collecting them, since changing an operand edits the use list.
void kilnOpListCollectUsers(KilnOpList *list, MlirValue value);
/// Frees the storage (not the operations); the list is then empty and may
/// be used again. Destroying a zero-initialized list is a no-op.
void kilnOpListDestroy(KilnOpList *list);

#endif
