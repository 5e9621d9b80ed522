/* The model's signature as model-library metadata records:
 *   entry NAME
 *   input <dtype> <rank> <d0> ... <name>
 *   output <dtype> <rank> <d0> ... <name>
 * recorded from the entry function before lowering rewrites it. */
#define _POSIX_C_SOURCE 200809L /* strndup */

#include <stdlib.h>
#include <string.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "runtime/model_abi.h"
#include "support/ir_build.h"

struct KilnModelSignature {
  char *entry;
  KilnStrBuf records;
  intptr_t numInputs, numOutputs;
  int64_t *outputRanks; /* numOutputs */
  int64_t *inputRanks;  /* numInputs */
  int64_t **inputDims;  /* numInputs arrays; -1: dynamic */
  bool dynamic;         /* some input or output dim is dynamic */
};

static MlirAttribute getAttr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

MlirOperation kilnModelFindEntry(MlirOperation module) {
  MlirOperation found = {NULL};
  int numPublic = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!kilnOpNameIs(op, "func.func"))
      continue;
    MlirStringRef name = mlirStringAttrGetValue(getAttr(op, "sym_name"));
    if (kilnStringRefEquals(name, "main_graph"))
      return op;
    if (kilnFuncIsPublicDefinition(op)) {
      found = op;
      ++numPublic;
    }
  }
  return numPublic == 1 ? found : (MlirOperation){NULL};
}

bool kilnModelElementTypeOf(MlirType t, KilnElementType *out) {
  if (mlirTypeIsAF32(t))
    *out = KILN_ELEMENT_TYPE_F32;
  else if (mlirTypeIsAF64(t))
    *out = KILN_ELEMENT_TYPE_F64;
  else if (mlirTypeIsAF16(t))
    *out = KILN_ELEMENT_TYPE_F16;
  else if (mlirTypeIsABF16(t))
    *out = KILN_ELEMENT_TYPE_BF16;
  else if (!mlirTypeIsAInteger(t))
    return false;
  else {
    bool u = mlirIntegerTypeIsUnsigned(t);
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1:
      *out = KILN_ELEMENT_TYPE_BOOL;
      break;
    case 8:
      *out = u ? KILN_ELEMENT_TYPE_U8 : KILN_ELEMENT_TYPE_I8;
      break;
    case 16:
      *out = u ? KILN_ELEMENT_TYPE_U16 : KILN_ELEMENT_TYPE_I16;
      break;
    case 32:
      *out = u ? KILN_ELEMENT_TYPE_U32 : KILN_ELEMENT_TYPE_I32;
      break;
    case 64:
      *out = u ? KILN_ELEMENT_TYPE_U64 : KILN_ELEMENT_TYPE_I64;
      break;
    default:
      return false;
    }
  }
  return true;
}

MlirType kilnModelElementTypeGet(MlirContext ctx, KilnElementType type) {
  switch (type) {
  case KILN_ELEMENT_TYPE_F16:
    return mlirF16TypeGet(ctx);
  case KILN_ELEMENT_TYPE_BF16:
    return mlirBF16TypeGet(ctx);
  case KILN_ELEMENT_TYPE_F32:
    return mlirF32TypeGet(ctx);
  case KILN_ELEMENT_TYPE_F64:
    return mlirF64TypeGet(ctx);
  case KILN_ELEMENT_TYPE_I8:
  case KILN_ELEMENT_TYPE_I16:
  case KILN_ELEMENT_TYPE_I32:
  case KILN_ELEMENT_TYPE_I64:
    return mlirIntegerTypeGet(ctx, 8u << (type - KILN_ELEMENT_TYPE_I8));
  case KILN_ELEMENT_TYPE_U8:
  case KILN_ELEMENT_TYPE_U16:
  case KILN_ELEMENT_TYPE_U32:
  case KILN_ELEMENT_TYPE_U64:
    return mlirIntegerTypeUnsignedGet(ctx, 8u << (type - KILN_ELEMENT_TYPE_U8));
  case KILN_ELEMENT_TYPE_BOOL:
    return mlirIntegerTypeGet(ctx, 1);
  }
  return (MlirType){NULL};
}

/* The ABI's name for an element type, or NULL. */
static const char *dtypeName(MlirType t) {
  KilnElementType e;
  return kilnModelElementTypeOf(t, &e) ? kilnElementTypeGetName(e) : NULL;
}

