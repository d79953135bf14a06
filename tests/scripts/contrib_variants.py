"""onnxruntime's contrib operators (com.microsoft) checked against onnxruntime.

Each generator below yields small models of one contrib op (its variants:
optional inputs present and absent, attributes, element types) with seeded
random inputs; every model runs through `onnx-mlc run` and through
onnxruntime, and the outputs must agree (rtol 1e-4, atol 1e-5; quantized
results within one quantization step, as onnxruntime's kernels round
through lookup tables and fixed-point steps of their own).

Usage: contrib_variants.py ONNX_MLC_BIN [--aot]. Prints a line per failure
and closes with `checked N variants, F failed`; exits 1 on a failure.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from op_variants import reference

MS = "com.microsoft"
F = TensorProto.FLOAT
QUANT = (0, 1.01)


def check_variants(binary, generators, flags=()):
    """Runs every variant of `generators` through `onnx-mlc run` (with
    `flags`) and the reference (`op_variants.reference`); prints a line per
    failure. A variant is `(name, model, inputs)`, or `(name, model,
    inputs, (rtol, atol))` for other tolerances than rtol 1e-4, atol 1e-5.
    Returns (checked, failed)."""
    rng = np.random.default_rng(0)
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for generate in generators:
            for name, m, inputs, *tolerance in generate(rng):
                rtol, atol = tolerance[0] if tolerance else (1e-4, 1e-5)
                checked += 1
                onnx.save(m, tmp / "model.onnx")
                files = []
                for i, x in enumerate(inputs):
                    onnx.save_tensor(numpy_helper.from_array(x), tmp / f"input_{i}.pb")
                    files.append(str(tmp / f"input_{i}.pb"))
                feeds = {v.name: x for v, x in zip(m.graph.input, inputs)}
                expected = reference(tmp / "model.onnx", m, feeds)
                run = subprocess.run(
                    [binary, "run", *flags, "--out", str(tmp / "out"), str(tmp / "model.onnx"), *files],
                    capture_output=True,
                    text=True,
                )
                if run.returncode != 0:
                    failed += 1
                    print(f"FAIL {name}: {run.stderr.strip()[-400:]}")
                    continue
                for k, want in enumerate(expected):
                    got = numpy_helper.to_array(onnx.load_tensor(tmp / "out" / f"output_{k}.pb"))
                    close = got.shape == want.shape and np.allclose(
                        got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol
                    )
                    if not close:
                        failed += 1
                        print(f"FAIL {name}: output {k} is {got.tolist()}, onnxruntime {want.tolist()}")
                        break
    return checked, failed


def ms_model(nodes, inputs, outputs, initializers=(), opset=17):
    """A model importing ai.onnx `opset` and com.microsoft 1; `inputs` are
    (name, array), their types and shapes those of the arrays; `outputs`
    are names (types left to the model)."""
    graph = helper.make_graph(
        nodes,
        "contrib",
        [
            helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)
            for n, x in inputs
        ],
        [onnx.ValueInfoProto(name=n) for n in outputs],
        [numpy_helper.from_array(x, n) for n, x in initializers],
    )
    m = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset), helper.make_opsetid(MS, 1)]
    )
    m.ir_version = 8
    return m


def one(op, inputs, outputs=("Y",), initializers=(), onnx_opset=17, domain=MS, **attrs):
    """A one-op model: `inputs` and `initializers` are (name, array) (name
    "" for an absent optional input)."""
    names = [n for n, _ in inputs]
    node = helper.make_node(op, names, list(outputs), domain=domain, **attrs)
    graph_inputs = [(n, x) for n, x in inputs if n and all(n != i for i, _ in initializers)]
    return ms_model([node], graph_inputs, [o for o in outputs if o], initializers, onnx_opset)


def feeds(inputs, initializers=()):
    """The arrays of the graph inputs, in order."""
    init = {n for n, _ in initializers}
    return [x for n, x in inputs if n and n not in init]


def normal(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def activation_variants(rng):
    """Gelu, FastGelu (with and without bias), BiasGelu, QuickGelu (default
    and given alpha), BiasAdd."""
    x = normal(rng, 2, 3, 8)
    bias = normal(rng, 8)
    yield "Gelu", one("Gelu", [("X", x)]), [x]
    yield "FastGelu", one("FastGelu", [("X", x)]), [x]
    ins = [("X", x), ("bias", bias)]
    yield "FastGelu bias", one("FastGelu", ins), [x, bias]
    yield "BiasGelu", one("BiasGelu", [("A", x), ("B", bias)]), [x, bias]
    yield "QuickGelu", one("QuickGelu", [("X", x)]), [x]
    yield "QuickGelu alpha", one("QuickGelu", [("X", x)], alpha=1.5), [x]
    skip = normal(rng, 2, 3, 8)
    ins = [("X", x), ("bias", bias), ("skip", skip)]
    yield "BiasAdd", one("BiasAdd", ins), [x, bias, skip]


def norm_variants(rng):
    """SkipLayerNormalization and SkipSimplifiedLayerNormalization with and
    without beta and bias, with the sum output, over 3-D and 2-D inputs;
    SimplifiedLayerNormalization over the last and the last two axes;
    EmbedLayerNormalization with and without segments, mask and position
    ids."""
    for shape in [(2, 3, 16), (5, 16)]:
        x, skip = normal(rng, *shape), normal(rng, *shape)
        gamma, beta, bias = normal(rng, 16), normal(rng, 16), normal(rng, 16)
        for with_beta in [False, True]:
            for with_bias in [False, True]:
                for sum_out in [False, True]:
                    ins = [("x", x), ("skip", skip), ("gamma", gamma),
                           ("beta", beta) if with_beta else ("", None),
                           ("bias", bias) if with_bias else ("", None)]
                    while ins[-1][0] == "":
                        ins.pop()
                    outs = ("Y", "", "", "S") if sum_out else ("Y",)
                    name = f"SkipLayerNormalization {shape} beta={with_beta} bias={with_bias} sum={sum_out}"
                    yield name, one("SkipLayerNormalization", ins, outs, epsilon=1e-5), feeds(ins)
                ins = [("x", x), ("skip", skip), ("gamma", gamma)] + ([("bias", bias)] if with_bias else [])
                outs = ("Y", "", "", "S") if with_beta else ("Y",)
                name = f"SkipSimplifiedLayerNormalization {shape} bias={with_bias} sum={with_beta}"
                yield name, one("SkipSimplifiedLayerNormalization", ins, outs), feeds(ins)
    x = normal(rng, 2, 3, 8)
    for axis, scale in [(-1, normal(rng, 8)), (1, normal(rng, 3, 8))]:
        ins = [("X", x), ("scale", scale)]
        m = one("SimplifiedLayerNormalization", ins, domain="", axis=axis, epsilon=1e-5)
        yield f"SimplifiedLayerNormalization axis={axis}", m, [x, scale]
    batch, seq, hidden = 2, 5, 8
    ids = rng.integers(0, 10, (batch, seq)).astype(np.int32)
    segments = rng.integers(0, 2, (batch, seq)).astype(np.int32)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)
    positions = np.array([[4, 3, 2, 1, 0]] * batch, np.int32)
    weights = [("word", normal(rng, 10, hidden)), ("position", normal(rng, 8, hidden)),
               ("segment", normal(rng, 2, hidden)), ("gamma", normal(rng, hidden)),
               ("beta", normal(rng, hidden))]
    for with_segments in [False, True]:
        for with_mask in [False, True]:
            for with_positions in [False, True]:
                w = dict(weights)
                ins = [("ids", ids), ("segments", segments) if with_segments else ("", None),
                       ("word", w["word"]), ("position", w["position"]),
                       ("segment", w["segment"]) if with_segments else ("", None),
                       ("gamma", w["gamma"]), ("beta", w["beta"]),
                       ("mask", mask) if with_mask else ("", None),
                       ("positions", positions) if with_positions else ("", None)]
                while ins[-1][0] == "":
                    ins.pop()
                init = [(n, x) for n, x in ins if n in w]
                outs = ("Y", "mask_index", "sum") if with_mask else ("Y", "", "sum")
                name = (f"EmbedLayerNormalization segments={with_segments} mask={with_mask}"
                        f" positions={with_positions}")
                m = one("EmbedLayerNormalization", ins, outs, init, epsilon=1e-5)
                yield name, m, feeds(ins, init)


def fused_variants(rng):
    """FusedMatMul (transposes, alpha, batches), FusedGemm (activations,
    with C), FusedConv (activations, bias and residual), NhwcConv."""
    for ta, tb, alpha, a_shape, b_shape in [
        (0, 0, 1.0, (3, 4), (4, 5)), (1, 0, 0.5, (4, 3), (4, 5)), (0, 1, 2.0, (2, 3, 4), (5, 4)),
        (1, 1, 1.0, (2, 4, 3), (2, 5, 4)),
    ]:
        a, b = normal(rng, *a_shape), normal(rng, *b_shape)
        m = one("FusedMatMul", [("A", a), ("B", b)], transA=ta, transB=tb, alpha=alpha)
        yield f"FusedMatMul transA={ta} transB={tb} alpha={alpha} {a_shape}x{b_shape}", m, [a, b]
    a, b, c = normal(rng, 3, 4), normal(rng, 4, 5), normal(rng, 5)
    for act, params in [("Relu", {}), ("LeakyRelu", {"activation_alpha": 0.2}),
                        ("Sigmoid", {}), ("Tanh", {}), ("HardSigmoid", {"activation_alpha": 0.3,
                                                                        "activation_beta": 0.4})]:
        attrs = dict(params, alpha=0.7, beta=1.3)
        if act:
            attrs["activation"] = act
        m = one("FusedGemm", [("A", a), ("B", b), ("C", c)], **attrs)
        yield f"FusedGemm {act or 'none'}", m, [a, b, c]
    at = np.ascontiguousarray(a.T)
    m = one("FusedGemm", [("A", at), ("B", b)], transA=1, activation="Relu")
    yield "FusedGemm transA no C", m, [at, b]
    x, w, bias = normal(rng, 1, 3, 6, 6), normal(rng, 4, 3, 3, 3), normal(rng, 4)
    z = normal(rng, 1, 4, 6, 6)
    for act, params in [("Relu", []), ("LeakyRelu", [0.1]), ("Clip", [-0.5, 0.5]), ("Sigmoid", []),
                        ("Tanh", [])]:
        attrs = {"activation": act, "pads": [1, 1, 1, 1]}
        if params:
            attrs["activation_params"] = params
        ins = [("X", x), ("W", w), ("B", bias)]
        yield f"FusedConv {act}", one("FusedConv", ins, **attrs), [x, w, bias]
    ins = [("X", x), ("W", w), ("B", bias), ("Z", z)]
    m = one("FusedConv", ins, activation="Relu", pads=[1, 1, 1, 1])
    yield "FusedConv Relu residual", m, [x, w, bias, z]
    ins = [("X", x), ("W", w)]
    m = one("FusedConv", ins, activation="Relu", strides=[2, 2])
    yield "FusedConv no bias strided", m, [x, w]


def quantized(rng, shape, elem=np.uint8):
    info = np.iinfo(elem)
    return rng.integers(info.min, info.max + 1, shape).astype(elem)


def scalars(scale, zero, elem=np.uint8):
    return np.array(scale, np.float32), np.array(zero, elem)


def quant_variants(rng):
    """Contrib QuantizeLinear and DequantizeLinear (per tensor and per
    axis, uint8 and int8), QLinearAdd and QLinearMul (broadcast, zero
    points absent), QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax (both
    opset forms), QLinearConcat, the quantized average pools (channels
    first and last)."""
    x = normal(rng, 2, 3, 4)
    for elem in [np.uint8, np.int8]:
        s, z = scalars(0.05, 3, elem)
        ins = [("x", x), ("s", s), ("z", z)]
        yield f"QuantizeLinear {np.dtype(elem)}", one("QuantizeLinear", ins, initializers=ins[1:]), [x], QUANT
        q = quantized(rng, (2, 3, 4), elem)
        ins = [("x", q), ("s", s), ("z", z)]
        yield f"DequantizeLinear {np.dtype(elem)}", one("DequantizeLinear", ins, initializers=ins[1:]), [q]
        sa, za = np.array([0.1, 0.2, 0.05], np.float32), np.array([1, 2, 3], elem)
        ins = [("x", q), ("s", sa), ("z", za)]
        yield f"DequantizeLinear axis {np.dtype(elem)}", one("DequantizeLinear", ins, initializers=ins[1:], axis=1), [q]
        ins = [("x", x), ("s", sa), ("z", za)]
        yield f"QuantizeLinear axis {np.dtype(elem)}", one("QuantizeLinear", ins, initializers=ins[1:], axis=1), [x], QUANT
    for op in ["QLinearAdd", "QLinearMul"]:
        for elem in [np.uint8, np.int8]:
            for b_shape, zero in [((2, 3, 4), True), ((4,), True)]:
                a, b = quantized(rng, (2, 3, 4), elem), quantized(rng, b_shape, elem)
                sa, za = scalars(0.02, 5, elem)
                sb, zb = scalars(0.03, -2 if elem == np.int8 else 7, elem)
                sc, zc = scalars(0.08 if op == "QLinearAdd" else 0.3, 4, elem)
                ins = [("A", a), ("sa", sa), ("za", za) if zero else ("", None), ("B", b), ("sb", sb),
                       ("zb", zb) if zero else ("", None), ("sc", sc), ("zc", zc) if zero else ("", None)]
                while ins[-1][0] == "":
                    ins.pop()
                init = [(n, v) for n, v in ins if n.startswith(("s", "z"))]
                name = f"{op} {np.dtype(elem)} B{b_shape} zero_points={zero}"
                yield name, one(op, ins, initializers=init), feeds(ins, init), QUANT
    for elem in [np.uint8, np.int8]:
        q = quantized(rng, (2, 3, 5), elem)
        sx, zx = scalars(0.05, 2, elem)
        sy, zy = scalars(1 / 256, 0 if elem == np.uint8 else -128, elem)
        ins = [("X", q), ("sx", sx), ("zx", zx), ("sy", sy), ("zy", zy)]
        init = ins[1:]
        yield f"QLinearSigmoid {np.dtype(elem)}", one("QLinearSigmoid", ins, initializers=init), [q], QUANT
        sy2, zy2 = scalars(0.04, 10, elem)
        ins2 = ins[:3] + [("sy", sy2), ("zy", zy2)]
        m = one("QLinearLeakyRelu", ins2, initializers=ins2[1:], alpha=0.2)
        yield f"QLinearLeakyRelu {np.dtype(elem)}", m, [q], QUANT
        for opset, axis in [(13, -1), (13, 1), (12, 1)]:
            m = one("QLinearSoftmax", ins, initializers=init, axis=axis, opset=opset)
            yield f"QLinearSoftmax {np.dtype(elem)} opset={opset} axis={axis}", m, [q], QUANT
        parts = [quantized(rng, (2, n, 3), elem) for n in (1, 2)]
        sy3, zy3 = scalars(0.07, 3, elem)
        ins = [("sy", sy3), ("zy", zy3)]
        for i, p in enumerate(parts):
            s, z = scalars(0.05 * (i + 1), i + 1, elem)
            ins += [(f"X{i}", p), (f"s{i}", s), (f"z{i}", z)]
        init = [(n, v) for n, v in ins if n.startswith(("s", "z"))]
        m = one("QLinearConcat", ins, initializers=init, axis=1)
        yield f"QLinearConcat {np.dtype(elem)}", m, feeds(ins, init), QUANT
        for last in [0, 1]:
            q = quantized(rng, (1, 6, 6, 3) if last else (1, 3, 6, 6), elem)
            sx, zx = scalars(0.05, 2, elem)
            sy, zy = scalars(0.02, 1, elem)
            ins = [("X", q), ("sx", sx), ("zx", zx), ("sy", sy), ("zy", zy)]
            m = one("QLinearGlobalAveragePool", ins, initializers=ins[1:], channels_last=last)
            yield f"QLinearGlobalAveragePool {np.dtype(elem)} channels_last={last}", m, [q], QUANT
            for pads, include in [([0, 0, 0, 0], 0), ([1, 1, 1, 1], 0), ([1, 1, 1, 1], 1)]:
                m = one("QLinearAveragePool", ins, initializers=ins[1:], channels_last=last,
                        kernel_shape=[3, 3], strides=[2, 2], pads=pads, count_include_pad=include)
                name = f"QLinearAveragePool {np.dtype(elem)} last={last} pads={pads} include={include}"
                yield name, m, [q], QUANT


def qconv_variants(rng):
    """Contrib QLinearConv, channels first and last, uint8 and int8
    activations, with and without the int32 bias."""
    for elem in [np.uint8, np.int8]:
        for last in [0, 1]:
            for with_bias in [False, True]:
                x = quantized(rng, (1, 6, 6, 3) if last else (1, 3, 6, 6), elem)
                w = quantized(rng, (4, 3, 3, 3), np.int8)
                sx, zx = scalars(0.05, 2, elem)
                sw, zw = np.array(0.02, np.float32), np.array(0, np.int8)
                sy, zy = scalars(0.3, 5, elem)
                ins = [("x", x), ("sx", sx), ("zx", zx), ("w", w), ("sw", sw), ("zw", zw), ("sy", sy), ("zy", zy)]
                if with_bias:
                    ins.append(("B", rng.integers(-500, 500, 4).astype(np.int32)))
                init = ins[1:]
                m = one("QLinearConv", ins, initializers=init, channels_last=last, pads=[1, 1, 1, 1])
                name = f"QLinearConv {np.dtype(elem)} channels_last={last} bias={with_bias}"
                yield name, m, [x], QUANT


def matmul_variants(rng):
    """QGemm (float and quantized output, per-tensor and per-column B,
    C, transposes, alpha), DynamicQuantizeMatMul and MatMulIntegerToFloat
    (zero points and bias present or not, per-column B), MatMulNBits (2, 4
    and 8 bits, block sizes, K not a multiple of the block, packed and
    float zero points, bias)."""
    m_, k, n = 3, 8, 5
    for elem_b in [np.int8, np.uint8]:
        a = quantized(rng, (m_, k))
        b = quantized(rng, (k, n), elem_b)
        sa, za = scalars(0.02, 100)
        for per_column in [False, True]:
            sb = (np.linspace(0.01, 0.03, n).astype(np.float32) if per_column
                  else np.array(0.02, np.float32))
            zb = (np.arange(n).astype(elem_b) if per_column else np.array(3, elem_b))
            for with_c, quant_out, trans_b, alpha in [
                (False, False, 0, 1.0), (True, False, 0, 1.0), (True, True, 0, 1.0),
                (False, True, 1, 0.5), (True, False, 1, 2.0),
            ]:
                bb = np.ascontiguousarray(b.T) if trans_b else b
                c = rng.integers(-1000, 1000, n).astype(np.int32)
                sy, zy = scalars(0.5, 128)
                ins = [("A", a), ("sa", sa), ("za", za), ("B", bb), ("sb", sb), ("zb", zb),
                       ("C", c) if with_c else ("", None),
                       ("sy", sy) if quant_out else ("", None), ("zy", zy) if quant_out else ("", None)]
                while ins[-1][0] == "":
                    ins.pop()
                init = [(nm, v) for nm, v in ins if nm in ("B", "sb", "zb", "C", "sa", "za", "sy", "zy")]
                name = (f"QGemm B {np.dtype(elem_b)} per_column={per_column} C={with_c}"
                        f" quantized={quant_out} transB={trans_b} alpha={alpha}")
                mdl = one("QGemm", ins, initializers=init, transB=trans_b, alpha=alpha)
                yield name, mdl, feeds(ins, init), QUANT if quant_out else (1e-4, 1e-3)
    a = normal(rng, 2, 3, k)
    for elem_b in [np.int8, np.uint8]:
        b = quantized(rng, (k, n), elem_b)
        for per_column, with_zero, with_bias in [(False, False, False), (False, True, True),
                                                 (True, True, False), (True, False, True)]:
            sb = (np.linspace(0.01, 0.03, n).astype(np.float32) if per_column
                  else np.array(0.02, np.float32))
            zb = np.arange(n).astype(elem_b) if per_column else np.array(3, elem_b)
            bias = normal(rng, n)
            ins = [("A", a), ("B", b), ("sb", sb), ("zb", zb) if with_zero else ("", None),
                   ("bias", bias) if with_bias else ("", None)]
            while ins[-1][0] == "":
                ins.pop()
            init = ins[1:]
            init = [(nm, v) for nm, v in init if nm]
            name = (f"DynamicQuantizeMatMul {np.dtype(elem_b)} per_column={per_column}"
                    f" zero={with_zero} bias={with_bias}")
            yield name, one("DynamicQuantizeMatMul", ins, initializers=init), [a], (1e-4, 1e-3)
            qa = quantized(rng, (2, 3, k))
            sa, za = scalars(0.03, 120)
            ins = [("A", qa), ("B", b), ("sa", sa), ("sb", sb), ("za", za) if with_zero else ("", None),
                   ("zb", zb) if with_zero else ("", None), ("bias", bias) if with_bias else ("", None)]
            while ins[-1][0] == "":
                ins.pop()
            init = [(nm, v) for nm, v in ins[1:] if nm]
            name = (f"MatMulIntegerToFloat {np.dtype(elem_b)} per_column={per_column}"
                    f" zero={with_zero} bias={with_bias}")
            yield name, one("MatMulIntegerToFloat", ins, initializers=init), [qa], (1e-4, 1e-3)
    for bits, block, k, zero, with_bias in [
        (4, 16, 32, None, False), (4, 32, 64, "packed", True), (4, 16, 40, "packed", False),
        (4, 16, 32, "float", False), (8, 16, 32, "packed", True), (2, 16, 32, None, False),
        (2, 32, 64, "packed", False),
    ]:
        n = 6
        blocks = (k + block - 1) // block
        blob = block * bits // 8
        packed = rng.integers(0, 256, (n, blocks, blob)).astype(np.uint8)
        scales = (rng.random((n, blocks)) * 0.1 + 0.01).astype(np.float32)
        a = normal(rng, 2, 3, k)
        ins = [("A", a), ("B", packed), ("scales", scales)]
        if zero == "packed":
            zp_cols = (blocks * bits + 7) // 8
            ins.append(("zp", rng.integers(0, 256, (n, zp_cols)).astype(np.uint8)))
        elif zero == "float":
            ins.append(("zp", (rng.random((n, blocks)) * 8).astype(np.float32)))
        else:
            ins.append(("", None))
        if with_bias:
            ins += [("", None), ("bias", normal(rng, n))]
        while ins[-1][0] == "":
            ins.pop()
        init = [(nm, v) for nm, v in ins[1:] if nm]
        m = one("MatMulNBits", ins, initializers=init, K=k, N=n, bits=bits, block_size=block)
        name = f"MatMulNBits bits={bits} block={block} K={k} zero={zero} bias={with_bias}"
        yield name, m, [a], (1e-4, 1e-3)
        # Weights given at run time: dequantized by the compiled code, not
        # at compile time.
        m = one("MatMulNBits", ins, K=k, N=n, bits=bits, block_size=block)
        yield name + " (run-time weights)", m, feeds(ins), (1e-4, 1e-3)


def attention_variants(rng):
    """Attention (mask_index of every handled form, unidirectional, past
    and present, attention_bias, qkv_hidden_sizes), MultiHeadAttention
    (bias, key padding mask, past, unidirectional), GroupQueryAttention
    (prompt, decoding with a past, grouped heads, packed QKV, local window,
    rotary, softcap), RotaryEmbedding (3-D and 4-D, interleaved, offsets,
    partial rotation)."""
    batch, seq, hidden, heads = 2, 4, 8, 2
    x = normal(rng, batch, seq, hidden)
    w, bias = normal(rng, hidden, 3 * hidden), normal(rng, 3 * hidden)
    masks = {
        "none": None,
        "lengths": np.array([3, 4], np.int32),
        "ends-starts": np.array([3, 4, 1, 0], np.int32),
        "2d": np.array([[1, 1, 0, 1], [1, 1, 1, 1]], np.int32),
        "3d": np.tril(np.ones((seq, seq), np.int32))[None].repeat(batch, 0),
    }
    for name, mask in masks.items():
        for uni in [0, 1]:
            ins = [("x", x), ("w", w), ("bias", bias)] + ([("mask", mask)] if mask is not None else [])
            init = [("w", w), ("bias", bias)]
            m = one("Attention", ins, ("Y",), init, num_heads=heads, unidirectional=uni)
            yield f"Attention mask={name} unidirectional={uni}", m, feeds(ins, init), (1e-4, 1e-4)
    past = normal(rng, 2, batch, heads, 3, hidden // heads)
    ins = [("x", x), ("w", w), ("bias", bias), ("", None), ("past", past)]
    m = one("Attention", ins, ("Y", "present"), [("w", w)], num_heads=heads, unidirectional=1)
    yield "Attention past present", m, feeds(ins, [("w", w)]), (1e-4, 1e-4)
    attn_bias = normal(rng, 1, heads, seq, seq)
    # (onnxruntime's CPU kernel needs the bias.)
    ins = [("x", x), ("w", w), ("bias", bias), ("mask", masks["2d"]), ("", None), ("ab", attn_bias)]
    init = [("w", w), ("bias", bias)]
    m = one("Attention", ins, ("Y",), init, num_heads=heads, scale=0.3)
    yield "Attention attention_bias, scale", m, feeds(ins, init), (1e-4, 1e-4)
    w2, b2 = normal(rng, hidden, 8 + 8 + 4), normal(rng, 8 + 8 + 4)
    ins = [("x", x), ("w", w2), ("bias", b2)]
    m = one("Attention", ins, ("Y",), ins[1:], num_heads=heads, qkv_hidden_sizes=[8, 8, 4])
    yield "Attention qkv_hidden_sizes", m, [x], (1e-4, 1e-4)

    q, k, v = normal(rng, batch, seq, hidden), normal(rng, batch, 5, hidden), normal(rng, batch, 5, hidden)
    pad = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)
    for with_bias, with_mask in [(False, False), (True, False), (False, True), (True, True)]:
        ins = [("q", q), ("k", k), ("v", v), ("bias", bias) if with_bias else ("", None),
               ("pad", pad) if with_mask else ("", None)]
        while ins[-1][0] == "":
            ins.pop()
        m = one("MultiHeadAttention", ins, ("Y",), num_heads=heads)
        yield f"MultiHeadAttention bias={with_bias} mask={with_mask}", m, feeds(ins), (1e-4, 1e-4)
    ks, vs = normal(rng, batch, seq, hidden), normal(rng, batch, seq, hidden)
    pk, pv = normal(rng, batch, heads, 3, hidden // heads), normal(rng, batch, heads, 3, hidden // heads)
    ins = [("q", q), ("k", ks), ("v", vs), ("", None), ("", None), ("", None), ("pk", pk), ("pv", pv)]
    m = one("MultiHeadAttention", ins, ("Y", "present_key", "present_value"), num_heads=heads,
            unidirectional=1)
    yield "MultiHeadAttention past unidirectional", m, feeds(ins), (1e-4, 1e-4)

    heads, kv_heads, size = 4, 2, 16
    for seq, past_len, window, rotary, packed, softcap in [
        (4, 0, -1, False, False, 0.0), (4, 0, 2, False, False, 0.0), (1, 5, -1, False, False, 0.0),
        (3, 2, -1, True, False, 0.0), (4, 0, -1, False, True, 0.0), (4, 0, -1, False, False, 2.0),
        (1, 5, -1, True, True, 0.0),
    ]:
        total = past_len + seq
        # (onnxruntime takes several new tokens after a past in batches of one.)
        batch = 1 if past_len and seq > 1 else 2
        qh = normal(rng, batch, seq, heads * size)
        kh, vh = normal(rng, batch, seq, kv_heads * size), normal(rng, batch, seq, kv_heads * size)
        if packed:
            ins = [("q", np.concatenate([qh, kh, vh], -1)), ("", None), ("", None)]
        else:
            ins = [("q", qh), ("k", kh), ("v", vh)]
        if past_len:
            ins += [("pk", normal(rng, batch, kv_heads, past_len, size)),
                    ("pv", normal(rng, batch, kv_heads, past_len, size))]
        else:
            ins += [("", None), ("", None)]
        ins += [("seqlens", np.full(batch, total - 1, np.int32)), ("total", np.array(total, np.int32))]
        attrs = dict(num_heads=heads, kv_num_heads=kv_heads, local_window_size=window)
        if softcap:
            attrs["softcap"] = softcap
        init = []
        if rotary:
            angles = np.arange(16)[:, None] * (1.0 / 10000 ** (np.arange(size // 2) / (size // 2)))
            cos, sin = np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)
            ins += [("cos", cos), ("sin", sin)]
            init = [("cos", cos), ("sin", sin)]
            attrs["do_rotary"] = 1
        outs = ("Y", "present_key", "present_value")
        name = (f"GroupQueryAttention seq={seq} past={past_len} window={window} rotary={rotary}"
                f" packed={packed} softcap={softcap}")
        yield name, one("GroupQueryAttention", ins, outs, init, **attrs), feeds(ins, init), (1e-4, 1e-4)

    angles = np.arange(16)[:, None] * (1.0 / 10000 ** (np.arange(4) / 4))
    cos, sin = np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)
    for shape, interleaved, ids, rotary_dim, heads in [
        ((2, 3, 16), 0, np.array([[0, 1, 2], [4, 5, 6]], np.int64), 0, 0),
        ((2, 3, 16), 1, np.array([2], np.int64), 0, 0),
        ((2, 2, 3, 8), 0, np.array([[1, 2, 3], [0, 1, 2]], np.int64), 0, 0),
        ((2, 2, 3, 8), 1, np.array([0], np.int64), 0, 0),
        ((2, 3, 24), 0, np.array([[0, 1, 2], [4, 5, 6]], np.int64), 8, 2),
    ]:
        xr = normal(rng, *shape)
        ins = [("x", xr), ("ids", ids), ("cos", cos), ("sin", sin)]
        init = [("cos", cos), ("sin", sin)]
        attrs = dict(interleaved=interleaved)
        if rotary_dim:
            attrs.update(rotary_embedding_dim=rotary_dim, num_heads=heads)
        name = f"RotaryEmbedding {shape} interleaved={interleaved} ids={ids.shape} dim={rotary_dim}"
        yield name, one("RotaryEmbedding", ins, ("Y",), init, **attrs), feeds(ins, init)


def half_variants(rng):
    """float16 inputs of the ops onnxruntime has float16 CPU kernels for
    (the others are skipped by name): the Gelus, the layer norms,
    MatMulNBits, the attentions, RotaryEmbedding; within float16's
    precision."""
    half = (1e-2, 1e-2)
    h = lambda *s: rng.standard_normal(s).astype(np.float16)
    x, bias = h(2, 3, 16), h(16)
    for op, ins in [("Gelu", [("X", x)]), ("FastGelu", [("X", x), ("bias", bias)]),
                    ("BiasGelu", [("A", x), ("B", bias)]), ("QuickGelu", [("X", x)])]:
        yield f"{op} float16", one(op, ins), feeds(ins), half
    skip, gamma, beta = h(2, 3, 16), h(16), h(16)
    ins = [("x", x), ("skip", skip), ("gamma", gamma), ("beta", beta), ("bias", bias)]
    m = one("SkipLayerNormalization", ins, ("Y", "", "", "S"), epsilon=1e-5)
    yield "SkipLayerNormalization float16", m, feeds(ins), half
    ins = [("x", x), ("skip", skip), ("gamma", gamma)]
    yield "SkipSimplifiedLayerNormalization float16", one("SkipSimplifiedLayerNormalization", ins), feeds(ins), half
    ins = [("X", x), ("scale", gamma)]
    m = one("SimplifiedLayerNormalization", ins, domain="", axis=-1, epsilon=1e-5)
    yield "SimplifiedLayerNormalization float16", m, feeds(ins), half
    k, n, block = 32, 6, 16
    packed = rng.integers(0, 256, (n, k // block, block // 2)).astype(np.uint8)
    scales = (rng.random((n, k // block)) * 0.1).astype(np.float16)
    a = h(2, 3, k)
    ins = [("A", a), ("B", packed), ("scales", scales)]
    m = one("MatMulNBits", ins, initializers=ins[1:], K=k, N=n, bits=4, block_size=block)
    yield "MatMulNBits float16", m, [a], half
    q, kk, v = h(2, 4, 8), h(2, 5, 8), h(2, 5, 8)
    ins = [("q", q), ("k", kk), ("v", v)]
    yield "MultiHeadAttention float16", one("MultiHeadAttention", ins, num_heads=2), feeds(ins), half
    heads, kv_heads, size = 4, 2, 16
    ins = [("q", h(2, 4, heads * size)), ("k", h(2, 4, kv_heads * size)), ("v", h(2, 4, kv_heads * size)),
           ("", None), ("", None), ("seqlens", np.full(2, 3, np.int32)), ("total", np.array(4, np.int32))]
    m = one("GroupQueryAttention", ins, ("Y", "present_key", "present_value"), num_heads=heads,
            kv_num_heads=kv_heads)
    yield "GroupQueryAttention float16", m, feeds(ins), half
    angles = np.arange(16)[:, None] * (1.0 / 10000 ** (np.arange(4) / 4))
    cos, sin = np.cos(angles).astype(np.float16), np.sin(angles).astype(np.float16)
    xr = h(2, 3, 16)
    ins = [("x", xr), ("ids", np.array([[0, 1, 2], [4, 5, 6]], np.int64)), ("cos", cos), ("sin", sin)]
    init = [("cos", cos), ("sin", sin)]
    yield "RotaryEmbedding float16", one("RotaryEmbedding", ins, ("Y",), init), feeds(ins, init), half


GENERATORS = [activation_variants, norm_variants, fused_variants, quant_variants, qconv_variants,
              matmul_variants, attention_variants, half_variants]


def typed(generate):
    """The variants of `generate` whose outputs are given the types and
    shapes onnxruntime computes (the compiler wants typed graph outputs);
    variants onnxruntime has no CPU kernel for are left out, each named."""

    def variants(rng):
        for name, m, inputs, *tolerance in generate(rng):
            path = Path(tempfile.mkdtemp()) / "model.onnx"
            onnx.save(m, path)
            try:
                session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
                outputs = session.run(None, {v.name: x for v, x in zip(m.graph.input, inputs)})
            except ort.capi.onnxruntime_pybind11_state.NotImplemented:
                print(f"skipped {name}: no onnxruntime CPU kernel")
                continue
            except Exception:
                print(f"onnxruntime refuses {name}")
                raise
            finally:
                path.unlink(missing_ok=True)
                path.parent.rmdir()
            for info, value in zip(m.graph.output, outputs):
                info.CopyFrom(helper.make_tensor_value_info(
                    info.name, helper.np_dtype_to_tensor_dtype(value.dtype), value.shape))
            yield (name, m, inputs, *tolerance)

    variants.__name__ = generate.__name__
    return variants


def main():
    flags = sys.argv[2:]
    only = [g for g in GENERATORS if any(g.__name__.startswith(f) for f in flags if not f.startswith("-"))]
    flags = [f for f in flags if f.startswith("-")]
    checked, failed = check_variants(sys.argv[1], [typed(g) for g in only or GENERATORS], flags)
    print(f"checked {checked} variants, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
