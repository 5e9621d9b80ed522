/* Type inference for graph.einsum (ONNX Einsum-12; see
 * ops_reduction_internal.h).
 *
 * The equation is parsed in full: input terms separated by ',', an optional
 * explicit output after "->", subscripts a-z and A-Z, at most one "..." per
 * term, spaces ignored. The shape rules are numpy.einsum's, which ONNX's
 * reference implementation calls:
 * - a term without "..." has one subscript per dim of its operand; "..."
 *   stands for the dims its subscripts leave over;
 * - a subscript repeated within one term takes a diagonal: its dims must be
 *   equal;
 * - across operands a subscript's dims must agree or be 1 (broadcast), and
 *   the dims under "..." broadcast numpy-style, right-aligned;
 * - the implicit output is the "..." dims followed by the subscripts that
 *   occur exactly once, in ASCII order (upper case first);
 * - an explicit output names each subscript at most once, only subscripts of
 *   the inputs, and must contain "..." when the inputs' "..." covers dims.
 * Kiln's einsum takes one or two operands (docs/graph-dialect.md). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/ops_reduction_internal.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

/* Subscripts a-z and A-Z, numbered in ASCII order (A-Z first). */
enum { NUM_LABELS = 52, MAX_TERMS = 2 };

/* One term: its subscripts in order, with the ellipsis position. */
typedef struct Term {
  int numLabels;
  int8_t labels[KILN_MAX_RANK];
  int ellipsis;     /* index into labels where "..." sits, -1: none */
  const char *text; /* the term, without spaces, and its length */
  int len;
} Term;

/* The parsed equation (spaces removed into `text`, owned). */
typedef struct Equation {
  char *text;
  int numInputs;
  Term inputs[MAX_TERMS];
  bool hasOutput;
  Term output;
} Equation;

static int labelIndex(char ch) {
  if (ch >= 'A' && ch <= 'Z')
    return ch - 'A';
  if (ch >= 'a' && ch <= 'z')
    return 26 + (ch - 'a');
  return -1;
}

static char labelChar(int label) {
  return (char)(label < 26 ? 'A' + label : 'a' + (label - 26));
}

/* Parses the term text[0..len) into *t. */
static MlirLogicalResult parseTerm(const KilnInferContext *c, const char *text,
                                   int len, Term *t) {
  *t = (Term){0, {0}, -1, text, len};
  for (int i = 0; i < len; ++i) {
    if (text[i] == '.') {
      if (i + 2 >= len || text[i + 1] != '.' || text[i + 2] != '.')
        return kilnInferError(c,
                              "equation term '%.*s': '.' must be part of "
                              "an ellipsis '...'",
                              len, text);
      if (t->ellipsis >= 0)
        return kilnInferError(c,
                              "equation term '%.*s' has more than one "
                              "ellipsis '...'",
                              len, text);
      t->ellipsis = t->numLabels;
      i += 2;
      continue;
    }
    int label = labelIndex(text[i]);
    if (label < 0)
      return kilnInferError(c,
                            "equation term '%.*s' has the invalid character "
                            "'%c' (subscripts are letters a-z, A-Z)",
                            len, text, text[i]);
    if (t->numLabels == KILN_MAX_RANK)
      return kilnInferError(c,
                            "equation term '%.*s' has more than %d "
                            "subscripts",
                            len, text, KILN_MAX_RANK);
    t->labels[t->numLabels++] = (int8_t)label;
  }
  return mlirLogicalResultSuccess();
}

/* Splits the equation (spaces already removed) into terms. */
static MlirLogicalResult parseTerms(const KilnInferContext *c, Equation *eq) {
  char *text = eq->text;
  char *arrow = strstr(text, "->");
  int lhsLen = arrow ? (int)(arrow - text) : (int)strlen(text);
  if (arrow) {
    const char *out = arrow + 2;
    if (strstr(out, "->") || strchr(out, ','))
      return kilnInferError(c,
                            "equation \"%s\": the output term after '->' "
                            "may not contain ',' or another '->'",
                            text);
    eq->hasOutput = true;
    if (mlirLogicalResultIsFailure(
            parseTerm(c, out, (int)strlen(out), &eq->output)))
      return mlirLogicalResultFailure();
  }
  int start = 0;
  for (int i = 0; i <= lhsLen; ++i) {
    if (i < lhsLen && text[i] != ',')
      continue;
    if (eq->numInputs == MAX_TERMS)
      return kilnInferError(c,
                            "equation \"%s\" has more than %d input terms; "
                            "Kiln's einsum takes one or two operands",
                            text, MAX_TERMS);
    if (mlirLogicalResultIsFailure(parseTerm(c, text + start, i - start,
                                             &eq->inputs[eq->numInputs++])))
      return mlirLogicalResultFailure();
    start = i + 1;
  }
  return mlirLogicalResultSuccess();
}

/* Copies the equation attribute without spaces into eq->text (a
 * NUL-terminated copy, released by the caller) and parses it. */
