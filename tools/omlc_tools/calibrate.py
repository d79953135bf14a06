"""Data-driven calibration of a model's regenerated random weights.

A zoo model is tested with weights regenerated from its recipe
(`recipes.py`): per tensor a seeded sample of the recorded distribution. In
a deep detector such weights lose the image: after a few dozen layers of
random convolutions, folded BatchNorms whose statistics no longer match
their inputs and ReLUs, the class logits are almost constant, every score is
~1/91 and the outputs' order is decided by float rounding, so no two correct
implementations agree on it. Trained weights are not available (nothing is
downloaded), so the export calibrates the regenerated ones the way a
BatchNorm would, layer-wise sequential unit-variance initialization (LSUV,
Mishkin & Matas 2016): in graph order, each Conv/ConvTranspose/Gemm whose
weight is an initializer gets its output, measured in onnxruntime on the
model's seeded inputs at its test sizes (drawn like the test's, from
another seed), scaled to unit variance and, with `center`,
shifted to zero mean per output channel.

Centering is what a BatchNorm does, and it is what brings a detector's
scores back to the image; but a random ReLU network whose every layer is
centered is chaotic (a mean-field result for batch-normalized networks):
rounding errors grow layer by layer. A single-stage detector's outputs
are smooth in its features and bear it; a two-stage one samples its
features at the proposals' coordinates (RoIAlign), where that noise
becomes a different feature, so onnxruntime's own optimized and plain
graphs disagree on its detections. Those are calibrated in scale only,
which keeps them within 1e-6 of each other.

The result must survive the recipe, so only what the recipe keeps exactly
is changed: a regenerated weight is scaled through its recipe (mean, standard
deviation and range times `k` regenerate the same sample times `k`), and the
shift goes into the node's bias, an inline initializer of its own. Nodes
that share a weight (a detection head applied to every pyramid level) are
calibrated together, on the statistics of all their outputs.
"""
from __future__ import annotations

from typing import Callable

from omlc_tools import recipes

# Ops calibrated: weight at input 1, optional per-channel bias at input 2,
# output channels on axis 1.
CALIBRATED = ("Conv", "ConvTranspose", "Gemm")


def scale_recipe(spec: dict, k: float) -> None:
    """Scales a float tensor's recipe by `k > 0`: the regenerated sample scales with it."""
    if spec["init"] == "constant":
        spec["value"] *= k
    else:
        for key in ("mean", "std", "min", "max"):
            spec[key] *= k


def calibrate(model, recipe: dict, feeds: list[dict], center: bool = True,
              log: Callable[[str], None] = print) -> int:
    """Calibrates `model` (large initializers external, as `strip_weights`
    left it) in place, with `recipe` (updated); `feeds` are the input sets
    the statistics are taken on; `center` shifts each output channel to
    zero mean. Returns how many weights were calibrated."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    external = {name: recipes.regenerate(name, spec) for name, spec in recipe["tensors"].items()}
    producers = {o: n for n in graph.node for o in n.output}
    uses: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            uses[name] = uses.get(name, 0) + 1

    def array(name: str):
        """The value of an initializer, through Identity nodes (shared constants)."""
        while name not in inits and name in producers and producers[name].op_type == "Identity":
            name = producers[name].input[0]
        if name in external:
            return external[name]
        return numpy_helper.to_array(inits[name]) if name in inits else None

    # Weight -> the nodes that use it, in graph order.
    groups: dict[str, list] = {}
    for node in graph.node:
        if node.op_type in CALIBRATED and len(node.input) > 1 and node.input[1] in inits:
            groups.setdefault(node.input[1], []).append(node)
    calibrated = 0
    for weight, nodes in groups.items():
        if uses[weight] != len(nodes) or weight in recipe["tensors"] and \
                recipe["tensors"][weight]["dtype"] != "float32":
            continue
        biases = {node.input[2] if len(node.input) > 2 else "" for node in nodes}
        betas = {next((a.f for a in node.attribute if a.name == "beta"), 1.0) for node in nodes}
        if len(biases) > 1 or len(betas) > 1 or 0.0 in betas:
            continue
        bias, beta = biases.pop(), betas.pop()
        outputs = measure(model, external, [node.output[0] for node in nodes], feeds)
        if not outputs:
            continue
        rows = np.concatenate([np.moveaxis(y, 1, 0).reshape(y.shape[1], -1) for y in outputs],
                              axis=1).astype(np.float64)
        mean = rows.mean(axis=1) if center else np.zeros(len(rows))
        std = float((rows - mean[:, None]).std())
        if not std > 0:
            continue
        k = 1.0 / std
        if weight in recipe["tensors"]:
            scale_recipe(recipe["tensors"][weight], k)
            external[weight] = recipes.regenerate(weight, recipe["tensors"][weight])
        else:
            values = numpy_helper.to_array(inits[weight])
            inits[weight].CopyFrom(numpy_helper.from_array((values * k).astype(values.dtype),
                                                           weight))
        # Gemm adds beta times its bias.
        old = beta * array(bias).astype(np.float64) if bias else np.zeros_like(mean)
        shifted = ((old - mean) * k / beta).astype(np.float32)
        name = f"{weight}.calibrated_bias"
        graph.initializer.append(numpy_helper.from_array(shifted, name))
        inits[name] = graph.initializer[-1]
        for node in nodes:
            while len(node.input) < 3:
                node.input.append("")
            node.input[2] = name
        calibrated += 1
        log(f"  {weight}: x{k:.3g} over {len(nodes)} node(s)")
    # The biases the calibrated ones replaced.
    used = {name for node in graph.node for name in node.input}
    for init in [i for i in graph.initializer if i.name not in used]:
        graph.initializer.remove(init)
        recipe["tensors"].pop(init.name, None)
    recipe["size"] = max((t["offset"] + t["length"] for t in recipe["tensors"].values()), default=0)
    onnx.checker.check_model(with_arrays(model, external))
    return calibrated


def with_arrays(model, external: dict):
    """A copy of `model` with its external initializers inline, from `external`."""
    import onnx
    from onnx import numpy_helper

    full = onnx.ModelProto()
    full.CopyFrom(model)
    for init in full.graph.initializer:
        if init.name in external:
            init.CopyFrom(numpy_helper.from_array(external[init.name], init.name))
    return full


def measure(model, external: dict, names: list[str], feeds: list[dict]) -> list:
    """The values `names` take in onnxruntime on every input set (empty ones left out)."""
    import onnx
    import onnxruntime as ort
    from onnx import helper

    probe = with_arrays(model, external)
    del probe.graph.output[:]
    for name in names:
        probe.graph.output.append(helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT,
                                                                None))
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(probe.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    values = [value for feed in feeds for value in session.run(None, feed)]
    return [value for value in values if value.size]
