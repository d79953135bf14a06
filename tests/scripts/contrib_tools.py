"""onnxruntime's own tools' output compiled and checked against onnxruntime.

The contrib operators (com.microsoft) reach users through onnxruntime's
quantization tool and its transformer optimizer. This script builds small
models with onnx.helper, runs them through those tools and checks the
results the way `op_variants.py` does (`onnx-mlc run` against onnxruntime
on seeded inputs):

- a small conv net through `quantize_static` (QOperator format: QLinearConv,
  QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearConcat,
  QLinearAveragePool, QLinearGlobalAveragePool, QGemm, QLinearSoftmax),
  activations uint8 and int8;
- an MLP through `quantize_dynamic` (dynamic quantization of the MatMuls),
  and that through onnxruntime's graph optimizer (DynamicQuantizeMatMul);
- the conv net through onnxruntime's graph optimizer (FusedConv);
- a 2-layer BERT-like encoder through `optimize_model` (model type bert:
  EmbedLayerNormalization, Attention, SkipLayerNormalization, BiasGelu or
  FastGelu), also with its ops then in float16 left out.

Each model must contain the contrib ops the tool is known to write (else
the test would silently check nothing). Usage: contrib_tools.py
ONNX_MLC_BIN [--aot]; closes with `checked N variants, F failed`.
"""

import collections
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from contrib_variants import check_variants

