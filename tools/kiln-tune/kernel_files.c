/* A workload's kernel and its inputs as files (kernel_files.h). */
#include "tools/kiln-tune/kernel_files.h"

#include <stdio.h>
#include <stdlib.h>

#include "kiln/kiln_runtime.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "tools/kiln-tune/measure.h"

static void printCallback(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, userData);
}

/* Writes `module` as text to `path`; false on a write error. */
bool kernelWriteModule(MlirModule module, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  mlirOperationPrint(mlirModuleGetOperation(module), printCallback, f);
  return fclose(f) == 0;
}

static bool elementType(MlirType t, KilnElementType *out) {
  if (mlirTypeIsAF32(t))
    *out = KILN_ELEMENT_TYPE_F32;
  else if (mlirTypeIsAF64(t))
    *out = KILN_ELEMENT_TYPE_F64;
  else if (mlirTypeIsAF16(t))
    *out = KILN_ELEMENT_TYPE_F16;
  else if (mlirTypeIsABF16(t))
    *out = KILN_ELEMENT_TYPE_BF16;
  else if (mlirIntegerTypeIsSignless(t) && mlirIntegerTypeGetWidth(t) == 1)
    *out = KILN_ELEMENT_TYPE_BOOL;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64)
    *out = KILN_ELEMENT_TYPE_I64;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 32)
    *out = KILN_ELEMENT_TYPE_I32;
  else
    return false;
  return true;
}

/* Writes the kernel's inputs as DIR/inK.npy: floats uniform in [-1, 1)
 * from a fixed seed (the same inputs for every candidate), other types
 * zero (indices stay in range). Returns how many, -1 on failure. */
int kernelWriteInputs(MlirModule kernel, const char *dir) {
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(kernel));
  MlirType fnType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type")));
  int n = (int)mlirFunctionTypeGetNumInputs(fnType);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < n; ++i) {
    MlirType t = mlirFunctionTypeGetInput(fnType, i);
    KilnElementType e;
    if (!mlirTypeIsARankedTensor(t) ||
        !elementType(mlirShapedTypeGetElementType(t), &e))
      return -1;
    int64_t rank = mlirShapedTypeGetRank(t), dims[16];
    if (rank > 16)
      return -1;
    for (int64_t d = 0; d < rank; ++d)
      dims[d] = mlirShapedTypeGetDimSize(t, d);
    KilnTensor *tensor;
    KilnStatus *s = kilnTensorCreate(e, rank, dims, &tensor);
    if (s) {
      kilnStatusDestroy(s);
      return -1;
    }
    if (e == KILN_ELEMENT_TYPE_F32) {
      float *p = kilnTensorGetData(tensor);
      for (int64_t k = 0; k < kilnTensorGetElementCount(tensor); ++k) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        p[k] = (float)((double)(state >> 40) / (double)(1ull << 24) * 2 - 1);
      }
    }
    char *path = measurePath("%s/in%d.npy", dir, i);
    s = kilnTensorWriteNpyFile(tensor, path);
    free(path);
    kilnTensorDestroy(tensor);
    if (s) {
      kilnStatusDestroy(s);
      return -1;
    }
  }
  return n;
}
