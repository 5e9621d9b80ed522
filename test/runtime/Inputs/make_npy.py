"""Writes the reference data for tensor-io.test into OUTDIR.

For every input_*.pb/output_*.pb of a selection of ONNX node tests, and for
TensorProtos made here with the typed fields (int32_data, uint64_data, ...)
that the node tests never use, saves the tensor as numpy reads it
(onnx.numpy_helper.to_array, numpy.save) and lists both in
OUTDIR/manifest.txt as "KIND PB NPY":
  ok      the .pb must read to the same tensor as the .npy
  bf16    as ok, but the .npy holds the bf16 bit patterns as uint16
  string  the .pb is a string tensor, which must be rejected
  same    two .npy files (other versions / byte order) that must read equal
Usage: make_npy.py DATADIR OUTDIR
"""
import glob
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

PATTERNS = ["test_abs", "test_add_uint8", "test_equal*", "test_and*",
            "test_cast_*", "test_castlike_*", "test_argmax_*", "test_max_*",
            "test_min_*", "test_bitshift_*", "test_mod_*",
            "test_constantofshape_*", "test_basic_convinteger",
            "test_bernoulli_double", "test_pow_types_*"]


def real_tests(datadir, out, lines):
    dirs = sorted({d for p in PATTERNS
                   for d in glob.glob(os.path.join(datadir, p))})
    for d in dirs:
        for pb in sorted(glob.glob(os.path.join(d, "test_data_set_*",
                                                "*put_*.pb"))):
            t = TensorProto()
            t.ParseFromString(open(pb, "rb").read())
            rel = os.path.relpath(pb, datadir).replace(os.sep, "__")
            if t.data_type == TensorProto.STRING:
                lines.append("string %s -" % pb)
                continue
            npy = os.path.join(out, rel + ".npy")
            np.save(npy, numpy_helper.to_array(t))
            lines.append("ok %s %s" % (pb, npy))


def typed_tensors(out, lines):
    """TensorProtos with values in the typed repeated fields."""
    rng = np.random.default_rng(7)
    ints = [0, 1, -1, 127, -128, 255, 32767, -32768, 65535, 70000, -70000, 5]
    cases = [
        (TensorProto.FLOAT, rng.standard_normal(12).astype(np.float32)),
        (TensorProto.DOUBLE, rng.standard_normal(12)),
        (TensorProto.INT64, np.array([0, -1, 2**62, -2**63, 2**63 - 1] + [3] * 7,
                                     dtype=np.int64)),
        (TensorProto.INT32, np.array(ints, dtype=np.int32)),
        (TensorProto.INT16, np.array(ints, dtype=np.int32)),
        (TensorProto.INT8, np.array(ints, dtype=np.int32)),
        (TensorProto.UINT16, np.array([i & 0xffff for i in ints], np.int32)),
        (TensorProto.UINT8, np.array([i & 0xff for i in ints], np.int32)),
        (TensorProto.BOOL, np.array([0, 1, 2, -1] * 3, dtype=np.int32)),
        (TensorProto.UINT32, np.array([0, 1, 2**32 - 1] * 4, dtype=np.uint64)),
        (TensorProto.UINT64, np.array([0, 1, 2**64 - 1] * 4, dtype=np.uint64)),
    ]
    for dt, vals in cases:
        t = TensorProto(name="typed_%d" % dt, data_type=dt, dims=[3, 4])
        field = onnx.mapping.STORAGE_TENSOR_TYPE_TO_FIELD[
            onnx.mapping.TENSOR_TYPE_TO_STORAGE_TENSOR_TYPE[dt]]
        getattr(t, field).extend(vals.tolist())
        base = os.path.join(out, "typed_%d" % dt)
        open(base + ".pb", "wb").write(t.SerializeToString())
        np.save(base + ".npy", numpy_helper.to_array(t))
        lines.append("ok %s.pb %s.npy" % (base, base))
    # f16 and bf16 travel as bit patterns in int32_data.
    h = np.array([0.5, -2, 65504, np.inf, np.nan, 1e-7], np.float16)
    t = TensorProto(name="f16", data_type=TensorProto.FLOAT16, dims=[2, 3])
    t.int32_data.extend(h.view(np.uint16).astype(np.int32).tolist())
    open(os.path.join(out, "f16.pb"), "wb").write(t.SerializeToString())
    np.save(os.path.join(out, "f16.npy"), numpy_helper.to_array(t))
    lines.append("ok %s/f16.pb %s/f16.npy" % (out, out))
    t = helper.make_tensor("bf16", TensorProto.BFLOAT16, [2, 3],
                           [1.0, -2.5, 3.0e38, 0.0, -0.0, 7.0])
    bits = np.asarray(t.int32_data, dtype=np.int32).astype(np.uint16)
    open(os.path.join(out, "bf16.pb"), "wb").write(t.SerializeToString())
    np.save(os.path.join(out, "bf16.npy"), bits.reshape(2, 3))
    lines.append("bf16 %s/bf16.pb %s/bf16.npy" % (out, out))
    t = helper.make_tensor("bf16raw", TensorProto.BFLOAT16, [3], [0] * 3)
    t.ClearField("int32_data")
    t.raw_data = np.array([0x3f80, 0xc020, 0x7f80], np.uint16).tobytes()
    open(os.path.join(out, "bf16raw.pb"), "wb").write(t.SerializeToString())
    np.save(os.path.join(out, "bf16raw.npy"),
            np.frombuffer(t.raw_data, np.uint16))
    lines.append("bf16 %s/bf16raw.pb %s/bf16raw.npy" % (out, out))


def npy_versions(out, lines):
    """The same arrays as format 2.0 / 3.0 files and in big-endian order."""
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 7
    base = os.path.join(out, "ver")
    np.save(base + "1.npy", a)
    for v in (2, 3):
        with open("%s%d.npy" % (base, v), "wb") as f:
            np.lib.format.write_array(f, a, version=(v, 0))
        lines.append("same %s1.npy %s%d.npy" % (base, base, v))
    for dt in ("i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8"):
        x = (np.arange(10) * 3 - 4).astype("<" + dt)
        np.save("%s-le-%s.npy" % (base, dt), x)
        np.save("%s-be-%s.npy" % (base, dt), x.astype(">" + dt))
        lines.append("same %s-le-%s.npy %s-be-%s.npy" % (base, dt, base, dt))
    np.save(base + "-scalar.npy", np.float64(2.5))
    np.save(base + "-empty.npy", np.zeros((3, 0, 2), np.float32))
    np.save(base + "-bool.npy", np.array([[True, False, True]]))
    for name in ("-scalar", "-empty", "-bool"):
        lines.append("same %s%s.npy %s%s.npy" % (base, name, base, name))


def main():
    datadir, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    lines = []
    real_tests(os.path.join(datadir, "node"), out, lines)
    typed_tensors(out, lines)
    npy_versions(out, lines)
    with open(os.path.join(out, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