F = TensorProto.FLOAT


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def conv_net(rng):
    """x [1, 3, 16, 16] → Conv → LeakyRelu, Conv → Sigmoid, their product,
    a residual Add, Concat with the first branch, AveragePool,
    GlobalAveragePool, Flatten, Gemm, Softmax."""
    w = lambda *s: (rng.standard_normal(s) * 0.3).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("LeakyRelu", ["c1"], ["a1"], alpha=0.1),
        helper.make_node("Conv", ["a1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Sigmoid", ["c2"], ["s2"]),
        helper.make_node("Mul", ["a1", "s2"], ["m"]),
        helper.make_node("Add", ["m", "a1"], ["r"]),
        helper.make_node("Concat", ["r", "a1"], ["cat"], axis=1),
        helper.make_node("AveragePool", ["cat"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["p"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "wg", "bg"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["y"], axis=-1),
    ]
    inits = [init("w1", w(8, 3, 3, 3)), init("b1", w(8)), init("w2", w(8, 8, 3, 3)), init("b2", w(8)),
             init("wg", w(10, 16)), init("bg", w(10))]
    graph = helper.make_graph(nodes, "convnet", [helper.make_tensor_value_info("x", F, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("y", F, [1, 10])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def mlp(rng):
    """x [4, 16] → MatMul, Add, Relu, MatMul, Add."""
    w = lambda *s: (rng.standard_normal(s) * 0.3).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]), helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Relu", ["hb"], ["a"]), helper.make_node("MatMul", ["a", "w2"], ["o"]),
        helper.make_node("Add", ["o", "b2"], ["y"]),
    ]
    inits = [init("w1", w(16, 32)), init("b1", w(32)), init("w2", w(32, 8)), init("b2", w(8))]
    graph = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", F, [4, 16])],
                              [helper.make_tensor_value_info("y", F, [4, 8])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def bert(rng, batch=1, seq=8, hidden=16, heads=2, layers=2, vocab=30, ffn=32):
    """A BERT encoder as the PyTorch exporter writes it (opset 17
    LayerNormalization, erf Gelu, the extended attention mask)."""
    w = lambda *s: (rng.standard_normal(s) * 0.2).astype(np.float32)
    n = helper.make_node
    inits, nodes = [], []

    def const(name, value):
        inits.append(init(name, value))
        return name

    head = hidden // heads
    nodes += [
        n("Gather", [const("word", w(vocab, hidden)), "input_ids"], ["we"]),
        n("Gather", [const("pos", w(seq, hidden)), const("pos_ids", np.arange(seq)[None])], ["pe"]),
        n("Gather", [const("tok", w(2, hidden)), "token_type_ids"], ["te"]),
        n("Add", ["we", "pe"], ["e1"]), n("Add", ["e1", "te"], ["e2"]),
        n("LayerNormalization", ["e2", const("eg", 1 + w(hidden)), const("eb", w(hidden))], ["h0"],
          epsilon=1e-12),
        n("Unsqueeze", ["attention_mask", const("ax1", np.array([1]))], ["m1"]),
        n("Unsqueeze", ["m1", const("ax2", np.array([2]))], ["m2"]),
        n("Cast", ["m2"], ["m3"], to=F),
        n("Sub", [const("one", np.array(1.0, np.float32)), "m3"], ["m4"]),
        n("Mul", ["m4", const("big", np.array(-10000.0, np.float32))], ["mask"]),
    ]
    shape = const("split_shape", np.array([0, 0, heads, head]))
    merge = const("merge_shape", np.array([0, 0, hidden]))
    x = "h0"
    for layer in range(layers):
        p = f"l{layer}_"

        def proj(name, inp, d_in, d_out):
            nodes.append(n("MatMul", [inp, const(p + name + "_w", w(d_in, d_out))], [p + name + "_mm"]))
            nodes.append(n("Add", [const(p + name + "_b", w(d_out)), p + name + "_mm"], [p + name]))
            return p + name

        q, k, v = proj("q", x, hidden, hidden), proj("k", x, hidden, hidden), proj("v", x, hidden, hidden)
        nodes += [
            n("Reshape", [q, shape], [p + "qr"]), n("Transpose", [p + "qr"], [p + "qt"], perm=[0, 2, 1, 3]),
            n("Reshape", [k, shape], [p + "kr"]), n("Transpose", [p + "kr"], [p + "kt"], perm=[0, 2, 3, 1]),
            n("Reshape", [v, shape], [p + "vr"]), n("Transpose", [p + "vr"], [p + "vt"], perm=[0, 2, 1, 3]),
            n("MatMul", [p + "qt", p + "kt"], [p + "qk"]),
            n("Div", [p + "qk", const(p + "sqrt", np.array(np.sqrt(head), np.float32))], [p + "qks"]),
            n("Add", [p + "qks", "mask"], [p + "qkm"]),
            n("Softmax", [p + "qkm"], [p + "probs"], axis=-1),
            n("MatMul", [p + "probs", p + "vt"], [p + "ctx"]),
            n("Transpose", [p + "ctx"], [p + "ctxt"], perm=[0, 2, 1, 3]),
            n("Reshape", [p + "ctxt", merge], [p + "ctxm"]),
        ]
        o = proj("o", p + "ctxm", hidden, hidden)
        nodes += [
            n("Add", [o, x], [p + "res1"]),
            n("LayerNormalization", [p + "res1", const(p + "g1", 1 + w(hidden)), const(p + "b1n", w(hidden))],
              [p + "h1"], epsilon=1e-12),
        ]
        f1 = proj("f1", p + "h1", hidden, ffn)
        nodes += [
            n("Div", [f1, const(p + "rt2", np.array(np.sqrt(2.0), np.float32))], [p + "gd"]),
            n("Erf", [p + "gd"], [p + "ge"]),
            n("Add", [p + "ge", const(p + "g_one", np.array(1.0, np.float32))], [p + "ga"]),
            n("Mul", [f1, p + "ga"], [p + "gm"]),
            n("Mul", [p + "gm", const(p + "half", np.array(0.5, np.float32))], [p + "gelu"]),
        ]
        f2 = proj("f2", p + "gelu", ffn, hidden)
        nodes += [
            n("Add", [f2, p + "h1"], [p + "res2"]),
            n("LayerNormalization", [p + "res2", const(p + "g2", 1 + w(hidden)), const(p + "b2n", w(hidden))],
              [p + "out"], epsilon=1e-12),
        ]
        x = p + "out"
    nodes.append(n("Identity", [x], ["last_hidden_state"]))
    i64 = TensorProto.INT64
    graph = helper.make_graph(
        nodes, "bert",
        [helper.make_tensor_value_info(name, i64, [batch, seq])
         for name in ["input_ids", "attention_mask", "token_type_ids"]],
        [helper.make_tensor_value_info("last_hidden_state", F, [batch, seq, hidden])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def contrib_ops(m):
    """The com.microsoft ops of a model, counted."""
    return collections.Counter(nd.op_type for nd in m.graph.node if nd.domain == "com.microsoft")


def require(name, m, ops):
    """`m`, checked to contain the contrib ops `ops` the tool writes."""
    have = contrib_ops(m)
    missing = [op for op in ops if not have[op]]
    if missing:
        raise SystemExit(f"{name}: the tool wrote no {', '.join(missing)} (contrib ops: {dict(have)})")
    return m


def ort_optimized(path, tmp):
    """The model onnxruntime's graph optimizer makes of `path` (extended
    level, CPU): standard ops fused into contrib ones."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(tmp / "ort_optimized.onnx")
    ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return onnx.load(tmp / "ort_optimized.onnx")


class Reader:
    """Calibration data for quantize_static: seeded inputs."""

    def __init__(self, rng, count=4):
        self.batches = iter([{"x": rng.standard_normal((1, 3, 16, 16)).astype(np.float32)}
                             for _ in range(count)])

    def get_next(self):
        return next(self.batches, None)


def tool_variants(rng):
    """The models above through onnxruntime's tools."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_dynamic, quantize_static
    from onnxruntime.transformers.optimizer import optimize_model

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        onnx.save(conv_net(rng), tmp / "convnet.onnx")
        x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
        expected = ["QLinearAdd", "QLinearMul", "QLinearSigmoid", "QLinearLeakyRelu", "QLinearConcat",
                    "QLinearAveragePool", "QLinearGlobalAveragePool", "QGemm", "QLinearSoftmax"]
        for activations in [QuantType.QUInt8, QuantType.QInt8]:
            out = tmp / f"convnet_{activations.name}.onnx"
            quantize_static(tmp / "convnet.onnx", out, Reader(np.random.default_rng(1)),
                            quant_format=QuantFormat.QOperator, activation_type=activations,
                            weight_type=QuantType.QInt8)
            m = require(f"quantize_static {activations.name}", onnx.load(out), expected)
            yield f"quantize_static QOperator {activations.name} conv net", m, [x], (0, 0.02)
        onnx.save(mlp(rng), tmp / "mlp.onnx")
        for weights in [QuantType.QInt8, QuantType.QUInt8]:
            out = tmp / f"mlp_{weights.name}.onnx"
            quantize_dynamic(tmp / "mlp.onnx", out, weight_type=weights)
            xm = rng.standard_normal((4, 16)).astype(np.float32)
            yield f"quantize_dynamic {weights.name} mlp", onnx.load(out), [xm], (1e-4, 1e-3)
            m = require(f"onnxruntime-optimized quantize_dynamic {weights.name}",
                        ort_optimized(out, tmp), ["DynamicQuantizeMatMul"])
            yield f"onnxruntime-optimized quantize_dynamic {weights.name} mlp", m, [xm], (1e-4, 1e-3)
        m = require("onnxruntime-optimized conv net", ort_optimized(tmp / "convnet.onnx", tmp), ["FusedConv"])
        yield "onnxruntime-optimized conv net", m, [x], (1e-4, 1e-5)
        onnx.save(bert(rng), tmp / "bert.onnx")
        optimized = optimize_model(str(tmp / "bert.onnx"), model_type="bert", num_heads=2, hidden_size=16,
                                   opt_level=0)
        optimized.save_model_to_file(str(tmp / "bert_optimized.onnx"))
        m = require("optimize_model bert", onnx.load(tmp / "bert_optimized.onnx"),
                    ["EmbedLayerNormalization", "Attention", "SkipLayerNormalization"])
        ids = rng.integers(0, 30, (1, 8)).astype(np.int64)
        mask = np.array([[1, 1, 1, 1, 1, 1, 0, 0]], np.int64)
        types = rng.integers(0, 2, (1, 8)).astype(np.int64)
        yield "optimize_model bert", m, [ids, mask, types], (1e-4, 1e-4)


def main():
    flags = sys.argv[2:]
    checked, failed = check_variants(sys.argv[1], [tool_variants], flags)
    print(f"checked {checked} variants, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
