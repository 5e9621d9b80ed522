/* Pieces the control-flow importer's files share (control_flow.h): small
 * builders for the arith, tensor and scf ops around the imported
 * subgraphs, attribute readers and the loop-body importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_CONTROL_FLOW_INTERNAL_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_CONTROL_FLOW_INTERNAL_H

#include "conversions/onnx-to-graph/control_flow.h"

/// The highest rank the control-flow glue handles; checked before any
/// value reaches the builders below.
enum { KILN_ONNX_CF_MAX_RANK = 64 };

/* ---- IR builders (control_flow_ir.c); each appends to `block` --------- */

/// Appends op `name` with the given operands, result types, attributes and
/// (owned) regions; returns it.
MlirOperation kilnOnnxCfCreate(MlirBlock block, MlirLocation loc,
                               const char *name, const MlirValue *operands,
                               intptr_t numOperands, const MlirType *results,
                               intptr_t numResults,
                               const MlirNamedAttribute *attrs,
                               intptr_t numAttrs, MlirRegion *regions,
                               intptr_t numRegions);
/// arith.constant of `type` (index or an integer type) with value `v`.
MlirValue kilnOnnxCfIntConst(MlirBlock block, MlirLocation loc, MlirType type,
                             int64_t v);
/// arith.constant of index type.
MlirValue kilnOnnxCfIndex(MlirBlock block, MlirLocation loc, int64_t v);
/// arith.<op> (addi, subi, andi, maxsi) of two values of one type.
MlirValue kilnOnnxCfBinary(MlirBlock block, MlirLocation loc, const char *op,
                           MlirValue a, MlirValue b);
/// arith.cmpi slt: a < b (signed), an i1.
MlirValue kilnOnnxCfLessThan(MlirBlock block, MlirLocation loc, MlirValue a,
                             MlirValue b);
/// arith.index_cast of `v` to `type`.
MlirValue kilnOnnxCfIndexCast(MlirBlock block, MlirLocation loc, MlirValue v,
                              MlirType type);
/// tensor.extract of the first element of `t` (all indices 0).
MlirValue kilnOnnxCfExtractFirst(MlirBlock block, MlirLocation loc,
                                 MlirValue t);
/// tensor.from_elements: a rank-0 tensor holding scalar `v`.
MlirValue kilnOnnxCfScalarTensor(MlirBlock block, MlirLocation loc,
                                 MlirValue v);
/// tensor.empty of `type`, dynamic dims sized by `dynSizes` (index).
MlirValue kilnOnnxCfEmpty(MlirBlock block, MlirLocation loc, MlirType type,
                          const MlirValue *dynSizes, intptr_t numDynSizes);
/// tensor.cast of `v` to `type` (`v` itself when it has that type).
MlirValue kilnOnnxCfCast(MlirBlock block, MlirLocation loc, MlirValue v,
                         MlirType type);
/// tensor.insert_slice of `src` (static shape, rank r) into `dest` (rank
/// r + 1) as the slice at index `offset` (index) along `axis`.
MlirValue kilnOnnxCfInsertAt(MlirBlock block, MlirLocation loc, MlirValue src,
                             MlirValue dest, intptr_t axis, MlirValue offset);
/// tensor.extract_slice of the slice at index `offset` (index) along `axis`
/// of `src` (static shape), rank-reduced: the axis is dropped.
MlirValue kilnOnnxCfExtractAt(MlirBlock block, MlirLocation loc, MlirValue src,
                              intptr_t axis, MlirValue offset);
/// tensor.extract_slice of the first `count` (index) entries along axis 0
/// of `src` (static shape but for dim 0); the result's dim 0 is dynamic.
MlirValue kilnOnnxCfTakeLeading(MlirBlock block, MlirLocation loc,
                                MlirValue src, MlirValue count);
/// Appends a terminator `name` (scf.yield) of `values`.
void kilnOnnxCfTerminate(MlirBlock block, MlirLocation loc, const char *name,
                         const MlirValue *values, intptr_t n);
/// `type` with a dimension of size `size` inserted at `axis`.
MlirType kilnOnnxCfInsertDim(MlirType type, intptr_t axis, int64_t size);
/// `type` with dimension `axis` dropped.
MlirType kilnOnnxCfDropDim(MlirType type, intptr_t axis);
/// Joins two tensor types of one element type and rank: dims that differ
/// become dynamic. A null type if they differ in element type or rank.
MlirType kilnOnnxCfJoinTypes(MlirType a, MlirType b);

