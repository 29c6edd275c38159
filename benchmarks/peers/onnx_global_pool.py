"""Which ONNX op ONNX Runtime runs fastest for a global average pool: GlobalAveragePool or ReduceMean over the spatial
axes (PyTorch 2.13's exporter writes ReduceMean for AdaptiveAvgPool2d(1); JTorch writes GlobalAveragePool).

Usage (a Python with onnx and onnxruntime):

    python benchmarks/peers/onnx_global_pool.py

For each shape [N, C, H, W] it builds the two one-node models (float32, keepdims, opset 20), checks they give the same
values, and times them alternately in one onnxruntime session each (one intra-op thread, as a serving process with one
core per model would run), reporting the median of the rounds in microseconds per run.
"""
import statistics
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

SHAPES = [(1, 16, 6, 6), (64, 16, 6, 6), (1, 512, 7, 7), (64, 512, 7, 7), (8, 64, 56, 56)]
ROUNDS = 7


def model(op, shape):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    inits = []
    if op == "GlobalAveragePool":
        node = helper.make_node("GlobalAveragePool", ["x"], ["y"])
    else:
        inits.append(helper.make_tensor("axes", TensorProto.INT64, [2], [2, 3]))
        node = helper.make_node("ReduceMean", ["x", "axes"], ["y"], keepdims=1)
    graph = helper.make_graph([node], "pool", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=10)


def session(m):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(m.SerializeToString(), options, providers=["CPUExecutionProvider"])


def time_once(s, x, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        s.run(None, {"x": x})
    return (time.perf_counter() - start) / repeats * 1e6


def main():
    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}")
    print("shape                 GlobalAveragePool us   ReduceMean us   ratio (ReduceMean / GAP)")
    rng = np.random.default_rng(0)
    for shape in SHAPES:
        x = rng.standard_normal(shape, dtype=np.float32)
        gap, mean = session(model("GlobalAveragePool", shape)), session(model("ReduceMean", shape))
        a, b = gap.run(None, {"x": x})[0], mean.run(None, {"x": x})[0]
        assert a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-6)
        repeats = max(10, int(2e7 // x.size))
        for s in (gap, mean):  # warm-up
            time_once(s, x, repeats)
        ta, tb = [], []
        for _ in range(ROUNDS):
            ta.append(time_once(gap, x, repeats))
            tb.append(time_once(mean, x, repeats))
        ma, mb = statistics.median(ta), statistics.median(tb)
        print(f"{str(shape):20s}  {ma:20.1f}   {mb:13.1f}   {mb / ma:.2f}")


if __name__ == "__main__":
    main()