/* Attribute `key` of entry `i` of `func`'s arg_attrs (or, with `result`,
 * res_attrs); null when absent. */
static MlirAttribute valueAttr(MlirOperation func, bool result, intptr_t i,
                               const char *key) {
  MlirAttribute all = getAttr(func, result ? "res_attrs" : "arg_attrs");
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) ||
      i >= mlirArrayAttrGetNumElements(all))
    return mlirAttributeGetNull();
  MlirAttribute dict = mlirArrayAttrGetElement(all, i);
  if (!mlirAttributeIsADictionary(dict))
    return mlirAttributeGetNull();
  return mlirDictionaryAttrGetElementByName(
      dict, mlirStringRefCreateFromCString(key));
}

/* The onnx.name of argument or result `i`. */
static MlirStringRef onnxName(MlirOperation func, bool result, intptr_t i) {
  MlirAttribute name = valueAttr(func, result, i, "onnx.name");
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name))
    return mlirStringRefCreate(NULL, 0);
  return mlirStringAttrGetValue(name);
}

char *kilnModelValueNameCreate(MlirOperation func, bool result, intptr_t i) {
  MlirStringRef name = onnxName(func, result, i);
  KilnStrBuf b = {0};
  if (name.data)
    kilnStrBufAppend(&b, name.data, name.length);
  else
    kilnStrBufAppendf(&b, "%s%lld", result ? "result" : "arg", (long long)i);
  return b.data ? b.data : kilnStrDup("");
}

/* Appends a name escaped as the ABI says (runtime/model_abi.h). */
static void appendEscaped(KilnStrBuf *b, MlirStringRef s) {
  char *escaped = kilnModelAbiNameEncode(s.data, s.length);
  kilnStrBufAppendf(b, "%s", escaped);
  free(escaped);
}

/* Appends a `dim-name KIND I D NAME` record for each dim of argument or
 * result `i` that the model names (onnx.dim_names, from the ONNX shape's
 * dim_params). */
static void appendDimNames(KilnStrBuf *b, MlirOperation func, const char *kind,
                           intptr_t i, int64_t rank) {
  MlirAttribute names = valueAttr(func, kind[0] != 'i', i, "onnx.dim_names");
  if (mlirAttributeIsNull(names) || !mlirAttributeIsAArray(names) ||
      mlirArrayAttrGetNumElements(names) != rank)
    return;
  for (intptr_t d = 0; d < rank; ++d) {
    MlirAttribute name = mlirArrayAttrGetElement(names, d);
    if (!mlirAttributeIsAString(name) ||
        mlirStringAttrGetValue(name).length == 0)
      continue;
    kilnStrBufAppendf(b, "dim-name %s %lld %lld ", kind, (long long)i,
                      (long long)d);
    appendEscaped(b, mlirStringAttrGetValue(name));
    kilnStrBufAppend(b, "\n", 1);
  }
}

/* Appends one input/output record; false after emitting an error. */
static bool appendRecord(KilnStrBuf *b, MlirOperation func, const char *kind,
                         MlirType type, intptr_t i) {
  char *ownedName = kilnModelValueNameCreate(func, kind[0] != 'i', i);
  MlirStringRef name = mlirStringRefCreateFromCString(ownedName);
  const char *dtype = mlirTypeIsARankedTensor(type)
                          ? dtypeName(mlirShapedTypeGetElementType(type))
                          : NULL;
  bool ok = dtype != NULL;
  if (!ok) {
    KilnStrBuf t = {0};
    kilnStrBufAppendType(&t, type);
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "unsupported: %s '%.*s' has type %s; a model library needs "
                   "ranked tensors of plain element types",
                   kind, (int)name.length, name.data, kilnStrBufGet(&t));
    kilnStrBufDestroy(&t);
  } else {
    int64_t rank = mlirShapedTypeGetRank(type);
    kilnStrBufAppendf(b, "%s %s %lld", kind, dtype, (long long)rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = mlirShapedTypeGetDimSize(type, (intptr_t)d);
      if (mlirShapedTypeIsDynamicSize(size))
        kilnStrBufAppend(b, " ?", 2);
      else
        kilnStrBufAppendf(b, " %lld", (long long)size);
    }
    kilnStrBufAppend(b, " ", 1);
    appendEscaped(b, name);
    kilnStrBufAppend(b, "\n", 1);
    appendDimNames(b, func, kind, i, rank);
  }
  free(ownedName);
  return ok;
}