static MlirLogicalResult parseEquation(const KilnInferContext *c,
                                       Equation *eq) {
  MlirStringRef s = kilnInferAttrString(c, "equation", "");
  eq->text = malloc(s.length + 1);
  if (!eq->text)
    abort();
  size_t n = 0;
  for (size_t i = 0; i < s.length; ++i) {
    if (s.data[i] == '\0')
      return kilnInferError(c, "equation contains a NUL character");
    if (s.data[i] != ' ')
      eq->text[n++] = s.data[i];
  }
  eq->text[n] = '\0';
  return parseTerms(c, eq);
}

/* What the operands say about each subscript and about the "..." dims. */
typedef struct Dims {
  int64_t label[NUM_LABELS]; /* valid where has[] */
  bool has[NUM_LABELS];      /* seen in an earlier operand */
  int count[NUM_LABELS];     /* occurrences in all input terms */
  int64_t ellipsis[KILN_MAX_RANK];
  intptr_t ellipsisRank;
} Dims;

/* Broadcasts two dims that passed the compatibility check. */
static int64_t broadcast(int64_t x, int64_t y) {
  if (!kilnRedIsDyn(x) && x != 1)
    return x;
  if (!kilnRedIsDyn(y) && y != 1)
    return y;
  return kilnRedIsDyn(x) ? x : y;
}

static bool broadcastable(int64_t x, int64_t y) {
  return !kilnRedStaticMismatch(x, y) || x == 1 || y == 1;
}

/* Broadcasts operand k's "..." dims, t[from, from + n), into d->ellipsis. */
static MlirLogicalResult addEllipsis(const KilnInferContext *c, MlirType t,
                                     intptr_t from, intptr_t n, Dims *d) {
  intptr_t r = n > d->ellipsisRank ? n : d->ellipsisRank;
  int64_t merged[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    intptr_t io = i - (r - d->ellipsisRank), in = i - (r - n);
    int64_t old = io >= 0 ? d->ellipsis[io] : 1;
    int64_t dim = in >= 0 ? kilnRedDim(t, from + in) : 1;
    if (!broadcastable(old, dim))
      return kilnInferError(c,
                            "the dims under '...' do not broadcast: %ld vs "
                            "%ld (dim %ld of the broadcast '...')",
                            (long)old, (long)dim, (long)i);
    merged[i] = broadcast(old, dim);
  }
  memcpy(d->ellipsis, merged, sizeof(int64_t) * (size_t)r);
  d->ellipsisRank = r;
  return mlirLogicalResultSuccess();
}

/* Checks operand k (type t) against its term: subscript count, diagonal
 * dims, and the subscripts' and "..." dims against the other operand. */
static MlirLogicalResult addOperand(const KilnInferContext *c, intptr_t k,
                                    MlirType t, const Term *term, Dims *d) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  intptr_t ell = rank - term->numLabels;
  if (term->ellipsis < 0 ? ell != 0 : ell < 0)
    return kilnInferError(c,
                          "equation term '%.*s' has %d subscripts%s but "
                          "operand '%s' has rank %ld",
                          term->len, term->text, term->numLabels,
                          term->ellipsis < 0 ? "" : " besides '...'",
                          kilnRedOperandName(c, k), (long)rank);
  int64_t own[NUM_LABELS];
  bool seen[NUM_LABELS] = {false};
  for (int i = 0; i < term->numLabels; ++i) {
    int l = term->labels[i];
    /* Dims before the ellipsis map 1:1; after it, shifted by its size. */
    intptr_t dimIndex =
        term->ellipsis >= 0 && i >= term->ellipsis ? i + ell : i;
    int64_t dim = kilnRedDim(t, dimIndex);
    ++d->count[l];
    if (seen[l] && kilnRedStaticMismatch(own[l], dim))
      return kilnInferError(c,
                            "subscript '%c' repeats in term '%.*s' (a "
                            "diagonal) over dims of different sizes, %ld "
                            "and %ld",
                            labelChar(l), term->len, term->text, (long)own[l],
                            (long)dim);
    own[l] = seen[l] ? kilnRedMergeDim(own[l], dim) : dim;
    seen[l] = true;
  }
  for (int l = 0; l < NUM_LABELS; ++l) {
    if (!seen[l])
      continue;
    if (d->has[l] && !broadcastable(d->label[l], own[l]))
      return kilnInferError(c,
                            "subscript '%c' has size %ld in operand '%s' "
                            "but %ld in an earlier operand",
                            labelChar(l), (long)own[l],
                            kilnRedOperandName(c, k), (long)d->label[l]);
    d->label[l] = d->has[l] ? broadcast(d->label[l], own[l]) : own[l];
    d->has[l] = true;
  }
  if (term->ellipsis < 0)
    return mlirLogicalResultSuccess();
  return addEllipsis(c, t, term->ellipsis, ell, d);
}