/* ---- node attributes (control_flow.c) -------------------------------- */

/// The attribute of `n` named `name`, or NULL.
const Onnx__AttributeProto *kilnOnnxCfAttr(const Onnx__NodeProto *n,
                                           const char *name);
/// Checks that every attribute of `n` is one of the NULL-terminated
/// `known`; false after an error at `loc`.
bool kilnOnnxCfCheckAttrs(const Onnx__NodeProto *n, const char *const *known,
                          MlirLocation loc);
/// The GRAPH attribute `name` of `n`; NULL after an error at `loc`.
const Onnx__GraphProto *kilnOnnxCfGraphAttr(const Onnx__NodeProto *n,
                                            const char *name, MlirLocation loc);
/// The value of `v` if a graph.constant defines it with one integer or
/// bool element; false otherwise.
bool kilnOnnxCfConstInt(MlirValue v, int64_t *out);
/// Checks that `v` is a tensor of one element (rank 0, or dims 1; a
/// dynamic dim is trusted to be 1) of an integer type of `width` bits (1:
/// bool). `what` names it in the error; false after an error at `loc`.
bool kilnOnnxCfCheckScalar(MlirValue v, unsigned width, const char *what,
                           MlirLocation loc);
/// Checks the type subgraph input `vi` declares against `actual`, the type
/// Kiln binds it to: a non-tensor type (sequence, optional, map) is
/// unsupported; a declared element type, rank or static dim must agree. A
/// missing type or shape is taken from `actual`. False after an error.
bool kilnOnnxCfCheckInput(MlirContext ctx, const Onnx__ValueInfoProto *vi,
                          MlirType actual, const char *opType,
                          MlirLocation loc);

/// Imports `g` through cf->importSubgraph, then casts each output whose
/// declared shape has static dims that inference left dynamic to the
/// declared type (ONNX declarations are facts about the model).
bool kilnOnnxCfImportSubgraph(const KilnOnnxControlFlow *cf,
                              const Onnx__GraphProto *g, MlirBlock block,
                              const MlirValue *inputs, MlirValue *outputs,
                              MlirLocation loc);

/* ---- loop bodies (control_flow.c) ------------------------------------ */

/// Sets up a loop body's block before its subgraph is imported: appends
/// ops to `block` and fills the subgraph inputs that are not loop-carried.
typedef void (*KilnOnnxCfPrepareFn)(void *data, MlirBlock block,
                                    MlirValue *subgraphInputs);

/// How a loop body (Loop's or Scan's) is laid out: block arguments are
/// `numLead` of `leadTypes`, then the loop-carried values; the subgraph's
/// carried inputs start at `carriedIn`, its carried outputs at
/// `carriedOut`.
typedef struct KilnOnnxCfBody {
  const Onnx__GraphProto *graph;
  const char *opType;
  MlirLocation loc;
  const MlirType *leadTypes;
  intptr_t numLead;
  intptr_t carriedIn, carriedOut, numCarried;
  KilnOnnxCfPrepareFn prepare;
  void *prepareData;
} KilnOnnxCfBody;

/// Imports a loop body into a new block. `carried` holds the types of the
/// loop-carried values (the initial values' types) and may be relaxed: a
/// value whose body output differs from its input only in static dims gets
/// those dims dynamic and the body is imported again (ONNX lets a carried
/// value change shape between iterations). Stores the subgraph outputs in
/// `outputs` (graph->n_output slots), the carried ones cast to `carried`.
/// Returns the block (not yet in a region), or a null block after errors.
MlirBlock kilnOnnxCfImportBody(const KilnOnnxControlFlow *cf,
                               const KilnOnnxCfBody *body, MlirType *carried,
                               MlirValue *outputs);

/* ---- the ops (control_flow_loop.c, control_flow_scan.c) --------------- */

bool kilnOnnxCfBuildLoop(const KilnOnnxControlFlow *cf,
                         const Onnx__NodeProto *n, MlirLocation loc,
                         const MlirValue *operands, MlirValue *results);
bool kilnOnnxCfBuildScan(const KilnOnnxControlFlow *cf,
                         const Onnx__NodeProto *n, MlirLocation loc,
                         const MlirValue *operands, MlirValue *results);

#endif
