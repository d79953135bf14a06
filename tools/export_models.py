#!/usr/bin/env python3
"""Exports the real-model test corpus (`tests/models/`) from torch.

Needs torch, torchvision and transformers, so it is run by hand (e.g. with
/tmp/torchvenv/bin/python), never in CI; its output is checked in:

* `tests/models/<name>/model.onnx` — the exported graph with every large float
  initializer (> 1024 elements) moved to external data (`weights.bin`, which
  is *not* checked in), everything else (small and integer initializers,
  Constant nodes) inline and exact;
* `tests/models/<name>/weights.json` — the recipe `tools/materialize_models.py`
  uses to regenerate `weights.bin` deterministically: per tensor its dtype,
  dims, offset and length in `weights.bin`, and either the constant all its
  values had, or the mean, standard deviation, minimum and maximum of the
  original values (the materializer draws a seeded normal sample clipped to
  that range, so e.g. BatchNorm variances stay positive);
* `tests/models/default/` — a small self-contained CNN classifier (inline
  weights) for the demo, with one reference input/output pair computed by
  onnxruntime.

All models have random weights (`weights=None`, random configs) from a fixed
seed: nothing comes from a model hub. They are exported with the TorchScript
exporter (`dynamo=False`), which torch 2.15 still ships (with a
DeprecationWarning; the torch.export-based exporter is the default since 2.9):
it gives the classic graphs found in the wild — initializers named after
parameters or `onnx::Conv_NNN`, BatchNorm folded or kept, deduplicated
initializers behind `Identity` nodes, shape arithmetic as Constant/Shape/
Gather/Concat chains. (The torch.export-based exporter of torch 2.15 emits
opset 18 at least: asked for 17, its down-conversion fails in ONNX's version
converter and it keeps 18, with ReduceMean/Reshape where the classic graphs
have GlobalAveragePool/Flatten.) CNNs are exported with `TrainingMode.PRESERVE` on an
eval-mode model so that `BatchNormalization` stays in the graph (as in the
ONNX model zoo); their BatchNorm parameters and running statistics are randomized
first so that they are not the trivial identity.

Usage: export_models.py [--out tests/models] [name ...]   (default: all)
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import pathlib
import sys
import tempfile
import time
import warnings
from typing import Callable

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torchvision

from omlc_tools import models, recipes

REPO = pathlib.Path(__file__).resolve().parent.parent
OPSET = 17
SEED = 0


@dataclasses.dataclass
class Spec:
    """How to build and export one model."""

    description: str
    build: Callable[[], tuple[torch.nn.Module, tuple[torch.Tensor, ...]]]
    inputs: list[str]
    outputs: list[str]
    # Graph-input name -> {axis: dim_param}, for the symbolic-shape variants.
    dynamic_axes: dict[str, dict[int, str]] | None = None
    # Sizes the checker substitutes for the dim_params.
    dim_values: dict[str, int] | None = None
    # Integer inputs: the half-open range valid values come from.
    int_ranges: dict[str, tuple[int, int]] | None = None
    keep_batchnorm: bool = False


def randomize_batchnorm(model: torch.nn.Module) -> None:
    """Gives every BatchNorm trained-looking parameters and statistics (seeded).

    Fresh BatchNorms are the identity (scale 1, shift 0, mean 0, variance 1);
    the exporter would deduplicate those equal initializers behind Identity
    nodes, and the folding and numerics they exercise would be trivial.
    """
    gen = torch.Generator().manual_seed(SEED)
    for module in model.modules():
        if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
            n = module.num_features
            module.weight.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
            module.bias.copy_(torch.randn(n, generator=gen) * 0.1)
            module.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
            module.running_var.copy_(torch.rand(n, generator=gen) * 1.5 + 0.5)


def vision(ctor: Callable[..., torch.nn.Module]):
    """A torchvision classifier with random weights on one 224x224 image."""

    def build():
        torch.manual_seed(SEED)
        model = ctor(weights=None).eval()
        with torch.no_grad():
            randomize_batchnorm(model)
            if isinstance(model, torchvision.models.VisionTransformer):
                # torchvision zero-initializes the ViT head: every logit
                # would be 0 whatever the image.
                torch.nn.init.normal_(model.heads.head.weight, std=0.02)
        return model, (torch.randn(1, 3, 224, 224),)

    return build


class BertWrapper(torch.nn.Module):
    """BertModel with positional inputs and a tuple output, for tracing."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids, return_dict=False)


