/* Unit tests for the quant family's typed builders (checked by FileCheck
 * through builders-quant.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it with the typed builders, prints each result type ("null" for a
 * failed build), verifies the module and prints it
 * (builder_test_support.h). A diagnostic handler prints every diagnostic
 * with its location, so error cases show their message; the op count shows
 * that a failed build inserts nothing. */
#include <stdio.h>

#include "builder_test_support.h"
#include "kiln/graph_quant.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

static const MlirValue kNone = {NULL};

static void testQuantize(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "quantize",
      "%x: tensor<2x6xf32>, %s: tensor<f32>, %z: tensor<i8>, "
      "%sa: tensor<6xf32>, %sb: tensor<2x2xf32>, %q: tensor<2x6xui8>, "
      "%zq: tensor<ui8>, %h: tensor<6xf16>",
      NULL);
  MlirValue x = kilnTestArg(&f, 0), s = kilnTestArg(&f, 1);
  kilnTestShow("per_tensor", kilnGraphBuildQuantizeLinear(
                                 f.b, x, s, kilnTestArg(&f, 2), NULL));
  kilnTestShow("default_ui8",
               kilnGraphBuildQuantizeLinear(f.b, x, s, kNone, NULL));
  KilnGraphQuantizeOptions axis = {.axis = -1, .hasAxis = true};
  kilnTestShow("per_axis", kilnGraphBuildQuantizeLinear(
                               f.b, x, kilnTestArg(&f, 3), kNone, &axis));
  KilnGraphQuantizeOptions blocked = {.blockSize = 4,
                                      .outputDtype =
                                          mlirIntegerTypeGet(ctx, 16),
                                      .noSaturate = true};
  kilnTestShow("blocked_i16", kilnGraphBuildQuantizeLinear(
                                  f.b, x, kilnTestArg(&f, 4), kNone, &blocked));
  kilnTestShow("dequantize",
               kilnGraphBuildDequantizeLinear(f.b, kilnTestArg(&f, 5), s,
                                              kilnTestArg(&f, 6), NULL));
  MlirValue scale, zeroPoint;
  kilnTestShow("dynamic",
               kilnGraphBuildDynamicQuantizeLinear(f.b, x, &scale, &zeroPoint));
  kilnTestShow("dynamic_scale", scale);
  kilnTestShow("dynamic_zero_point", zeroPoint);
  /* Errors: f16 x with an f32 scale; a per-axis scale of the wrong length;
   * an attribute dequantize_linear does not have; an f16 dynamic input. */
  kilnTestShow(
      "negative_scale_type",
      kilnGraphBuildQuantizeLinear(f.b, kilnTestArg(&f, 7), s, kNone, NULL));
  KilnGraphQuantizeOptions axis0 = {.axis = 0, .hasAxis = true};
  kilnTestShow(
      "negative_axis_length",
      kilnGraphBuildQuantizeLinear(f.b, x, kilnTestArg(&f, 3), kNone, &axis0));
  KilnGraphQuantizeOptions saturate = {.noSaturate = true};
  kilnTestShow("negative_dequantize_saturate",
               kilnGraphBuildDequantizeLinear(f.b, kilnTestArg(&f, 5), s, kNone,
                                              &saturate));
  kilnTestShow("negative_dynamic_f16",
               kilnGraphBuildDynamicQuantizeLinear(f.b, kilnTestArg(&f, 7),
                                                   &scale, NULL));
  kilnTestShow("negative_dynamic_scale", scale);
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testMatMul(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "matmul",
      "%a: tensor<3x4x5xui8>, %b: tensor<5x2xi8>, %za: tensor<3x4x1xui8>, "
      "%zb: tensor<2xi8>, %s: tensor<f32>, %zy: tensor<i8>, "
      "%bs: tensor<2xf32>",
      NULL);
  MlirValue a = kilnTestArg(&f, 0), b = kilnTestArg(&f, 1);
  kilnTestShow("matmul_integer",
               kilnGraphBuildMatMulInteger(f.b, a, b, kilnTestArg(&f, 2),
                                           kilnTestArg(&f, 3)));
  kilnTestShow(
      "matmul_integer_b_zero_point",
      kilnGraphBuildMatMulInteger(f.b, a, b, kNone, kilnTestArg(&f, 3)));
  KilnGraphQuantized qa = {a, kilnTestArg(&f, 4), kilnTestArg(&f, 2)};
  KilnGraphQuantized qb = {b, kilnTestArg(&f, 6), kilnTestArg(&f, 3)};
  KilnGraphQuantized qy = {kNone, kilnTestArg(&f, 4), kilnTestArg(&f, 5)};
  /* a's zero point is per row ([3, 4, 1]) but its scale per tensor: the
   * pair must have one shape. */
  kilnTestShow("negative_qlinear_pair",
               kilnGraphBuildQLinearMatMul(f.b, qa, qb, qy));
  kilnTestShow("negative_matmul_integer_swapped",
               kilnGraphBuildMatMulInteger(f.b, b, a, kNone, kNone));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testQLinearMatMul(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "qlinear_matmul",
      "%a: tensor<4x5xui8>, %s: tensor<f32>, %za: tensor<ui8>, "
      "%b: tensor<5x2xi8>, %bs: tensor<2xf32>, %zb: tensor<2xi8>, "
      "%zy: tensor<i8>",
      NULL);
  KilnGraphQuantized qa = {kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                           kilnTestArg(&f, 2)};
  KilnGraphQuantized qb = {kilnTestArg(&f, 3), kilnTestArg(&f, 4),
                           kilnTestArg(&f, 5)};
  KilnGraphQuantized qy = {kNone, kilnTestArg(&f, 1), kilnTestArg(&f, 6)};
  kilnTestShow("per_column_b", kilnGraphBuildQLinearMatMul(f.b, qa, qb, qy));
  KilnGraphQuantized missing = {kNone, kilnTestArg(&f, 1), kNone};
  kilnTestShow("negative_missing_zero_point",
               kilnGraphBuildQLinearMatMul(f.b, qa, qb, missing));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testConv(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "conv",
      "%x: tensor<1x3x8x8xui8>, %w: tensor<4x3x3x3xi8>, %zx: tensor<ui8>, "
      "%zw: tensor<4xi8>, %s: tensor<f32>, %ws: tensor<4xf32>, "
      "%bias: tensor<4xi32>",
      NULL);
  MlirValue x = kilnTestArg(&f, 0), w = kilnTestArg(&f, 1);
  kilnTestShow("conv_integer",
               kilnGraphBuildConvInteger(f.b, x, w, kNone, kNone, NULL));
  int64_t strides[] = {2, 2}, pads[] = {1, 1, 1, 1};
  KilnGraphConvOptions o = {
      .strides = strides, .numStrides = 2, .pads = pads, .numPads = 4};
  kilnTestShow("conv_integer_zero_points",
               kilnGraphBuildConvInteger(f.b, x, w, kilnTestArg(&f, 2),
                                         kilnTestArg(&f, 3), &o));
  KilnGraphQuantized qx = {x, kilnTestArg(&f, 4), kilnTestArg(&f, 2)};
  KilnGraphQuantized qw = {w, kilnTestArg(&f, 5), kilnTestArg(&f, 3)};
  KilnGraphQuantized qy = {kNone, kilnTestArg(&f, 4), kilnTestArg(&f, 2)};
  kilnTestShow("qlinear_conv", kilnGraphBuildQLinearConv(
                                   f.b, qx, qw, qy, kilnTestArg(&f, 6), &o));
  /* conv_transpose's attributes are unknown to the integer convs. */
  int64_t outPad[] = {1, 1};
  KilnGraphConvOptions transposed = {.outputPadding = outPad,
                                     .numOutputPadding = 2};
  kilnTestShow("negative_output_padding",
               kilnGraphBuildConvInteger(f.b, x, w, kNone, kNone, &transposed));
  KilnGraphQuantized badW = {w, kilnTestArg(&f, 4), kilnTestArg(&f, 2)};
  kilnTestShow("negative_w_zero_point_type",
               kilnGraphBuildQLinearConv(f.b, qx, badW, qy, kNone, NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

int main(void) {
  MlirContext ctx = kilnTestContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testQuantize(ctx);
  testMatMul(ctx);
  testQLinearMatMul(ctx);
  testConv(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}