KilnModelSignature *kilnModelSignatureCreate(MlirModule module) {
  MlirOperation func = kilnModelFindEntry(mlirModuleGetOperation(module));
  if (mlirOperationIsNull(func)) {
    kilnEmitErrorf(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                   "the module has no @main_graph and not exactly one public "
                   "function to compile");
    return NULL;
  }
  MlirStringRef entry = mlirStringAttrGetValue(getAttr(func, "sym_name"));
  MlirType fnType = mlirTypeAttrGetValue(getAttr(func, "function_type"));
  KilnModelSignature *s = calloc(1, sizeof(*s));
  if (!s || !(s->entry = strndup(entry.data, entry.length)))
    abort();
  kilnStrBufAppendf(&s->records, "entry %s\n", s->entry);
  s->numInputs = mlirFunctionTypeGetNumInputs(fnType);
  s->numOutputs = mlirFunctionTypeGetNumResults(fnType);
  s->outputRanks = kilnXCalloc((size_t)s->numOutputs + 1, sizeof(int64_t));
  s->inputRanks = kilnXCalloc((size_t)s->numInputs + 1, sizeof(int64_t));
  s->inputDims = kilnXCalloc((size_t)s->numInputs + 1, sizeof(int64_t *));
  bool ok = true;
  for (intptr_t i = 0; ok && i < mlirFunctionTypeGetNumInputs(fnType); ++i) {
    MlirType type = mlirFunctionTypeGetInput(fnType, i);
    ok = appendRecord(&s->records, func, "input", type, i);
    if (!ok)
      break;
    int64_t rank = s->inputRanks[i] = mlirShapedTypeGetRank(type);
    s->inputDims[i] = kilnXCalloc((size_t)rank + 1, sizeof(int64_t));
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = mlirShapedTypeGetDimSize(type, (intptr_t)d);
      s->inputDims[i][d] = mlirShapedTypeIsDynamicSize(size) ? -1 : size;
    }
  }
  for (intptr_t i = 0; ok && i < mlirFunctionTypeGetNumResults(fnType); ++i) {
    MlirType type = mlirFunctionTypeGetResult(fnType, i);
    ok = appendRecord(&s->records, func, "output", type, i);
    if (ok)
      s->outputRanks[i] = mlirShapedTypeGetRank(type);
  }
  if (!ok) {
    kilnModelSignatureDestroy(s);
    return NULL;
  }
  for (intptr_t i = 0; i < s->numInputs + s->numOutputs; ++i) {
    MlirType t = i < s->numInputs
                     ? mlirFunctionTypeGetInput(fnType, i)
                     : mlirFunctionTypeGetResult(fnType, i - s->numInputs);
    s->dynamic |= !mlirShapedTypeHasStaticShape(t);
  }
  return s;
}

void kilnModelSignatureDestroy(KilnModelSignature *signature) {
  if (!signature)
    return;
  free(signature->entry);
  free(signature->outputRanks);
  for (intptr_t i = 0; signature->inputDims && i < signature->numInputs; ++i)
    free(signature->inputDims[i]);
  free(signature->inputDims);
  free(signature->inputRanks);
  kilnStrBufDestroy(&signature->records);
  free(signature);
}

bool kilnModelSignatureIsDynamic(const KilnModelSignature *signature) {
  return signature->dynamic;
}

const char *kilnModelSignatureGetEntry(const KilnModelSignature *signature) {
  return signature->entry;
}

const char *kilnModelSignatureGetRecords(const KilnModelSignature *signature) {
  return kilnStrBufGet(&signature->records);
}

intptr_t kilnModelSignatureGetNumInputs(const KilnModelSignature *signature) {
  return signature->numInputs;
}

intptr_t kilnModelSignatureGetNumOutputs(const KilnModelSignature *signature) {
  return signature->numOutputs;
}

int64_t kilnModelSignatureGetOutputRank(const KilnModelSignature *signature,
                                        intptr_t i) {
  return signature->outputRanks[i];
}

const int64_t *
kilnModelSignatureGetInputDims(const KilnModelSignature *signature, intptr_t i,
                               int64_t *rank) {
  *rank = signature->inputRanks[i];
  return signature->inputDims[i];
}