class Gpt2Wrapper(torch.nn.Module):
    """GPT2Model without key/value cache, returning the last hidden state."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False, return_dict=False)[0]


def build_bert():
    from transformers import BertConfig, BertModel

    torch.manual_seed(SEED)
    config = BertConfig(attn_implementation="eager")
    model = BertWrapper(BertModel(config)).eval()
    ids = torch.randint(0, config.vocab_size, (1, 128))
    mask = torch.ones(1, 128, dtype=torch.int64)
    types = torch.zeros(1, 128, dtype=torch.int64)
    return model, (ids, mask, types)


def build_gpt2():
    from transformers import GPT2Config, GPT2Model
    import transformers.masking_utils as masking_utils

    # Without an attention mask, transformers 5 looks for packed sequences in
    # the position ids with `torch.diff`, which the TorchScript exporter
    # cannot export. A single unpacked sequence is what we export anyway.
    masking_utils.find_packed_sequence_indices = lambda position_ids: None
    torch.manual_seed(SEED)
    config = GPT2Config(attn_implementation="eager")
    model = Gpt2Wrapper(GPT2Model(config)).eval()
    return model, (torch.randint(0, config.vocab_size, (1, 128)),)


class SmallCnn(torch.nn.Module):
    """The demo model: a CIFAR-sized classifier, 10 classes, ~70k parameters."""

    def __init__(self):
        super().__init__()

        def block(cin, cout, pool):
            layers = [torch.nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                      torch.nn.BatchNorm2d(cout), torch.nn.ReLU()]
            return layers + ([torch.nn.MaxPool2d(2)] if pool else [])

        self.features = torch.nn.Sequential(
            *block(3, 16, True), *block(16, 32, True), *block(32, 64, False),
            *block(64, 64, False), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten())
        self.classifier = torch.nn.Sequential(
            torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))

    def forward(self, image):
        return self.classifier(self.features(image))


def build_default():
    torch.manual_seed(SEED)
    model = SmallCnn().eval()
    with torch.no_grad():
        randomize_batchnorm(model)
    return model, (torch.randn(1, 3, 32, 32),)


BERT_IO = dict(
    inputs=["input_ids", "attention_mask", "token_type_ids"],
    outputs=["last_hidden_state", "pooler_output"],
    int_ranges={"input_ids": (0, 30522), "attention_mask": (1, 2), "token_type_ids": (0, 2)},
)

MODELS: dict[str, Spec] = {
    "default": Spec("small CNN classifier (demo), 1x3x32x32 -> 10 logits, inline weights",
                    build_default, ["image"], ["logits"], keep_batchnorm=True),
    "resnet50": Spec("torchvision resnet50(weights=None)", vision(torchvision.models.resnet50),
                     ["input"], ["logits"], keep_batchnorm=True),
    "resnet50_dynamic": Spec(
        "torchvision resnet50(weights=None), symbolic batch",
        vision(torchvision.models.resnet50), ["input"], ["logits"],
        dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}},
        dim_values={"batch": 2}, keep_batchnorm=True),
    "mobilenet_v2": Spec("torchvision mobilenet_v2(weights=None)",
                         vision(torchvision.models.mobilenet_v2), ["input"], ["logits"],
                         keep_batchnorm=True),
    "efficientnet_b0": Spec("torchvision efficientnet_b0(weights=None)",
                            vision(torchvision.models.efficientnet_b0), ["input"], ["logits"],
                            keep_batchnorm=True),
    "vit_b_16": Spec("torchvision vit_b_16(weights=None)", vision(torchvision.models.vit_b_16),
                     ["input"], ["logits"]),
    "bert_base": Spec("transformers BertModel(BertConfig()), random weights, eager attention, "
                      "batch 1, sequence 128", build_bert, **BERT_IO),
    "bert_base_dynamic": Spec(
        "transformers BertModel(BertConfig()), random weights, eager attention, "
        "symbolic batch and sequence", build_bert,
        dynamic_axes={name: {0: "batch", 1: "sequence"} for name in BERT_IO["inputs"]}
        | {"last_hidden_state": {0: "batch", 1: "sequence"}, "pooler_output": {0: "batch"}},
        dim_values={"batch": 2, "sequence": 64}, **BERT_IO),
    "gpt2": Spec("transformers GPT2Model(GPT2Config()), random weights, eager attention, "
                 "no past, batch 1, sequence 128", build_gpt2, ["input_ids"],
                 ["last_hidden_state"], int_ranges={"input_ids": (0, 50257)}),
}


def export(name: str, spec: Spec, path: pathlib.Path) -> tuple[torch.nn.Module, tuple]:
    """Exports the model with its weights to `path`; returns the module and example inputs."""
    model, args = spec.build()
    mode = torch.onnx.TrainingMode.PRESERVE if spec.keep_batchnorm else torch.onnx.TrainingMode.EVAL
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, str(path), opset_version=OPSET, dynamo=False,
                          input_names=spec.inputs, output_names=spec.outputs,
                          dynamic_axes=spec.dynamic_axes, training=mode,
                          do_constant_folding=True)
    # The exporter toggles the module's mode while it works; make sure the
    # reference run below is an inference run.
    model.eval()
    return model, args


def compare_with_torch(path: pathlib.Path, model: torch.nn.Module, args: tuple) -> float:
    """Runs the export in onnxruntime; returns the largest relative error against torch."""
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)}
    got = session.run(None, feeds)
    with torch.no_grad():
        want = model(*args)
    want = want if isinstance(want, tuple) else (want,)
    worst = 0.0
    for g, w in zip(got, want):
        w = w.numpy()
        if not np.isfinite(g).all():
            raise RuntimeError(f"{path}: non-finite output")
        worst = max(worst, float(np.abs(g - w).max() / (np.abs(w).max() + 1e-6)))
    return worst


def op_histogram(model: onnx.ModelProto) -> str:
    counts = collections.Counter(node.op_type for node in model.graph.node)
    return ", ".join(f"{op} {n}" for op, n in counts.most_common())


def save_reference(session_path: pathlib.Path, args: tuple, out: pathlib.Path) -> None:
    """One input/output pair, in the backend-test layout, computed by onnxruntime."""
    session = ort.InferenceSession(str(session_path), providers=["CPUExecutionProvider"])
    inputs = [a.numpy() for a in args]
    outputs = session.run(None, {i.name: a for i, a in zip(session.get_inputs(), inputs)})
    models.write_data_set(out / models.DATA_SET,
                          zip((i.name for i in session.get_inputs()), inputs),
                          zip((o.name for o in session.get_outputs()), outputs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=REPO / "tests" / "models")
    parser.add_argument("names", nargs="*", help=f"models to export: {', '.join(MODELS)}")
    args = parser.parse_args()
    names = args.names or list(MODELS)
    unknown = sorted(set(names) - set(MODELS))
    if unknown:
        parser.error(f"unknown model(s): {', '.join(unknown)}")

    for name in names:
        spec = MODELS[name]
        out = args.out / name
        out.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            full = pathlib.Path(tmp) / "model.onnx"
            model, example = export(name, spec, full)
            onnx.checker.check_model(str(full), full_check=True)
            error = compare_with_torch(full, model, example)
            proto = onnx.load(str(full))
            if name == "default":
                save_reference(full, example, out)
                onnx.save(proto, str(out / "model.onnx"))
                recipe = None
            else:
                recipe = {"description": spec.description,
                          "dim_values": spec.dim_values or {},
                          "int_ranges": {k: list(v) for k, v in (spec.int_ranges or {}).items()},
                          **recipes.strip_weights(proto)}
                onnx.save(proto, str(out / "model.onnx"))
                (out / "weights.json").write_text(recipes.dump(recipe))
        size = (out / "model.onnx").stat().st_size
        external = f", {len(recipe['tensors'])} external ({recipe['size'] / 2**20:.1f} MiB)" \
            if recipe else ""
        print(f"{name}: {len(proto.graph.node)} nodes, {len(proto.graph.initializer)} "
              f"initializers{external}; model.onnx {size / 1024:.0f} KiB; "
              f"rel. error vs torch {error:.1e}; {time.monotonic() - start:.1f}s")
        print(f"  ops: {op_histogram(proto)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