/* The implicit output: the "..." dims, then the subscripts used once. */
static MlirLogicalResult implicitOutput(const KilnInferContext *c,
                                        const Dims *d, int64_t *shape,
                                        intptr_t *rank) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < d->ellipsisRank; ++i)
    shape[n++] = d->ellipsis[i];
  for (int l = 0; l < NUM_LABELS; ++l) {
    if (d->count[l] != 1)
      continue;
    if (n == KILN_MAX_RANK)
      return kilnInferError(c, "the result rank is above Kiln's limit of %d",
                            KILN_MAX_RANK);
    shape[n++] = d->label[l];
  }
  *rank = n;
  return mlirLogicalResultSuccess();
}

/* The explicit output term's shape; fails on unknown or repeated
 * subscripts and on dropped "..." dims. */
static MlirLogicalResult explicitOutput(const KilnInferContext *c,
                                        const Term *out, const Dims *d,
                                        int64_t *shape, intptr_t *rank) {
  bool used[NUM_LABELS] = {false};
  if (out->ellipsis < 0 && d->ellipsisRank > 0)
    return kilnInferError(c,
                          "the inputs' '...' covers %ld dim%s but the output "
                          "term '%.*s' has no '...'",
                          (long)d->ellipsisRank,
                          d->ellipsisRank == 1 ? "" : "s", out->len, out->text);
  if (out->numLabels + (out->ellipsis >= 0 ? d->ellipsisRank : 0) >
      KILN_MAX_RANK)
    return kilnInferError(c, "the result rank is above Kiln's limit of %d",
                          KILN_MAX_RANK);
  intptr_t n = 0;
  for (int i = 0; i <= out->numLabels; ++i) {
    if (i == out->ellipsis)
      for (intptr_t e = 0; e < d->ellipsisRank; ++e)
        shape[n++] = d->ellipsis[e];
    if (i == out->numLabels)
      break;
    int l = out->labels[i];
    if (d->count[l] == 0)
      return kilnInferError(c,
                            "output subscript '%c' does not occur in an "
                            "input term",
                            labelChar(l));
    if (used[l])
      return kilnInferError(c, "output subscript '%c' occurs more than once",
                            labelChar(l));
    used[l] = true;
    shape[n++] = d->label[l];
  }
  *rank = n;
  return mlirLogicalResultSuccess();
}

/* Einsum-12's T: every integer width and f16, f32, f64 (no bf16, no bool). */
static MlirLogicalResult checkEinsumType(const KilnInferContext *c, intptr_t i,
                                         MlirType t) {
  if (mlirTypeIsABF16(mlirShapedTypeGetElementType(t)))
    return kilnInferError(c,
                          "operand '%s' has element type bf16, expected one "
                          "of f16, f32, f64, i8, i16, i32, i64",
                          kilnRedOperandName(c, i));
  return kilnRedCheckElementType(c, i, t,
                                 KILN_RED_FLOAT | KILN_RED_I8 | KILN_RED_I16 |
                                     KILN_RED_I32 | KILN_RED_I64);
}

/* Reads the operands, checks their types and returns how many there are. */
static MlirLogicalResult readOperands(const KilnInferContext *c, MlirType *t,
                                      int *n) {
  *n = mlirValueIsNull(kilnInferOperand(c, 1)) ? 1 : 2;
  for (int i = 0; i < *n; ++i) {
    t[i] = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(t[i]) ||
        mlirLogicalResultIsFailure(checkEinsumType(c, i, t[i])))
      return mlirLogicalResultFailure();
  }
  if (*n == 2)
    return kilnRedCheckSameElementType(c, 0, t[0], 1, t[1]);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferWith(KilnInferContext *c, Equation *eq) {
  MlirType t[MAX_TERMS];
  int n;
  if (mlirLogicalResultIsFailure(readOperands(c, t, &n)) ||
      mlirLogicalResultIsFailure(parseEquation(c, eq)))
    return mlirLogicalResultFailure();
  if (eq->numInputs != n)
    return kilnInferError(c,
                          "equation \"%s\" has %d input term%s but the op "
                          "has %d operand%s",
                          eq->text, eq->numInputs,
                          eq->numInputs == 1 ? "" : "s", n, n == 1 ? "" : "s");
  Dims d;
  memset(&d, 0, sizeof(d));
  for (int i = 0; i < n; ++i)
    if (mlirLogicalResultIsFailure(addOperand(c, i, t[i], &eq->inputs[i], &d)))
      return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK];
  intptr_t rank;
  if (mlirLogicalResultIsFailure(
          eq->hasOutput ? explicitOutput(c, &eq->output, &d, shape, &rank)
                        : implicitOutput(c, &d, shape, &rank)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] =
      kilnInferTensorType(rank, shape, mlirShapedTypeGetElementType(t[0]));
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnRedInferEinsum(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(kilnRedCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  Equation eq;
  memset(&eq, 0, sizeof(eq));
  MlirLogicalResult r = inferWith(c, &eq);
  free(eq.text);
  return r;
}
