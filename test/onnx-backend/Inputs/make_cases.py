"""Writes crafted ONNX backend test directories for run.py's lit tests.

usage: make_cases.py OUT_DIR

OUT_DIR/data/node/ gets, in libonnx-testdata's layout
(TEST/model.onnx, TEST/test_data_set_N/{input,output}_K.pb):
  test_fake_*      model.onnx is not read: OUT_DIR/fake-kiln-run (also
                   written here) exits as the name says; test_fake_limits
                   prints its RLIMIT_AS and the start of its cwd's name
  test_garbage     model.onnx is not a protobuf
  test_noop_pass   a model without ops (its output is its input), two data
                   sets with correct expected outputs
  test_noop_wrong  the same model; the second data set's expected output is
                   wrong
Nothing here depends on which ops Kiln lowers. Runs under Debian's
/usr/bin/python3 with python3-onnx.
"""
import os
import stat
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

FAKE_KILN_RUN = r"""#!/bin/sh
# A kiln-run stand-in: the test directory name chooses the outcome.
case "$1" in
  */test_fake_pass/*) exit 0 ;;
  */test_fake_wrong/*) echo "output y: worst [1]: got 1 expected 2" >&2
                       exit 1 ;;
  */test_fake_usage/*) echo "kiln-run: error: no input named q" >&2; exit 2 ;;
  */test_fake_unsupported/*) echo "m.onnx: error: unsupported: Foo" >&2
                             exit 3 ;;
  */test_fake_compile/*) echo "m.onnx: error: lowering failed" >&2; exit 4 ;;
  */test_fake_segv/*) kill -SEGV $$ ;;
  */test_fake_asan/*) echo "==7==ERROR: AddressSanitizer: SEGV" >&2; exit 1 ;;
  */test_fake_hang/*) exec sleep 60 ;;
  */test_fake_limits/*) echo "limits: $(ulimit -v) $(basename "$PWD" |
                         cut -c1-10)" >&2; exit 1 ;;
  */test_fake_args/*) d=$(dirname "$1")/test_data_set_0
    [ "$*" = "$1 --input $d/input_0.pb --input $d/input_1.pb --input \
$d/input_10.pb --expected $d/output_0.pb --rtol 0.001 --atol 1e-07 \
--threads 1" ] && exit 0
    echo "unexpected arguments: $*" >&2; exit 1 ;;
esac
exit 9
"""


def write_tensor(path, array):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array).SerializeToString())


def noop_model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([], "noop", [x], [x])
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 17)])


def main():
    out = sys.argv[1]
    node = os.path.join(out, "data", "node")
    os.makedirs(node, exist_ok=True)
    fake = os.path.join(out, "fake-kiln-run")
    with open(fake, "w") as f:
        f.write(FAKE_KILN_RUN)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)

    for kind in ("pass", "wrong", "usage", "unsupported", "compile", "segv",
                 "asan", "hang", "limits", "args"):
        d = os.path.join(node, f"test_fake_{kind}", "test_data_set_0")
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, "..", "model.onnx"), "wb").close()
        # input_10 after input_1: the runner orders by number, not name.
        for name in ("input_0.pb", "input_1.pb", "input_10.pb",
                     "output_0.pb"):
            open(os.path.join(d, name), "wb").close()

    d = os.path.join(node, "test_garbage", "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "..", "model.onnx"), "wb") as f:
        f.write(b"\xff\xff not a model")
    write_tensor(os.path.join(d, "input_0.pb"), np.zeros(3, np.float32))
    write_tensor(os.path.join(d, "output_0.pb"), np.zeros(3, np.float32))

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for name, last_expected in (("test_noop_pass", x), ("test_noop_wrong",
                                                        x + 1)):
        t = os.path.join(node, name)
        for i, expected in enumerate((x, last_expected)):
            d = os.path.join(t, f"test_data_set_{i}")
            os.makedirs(d, exist_ok=True)
            write_tensor(os.path.join(d, "input_0.pb"), x)
            write_tensor(os.path.join(d, "output_0.pb"), expected)
        with open(os.path.join(t, "model.onnx"), "wb") as f:
            f.write(noop_model().SerializeToString())


if __name__ == "__main__":
    main()
