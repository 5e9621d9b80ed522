/* Schedule records in locations (schedule_record.h).
 *
 * The fused location's metadata is `{kiln.schedule = RECORD}`, so a record
 * is told apart from any other metadata a location may carry, and a dump
 * of the IR (`--mlir-print-debuginfo`) names it. */
#include "support/schedule_record.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"

static const char kMetadataKey[] = "kiln.schedule";

/* Fused locations nest at most this deep in what Kiln builds; deeper ones
 * (hand-written IR) are not searched. */
enum { kMaxDepth = 32 };

static MlirAttribute recordOfMetadata(MlirAttribute metadata) {
  if (mlirAttributeIsNull(metadata) || !mlirAttributeIsADictionary(metadata))
    return (MlirAttribute){NULL};
  MlirAttribute record = mlirDictionaryAttrGetElementByName(
      metadata, mlirStringRefCreateFromCString(kMetadataKey));
  if (mlirAttributeIsNull(record) || !mlirAttributeIsADictionary(record))
    return (MlirAttribute){NULL};
  return record;
}

/* The parts of a fused location (malloc'd, *n of them). */
static MlirLocation *fusedParts(MlirLocation loc, unsigned *n) {
  *n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *parts = malloc((*n + 1) * sizeof(*parts));
  if (!parts)
    abort();
  mlirLocationFusedGetLocations(loc, parts);
  return parts;
}

static MlirAttribute findRecord(MlirLocation loc, int depth) {
  if (depth > kMaxDepth || mlirLocationIsNull(loc))
    return (MlirAttribute){NULL};
  if (mlirLocationIsAName(loc))
    return findRecord(mlirLocationNameGetChildLoc(loc), depth + 1);
  if (!mlirLocationIsAFused(loc))
    return (MlirAttribute){NULL};
  MlirAttribute record = recordOfMetadata(mlirLocationFusedGetMetadata(loc));
  if (!mlirAttributeIsNull(record))
    return record;
  unsigned n;
  MlirLocation *parts = fusedParts(loc, &n);
  for (unsigned i = 0; i < n && mlirAttributeIsNull(record); ++i)
    record = findRecord(parts[i], depth + 1);
  free(parts);
  return record;
}

MlirAttribute kilnScheduleRecordGetFromLocation(MlirLocation loc) {
  return findRecord(loc, 0);
}

MlirLocation kilnScheduleRecordAttach(MlirLocation loc, MlirAttribute record) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute entry = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(kMetadataKey)),
      record);
  MlirAttribute metadata = mlirDictionaryAttrGet(ctx, 1, &entry);
  if (mlirLocationIsAFused(loc) && !mlirAttributeIsNull(recordOfMetadata(
                                       mlirLocationFusedGetMetadata(loc)))) {
    unsigned n;
    MlirLocation *parts = fusedParts(loc, &n);
    MlirLocation fused = mlirLocationFusedGet(ctx, n, parts, metadata);
    free(parts);
    return fused;
  }
  return mlirLocationFusedGet(ctx, 1, &loc, metadata);
}

static int findOption(const KilnPassInfo *pass, MlirStringRef name) {
  for (int i = 0; i < pass->numOptions; ++i)
    if (kilnStringRefEquals(name, pass->options[i].name))
      return i;
  return -1;
}

bool kilnScheduleRecordGetOptions(MlirOperation op, const KilnPassInfo *pass,
                                  const KilnPassOptionValue *given,
                                  KilnPassOptionValue *out) {
  memcpy(out, given, (size_t)pass->numOptions * sizeof(*out));
  MlirAttribute record =
      kilnScheduleRecordGetFromLocation(mlirOperationGetLocation(op));
  if (mlirAttributeIsNull(record))
    return false;
  MlirAttribute values = mlirDictionaryAttrGetElementByName(
      record, mlirStringRefCreateFromCString(pass->argument));
  if (mlirAttributeIsNull(values) || !mlirAttributeIsADictionary(values))
    return false;
  bool any = false;
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(values); ++i) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(values, i);
    int k = findOption(pass, mlirIdentifierStr(e.name));
    if (k < 0)
      continue;
    if (pass->options[k].kind == KILN_PASS_OPTION_INT &&
        mlirAttributeIsAInteger(e.attribute)) {
      out[k].i = mlirIntegerAttrGetValueInt(e.attribute);
      any = true;
    } else if (pass->options[k].kind == KILN_PASS_OPTION_BOOL &&
               mlirAttributeIsABool(e.attribute)) {
      out[k].b = mlirBoolAttrGetValue(e.attribute);
      any = true;
    }
  }
  return any;
}

bool kilnScheduleRecordGetInt(MlirLocation loc, const char *pass,
                              const char *option, int64_t *value) {
  MlirAttribute record = kilnScheduleRecordGetFromLocation(loc);
  if (mlirAttributeIsNull(record))
    return false;
  MlirAttribute values = mlirDictionaryAttrGetElementByName(
      record, mlirStringRefCreateFromCString(pass));
  if (mlirAttributeIsNull(values) || !mlirAttributeIsADictionary(values))
    return false;
  MlirAttribute v = mlirDictionaryAttrGetElementByName(
      values, mlirStringRefCreateFromCString(option));
  if (mlirAttributeIsNull(v) || !mlirAttributeIsAInteger(v))
    return false;
  *value = mlirIntegerAttrGetValueInt(v);
  return true;
}
