#!/usr/bin/env python3
"""Exports the model zoo (`tests/zoo/`): real exported models, random weights.

The zoo is the yardstick of models as users export them: torchvision's
families through both torch exporters (the TorchScript one, `dynamo=False`,
opset 17, and the torch.export-based one, opset 18), transformers' encoders,
decoders and encoder-decoders (small configs), scikit-learn estimators and
pipelines through skl2onnx, and onnxruntime's quantization and transformer
optimizer and onnxconverter-common's float16 conversion applied to some of
them. Every model keeps the dynamic axes a user would export it with.

Needs torch, torchvision, transformers, scikit-learn, skl2onnx, onnxscript,
onnxruntime and onnxconverter-common (pinned in `tools/zoo-requirements.txt`:
install them in a venv of their own, e.g.
`python3 -m venv /tmp/zoovenv && /tmp/zoovenv/bin/pip install -r tools/zoo-requirements.txt`),
so it is run by hand, never in CI. Nothing is downloaded: weights are random
(`weights=None`, configs built here) from fixed seeds. It writes, per model,

* `tests/zoo/<family>/<name>/model.onnx` — the graph, its large float (and
  quantized 8-bit) initializers as external data in `weights.bin`, which is
  not checked in (`omlc_tools/recipes.py`);
* `tests/zoo/<family>/<name>/weights.json` — the recipe of those weights plus
  the model's facts: description, source, exporter, opset, the two `sizes`
  to test (dim values of each dynamic dim, `<input>:<axis>` for a dim without
  a name), integer input ranges, string input vocabularies, the tolerance,
  and which modes the CI subset runs;

and `tests/zoo/models.tsv`, the index the `zoo` test reads (made from every
`weights.json`). `tools/setup.sh` regenerates the weights
(`tools/materialize_models.py`) and onnxruntime's outputs at each size
(`tools/reference.py models`) into `.cache/zoo/`.

Usage: export_zoo.py [--out tests/zoo] [--list] [--facts-only] [name-or-family ...]   (default: all)
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import inspect
import json
import pathlib
import sys
import tempfile
import time
import warnings
from typing import Callable

import numpy as np
import onnx

from omlc_tools import calibrate, recipes

REPO = pathlib.Path(__file__).resolve().parent.parent
SEED = 0
LEGACY = "torch.onnx TorchScript"
DYNAMO = "torch.onnx dynamo"


@dataclasses.dataclass
class Model:
    """How to make one zoo model, and what its test needs."""

    family: str
    name: str
    description: str
    source: str
    exporter: str
    # Returns the model with its weights inline.
    build: Callable[[], onnx.ModelProto]
    # Dim values of each tested size: dim_param (or `<input>:<axis>`) -> value.
    sizes: list[dict[str, int]] = dataclasses.field(default_factory=lambda: [{}])
    int_ranges: dict[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    string_values: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    rtol: float = 1e-3
    atol: float = 1e-4
    # Modes of the CI subset (at the first size); the full run does jit and aot at every size.
    ci: str = "jit"
    # Externalize large 8-bit integer initializers too (quantized weights).
    int_weights: bool = False
    # Calibrate the regenerated weights on seeded inputs of the test sizes
    # (`omlc_tools/calibrate.py`), centering each output channel too with `center`.
    calibrate: bool = False
    center: bool = True
    # Lists of detections: the output (index) whose descending values order
    # the rows of every output (the zoo test lets rows tied on it swap).
    ranked: int | None = None

    @property
    def id(self) -> str:
        return f"{self.family}/{self.name}"


ZOO: list[Model] = []
_BUILT: dict[str, onnx.ModelProto] = {}


def add(model: Model) -> None:
    ZOO.append(model)


def built(model_id: str) -> onnx.ModelProto:
    """A zoo model's full graph (weights inline), built once per run."""
    if model_id not in _BUILT:
        spec = next(m for m in ZOO if m.id == model_id)
        _BUILT[model_id] = spec.build()
    proto = onnx.ModelProto()
    proto.CopyFrom(_BUILT[model_id])
    return proto


# ---------------------------------------------------------------------------
# torch


def torch_export(module, args: tuple, inputs: list[str], outputs: list[str],
                 dynamic: dict[str, dict[int, str]], dynamo: bool = False,
                 opset: int | None = None, keep_batchnorm: bool = False) -> onnx.ModelProto:
    """The module exported by one of torch's exporters, weights inline."""
    import torch

    module.eval()
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = pathlib.Path(tmp) / "model.onnx"
        if dynamo:
            # Dims named by the input axes' names (shared names, shared dims).
            dims = {name: torch.export.Dim(name) for axes in dynamic.values()
                    for name in axes.values()}
            shapes = tuple({a: dims[n] for a, n in dynamic.get(i, {}).items()} for i in inputs)
            params = inspect.signature(module.forward).parameters.values()
            if any(p.kind == p.VAR_POSITIONAL for p in params):
                shapes = (shapes,)
            torch.onnx.export(module, args, str(path), dynamo=True, opset_version=opset or 18,
                              input_names=inputs, output_names=outputs,
                              dynamic_shapes=shapes, verbose=False)
        else:
            mode = torch.onnx.TrainingMode.PRESERVE if keep_batchnorm else \
                torch.onnx.TrainingMode.EVAL
            torch.onnx.export(module, args, str(path), dynamo=False, opset_version=opset or 17,
                              input_names=inputs, output_names=outputs,
                              dynamic_axes=dynamic or None, training=mode,
                              do_constant_folding=True)
        module.eval()
        return onnx.load(str(path))


def randomize_batchnorm(model) -> None:
    """Trained-looking BatchNorm parameters and statistics (seeded), as
    tools/export_models.py does: fresh ones are the identity."""
    import torch

    gen = torch.Generator().manual_seed(SEED)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.modules.batchnorm._BatchNorm) and module.affine:
                n = module.num_features
                module.weight.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                module.bias.copy_(torch.randn(n, generator=gen) * 0.1)
                if module.running_mean is not None:
                    module.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
                    module.running_var.copy_(torch.rand(n, generator=gen) * 1.5 + 0.5)


def unzero_heads(model) -> None:
    """Re-initializes zero-initialized final layers (ViT's head, ...): every
    logit would be 0 whatever the input."""
    import torch

    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Linear) and not module.weight.any():
                torch.nn.init.normal_(module.weight, std=0.02)


def torchvision_model(ctor: str, **kwargs):
    import torch
    import torchvision

    torch.manual_seed(SEED)
    modules = [torchvision.models, torchvision.models.detection, torchvision.models.segmentation,
               torchvision.models.video, torchvision.models.optical_flow]
    make = next(getattr(m, ctor) for m in modules if hasattr(m, ctor))
    model = make(weights=None, **kwargs).eval()
    randomize_batchnorm(model)
    unzero_heads(model)
    return model


BATCH_SIZES = [{"batch": 1}, {"batch": 2}]


def classifier(ctor: str, dynamo: bool = False, image: int = 224, ci: str = "jit",
               note: str = "", rtol: float = 1e-3, **kwargs) -> Model:
    """A torchvision classifier with a dynamic batch."""

    def build():
        import torch

        model = torchvision_model(ctor, **kwargs)
        return torch_export(model, (torch.randn(1, 3, image, image),), ["input"], ["logits"],
                            {"input": {0: "batch"}, "logits": {0: "batch"}}, dynamo=dynamo,
                            keep_batchnorm=not dynamo)

    exporter = DYNAMO if dynamo else LEGACY
    family = "vision-dynamo" if dynamo else "vision"
    return Model(family, ctor, f"torchvision {ctor}(weights=None){note}, 1x3x{image}x{image} "
                 "images, dynamic batch", "torchvision", exporter, build, BATCH_SIZES, ci=ci,
                 rtol=rtol)


def detection(ctor: str, keys: list[str], size: int, second: tuple[int, int],
              dynamo: bool = False, ci: str = "jit", center: bool = True, **kwargs) -> Model:
    """A torchvision detector on one image of dynamic height and width (the
    model resizes it to its own `min_size`); score threshold 0 so that random
    weights still detect something, and those weights calibrated on seeded
    images of the test sizes (`omlc_tools/calibrate.py`, centered unless not
    `center`) so that the scores depend on the image.

    The second size (`second`, height and width) is one the model resizes by
    a power of two: at other factors onnxruntime's float32 Resize
    coordinates are off by up to 3e-4 (onnx-mlc's by 2e-7 from the exact
    result), and a random-weight detector amplifies that into a different
    order of its detections."""

    def build():
        import torch

        class Wrapper(torch.nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def forward(self, image):
                out = self.model([image])[0]
                return tuple(out[k] for k in keys)

        # Faster/Mask/Keypoint R-CNN name the threshold `box_score_thresh`,
        # RetinaNet, FCOS and SSD `score_thresh`.
        threshold = "box_score_thresh" if "rcnn" in ctor else "score_thresh"
        model = torchvision_model(ctor, weights_backbone=None, **{threshold: 0.0}, **kwargs)
        axes = {"image": {1: "height", 2: "width"}} | {k: {0: "detections"} for k in keys}
        return torch_export(Wrapper(model), (torch.rand(3, size, size),), ["image"], keys, axes,
                            dynamo=dynamo, opset=17 if not dynamo else 18)

    return Model("detection", ctor, f"torchvision {ctor}(weights=None, weights_backbone=None), "
                 f"score threshold 0, weights calibrated on seeded images, one 3xHxW image "
                 f"(dynamic height and width) -> {', '.join(keys)}", "torchvision",
                 DYNAMO if dynamo else LEGACY, build,
                 [{"height": size, "width": size}, {"height": second[0], "width": second[1]}],
                 rtol=1e-3, atol=1e-3, ci=ci, calibrate=True, center=center,
                 ranked=keys.index("scores"))


def segmentation(ctor: str, **kwargs) -> Model:
    def build():
        import torch

        class Wrapper(torch.nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def forward(self, image):
                return self.model(image)["out"]

        model = torchvision_model(ctor, weights_backbone=None, **kwargs)
        axes = {"input": {0: "batch", 2: "height", 3: "width"},
                "out": {0: "batch", 2: "height", 3: "width"}}
        return torch_export(Wrapper(model), (torch.randn(1, 3, 224, 224),), ["input"], ["out"],
                            axes, keep_batchnorm=True)

    return Model("segmentation", ctor, f"torchvision {ctor}(weights=None, weights_backbone=None)"
                 ", dynamic batch, height and width", "torchvision", LEGACY, build,
                 [{"batch": 1, "height": 224, "width": 224},
                  {"batch": 2, "height": 160, "width": 192}], atol=1e-3)


def video(ctor: str) -> Model:
    def build():
        import torch

        model = torchvision_model(ctor)
        axes = {"clip": {0: "batch", 2: "frames"}, "logits": {0: "batch"}}
        return torch_export(model, (torch.randn(1, 3, 8, 112, 112),), ["clip"], ["logits"], axes,
                            keep_batchnorm=True)

    return Model("video", ctor, f"torchvision video {ctor}(weights=None), 3x<frames>x112x112 "
                 "clips, dynamic batch and frames", "torchvision", LEGACY, build,
                 [{"batch": 1, "frames": 8}, {"batch": 2, "frames": 4}], atol=1e-3)


def raft_small() -> Model:
    def build():
        import torch

        class Wrapper(torch.nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def forward(self, image1, image2):
                return self.model(image1, image2, num_flow_updates=4)[-1]

        model = torchvision_model("raft_small")
        axes = {"image1": {0: "batch"}, "image2": {0: "batch"}, "flow": {0: "batch"}}
        images = (torch.randn(1, 3, 128, 128), torch.randn(1, 3, 128, 128))
        return torch_export(Wrapper(model), images, ["image1", "image2"], ["flow"], axes,
                            opset=17)

    return Model("flow", "raft_small", "torchvision raft_small(weights=None), 4 flow updates, "
                 "two 1x3x128x128 images, dynamic batch", "torchvision", LEGACY, build,
                 BATCH_SIZES, atol=1e-3)


# ---------------------------------------------------------------------------
# transformers

TEXT = dict(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=128, max_position_embeddings=128)
TEXT_SIZES = [{"batch": 1, "sequence": 16}, {"batch": 2, "sequence": 24}]


def hf_module(model, names: list[str], outputs: list[str], **fixed):
    """A transformers model with positional tensor inputs and a tuple of outputs."""
    import torch

    class Wrapper(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *args):
            out = self.model(**dict(zip(names, args)), **fixed, return_dict=True)
            return tuple(out[k] for k in outputs)

    return Wrapper().eval()


def no_packed_sequences() -> None:
    """transformers 5 looks for packed sequences in the position ids with
    `torch.diff` when no attention mask is given, which the TorchScript
    exporter cannot export (tools/export_models.py does the same)."""
    import transformers.masking_utils as masking_utils

    masking_utils.find_packed_sequence_indices = lambda position_ids: None


def text_model(name: str, make: Callable, inputs: list[str], outputs: list[str],
               dynamo: bool = False, note: str = "", ranges: dict | None = None,
               atol: float = 1e-4, ci: str = "jit", **fixed) -> Model:
    """A transformers text model, batch and sequence dynamic."""
    int_ranges = {"input_ids": (0, 1000), "attention_mask": (1, 2), "token_type_ids": (0, 2),
                  "decoder_input_ids": (0, 1000)}
    int_ranges = {k: v for k, v in int_ranges.items() if k in inputs} | (ranges or {})

    def build():
        import torch

        no_packed_sequences()
        torch.manual_seed(SEED)
        model = make().eval()
        unzero_heads(model)
        args = tuple(torch.randint(*int_ranges[i], (1, 16)) for i in inputs)
        axes = {i: {0: "batch", 1: "sequence"} for i in inputs}
        axes |= {o: {0: "batch"} | ({} if o == "pooler_output" else {1: "sequence"})
                 for o in outputs}
        return torch_export(hf_module(model, inputs, outputs, **fixed), args, inputs, outputs,
                            axes, dynamo=dynamo)

    family = "text-dynamo" if dynamo else "text"
    return Model(family, name, f"transformers {name}{note}, random weights, small config "
                 "(hidden 64, 2 layers), dynamic batch and sequence", "transformers",
                 DYNAMO if dynamo else LEGACY, build, TEXT_SIZES, int_ranges, atol=atol, ci=ci)


def bert():
    from transformers import BertConfig, BertModel
    return BertModel(BertConfig(**TEXT, attn_implementation="eager"))


def roberta():
    from transformers import RobertaConfig, RobertaModel
    return RobertaModel(RobertaConfig(**TEXT | {"max_position_embeddings": 130},
                                      attn_implementation="eager"))


def xlm_roberta():
    from transformers import XLMRobertaConfig, XLMRobertaModel
    return XLMRobertaModel(XLMRobertaConfig(**TEXT | {"max_position_embeddings": 130},
                                            attn_implementation="eager"))


def distilbert():
    from transformers import DistilBertConfig, DistilBertModel
    return DistilBertModel(DistilBertConfig(vocab_size=1000, dim=64, n_layers=2, n_heads=4,
                                            hidden_dim=128, max_position_embeddings=128,
                                            attn_implementation="eager"))


def albert():
    from transformers import AlbertConfig, AlbertModel
    return AlbertModel(AlbertConfig(**TEXT, embedding_size=32, attn_implementation="eager"))


def electra():
    from transformers import ElectraConfig, ElectraModel
    return ElectraModel(ElectraConfig(**TEXT, embedding_size=32, attn_implementation="eager"))


def deberta_v2():
    from transformers import DebertaV2Config, DebertaV2Model
    return DebertaV2Model(DebertaV2Config(**TEXT, relative_attention=True,
                                          position_buckets=32, max_relative_positions=64,
                                          pos_att_type=["p2c", "c2p"], type_vocab_size=0))


def gpt2():
    from transformers import GPT2Config, GPT2Model
    return GPT2Model(GPT2Config(vocab_size=1000, n_embd=64, n_layer=2, n_head=4, n_positions=128,
                                attn_implementation="eager"))


def gpt_neo():
    from transformers import GPTNeoConfig, GPTNeoModel
    return GPTNeoModel(GPTNeoConfig(vocab_size=1000, hidden_size=64, num_layers=2, num_heads=4,
                                    attention_types=[[["global", "local"], 1]], window_size=8,
                                    max_position_embeddings=128, intermediate_size=128,
                                    attn_implementation="eager"))


def llama():
    from transformers import LlamaConfig, LlamaForCausalLM
    return LlamaForCausalLM(LlamaConfig(**TEXT, num_key_value_heads=2,
                                        attn_implementation="eager"))


def mistral():
    from transformers import MistralConfig, MistralForCausalLM
    return MistralForCausalLM(MistralConfig(**TEXT, num_key_value_heads=2, sliding_window=8,
                                            attn_implementation="eager"))


def bart():
    from transformers import BartConfig, BartModel
    return BartModel(BartConfig(vocab_size=1000, d_model=64, encoder_layers=2, decoder_layers=2,
                                encoder_attention_heads=4, decoder_attention_heads=4,
                                encoder_ffn_dim=128, decoder_ffn_dim=128,
                                max_position_embeddings=128, attn_implementation="eager"))


def clip_text():
    from transformers import CLIPTextConfig, CLIPTextModel
    return CLIPTextModel(CLIPTextConfig(**TEXT, attn_implementation="eager"))


T5_CONFIG = dict(vocab_size=1000, d_model=64, d_kv=16, num_heads=4, d_ff=128, num_layers=2,
                 num_decoder_layers=2, relative_attention_num_buckets=32,
                 relative_attention_max_distance=64)


def t5_encoder():
    from transformers import T5Config, T5EncoderModel
    return T5EncoderModel(T5Config(**T5_CONFIG))


def t5_encoder_static() -> Model:
    """T5's encoder at a fixed sequence of 128: the relative-position buckets
    fold to a 128x128 constant."""

    def build():
        import torch

        torch.manual_seed(SEED)
        module = hf_module(t5_encoder().eval(), ["input_ids"], ["last_hidden_state"])
        return torch_export(module, (torch.randint(0, 1000, (1, 128)),), ["input_ids"],
                            ["last_hidden_state"], {})

    return Model("text", "t5_encoder_static", "transformers T5EncoderModel, random weights, "
                 "small config, static 1x128 input_ids (relative-position buckets fold to a "
                 "128x128 constant)", "transformers", LEGACY, build,
                 int_ranges={"input_ids": (0, 1000)})


def t5_decoder_with_past() -> Model:
    """One decoding step of T5: the new token, the encoder's states and the
    self- and cross-attention keys and values of the steps before."""
    layers, heads, dk = T5_CONFIG["num_decoder_layers"], T5_CONFIG["num_heads"], T5_CONFIG["d_kv"]

    def build():
        import torch
        from transformers import T5Config, T5ForConditionalGeneration
        from transformers.cache_utils import DynamicCache, EncoderDecoderCache

        torch.manual_seed(SEED)
        model = T5ForConditionalGeneration(T5Config(**T5_CONFIG)).eval()

        class Step(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, input_ids, encoder_hidden_states, *past):
                self_cache, cross_cache = DynamicCache(), DynamicCache()
                for i in range(layers):
                    self_cache.update(past[4 * i], past[4 * i + 1], i)
                    cross_cache.update(past[4 * i + 2], past[4 * i + 3], i)
                cache = EncoderDecoderCache(self_cache, cross_cache)
                out = self.model.decoder(input_ids=input_ids,
                                         encoder_hidden_states=encoder_hidden_states,
                                         past_key_values=cache, use_cache=True, return_dict=True)
                logits = self.model.lm_head(out.last_hidden_state * (T5_CONFIG["d_model"] ** -0.5))
                present = out.past_key_values.self_attention_cache
                return (logits, *[t for i in range(layers)
                                  for t in (present.layers[i].keys, present.layers[i].values)])

        past_names, present_names, args = [], [], []
        axes = {"input_ids": {0: "batch"}, "encoder_hidden_states": {0: "batch", 1: "encoder"},
                "logits": {0: "batch"}}
        for i in range(layers):
            for kind, length in (("self_key", "past"), ("self_value", "past"),
                                 ("cross_key", "encoder"), ("cross_value", "encoder")):
                name = f"past_{i}_{kind}"
                past_names.append(name)
                axes[name] = {0: "batch", 2: length}
                args.append(torch.randn(1, heads, 5 if length == "past" else 7, dk))
            for kind in ("key", "value"):
                present_names.append(f"present_{i}_{kind}")
                axes[present_names[-1]] = {0: "batch", 2: "past_plus_1"}
        inputs = (torch.randint(0, 1000, (1, 1)), torch.randn(1, 7, T5_CONFIG["d_model"]), *args)
        return torch_export(Step(), inputs, ["input_ids", "encoder_hidden_states", *past_names],
                            ["logits", *present_names], axes)

    return Model("text", "t5_decoder_with_past", "transformers T5ForConditionalGeneration's "
                 "decoder and LM head, one step with past self/cross keys and values "
                 "(random weights, small config), dynamic batch, past and encoder lengths",
                 "transformers", LEGACY, build,
                 [{"batch": 1, "past": 5, "encoder": 7}, {"batch": 2, "past": 9, "encoder": 12}],
                 {"input_ids": (0, 1000)}, atol=1e-3)


def vision_transformer(name: str, make: Callable, image: int, ci: str = "jit") -> Model:
    def build():
        import torch

        torch.manual_seed(SEED)
        model = make().eval()
        unzero_heads(model)
        module = hf_module(model, ["pixel_values"], ["last_hidden_state", "pooler_output"])
        axes = {"pixel_values": {0: "batch"}, "last_hidden_state": {0: "batch"},
                "pooler_output": {0: "batch"}}
        return torch_export(module, (torch.randn(1, 3, image, image),), ["pixel_values"],
                            ["last_hidden_state", "pooler_output"], axes)

    return Model("text", name, f"transformers {name}, random weights, small config (hidden 64, "
                 f"2 layers), 3x{image}x{image} images, dynamic batch", "transformers", LEGACY,
                 build, BATCH_SIZES, atol=1e-4, ci=ci)


VIT = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
           image_size=64, patch_size=16)


def vit():
    from transformers import ViTConfig, ViTModel
    return ViTModel(ViTConfig(**VIT, attn_implementation="eager"))


def deit():
    from transformers import DeiTConfig, DeiTModel
    return DeiTModel(DeiTConfig(**VIT, attn_implementation="eager"))


def clip_vision():
    from transformers import CLIPVisionConfig, CLIPVisionModel
    return CLIPVisionModel(CLIPVisionConfig(**VIT, attn_implementation="eager"))


def whisper_encoder() -> Model:
    def build():
        import torch
        from transformers import WhisperConfig, WhisperModel

        torch.manual_seed(SEED)
        config = WhisperConfig(vocab_size=1000, d_model=64, encoder_layers=2, decoder_layers=2,
                               encoder_attention_heads=4, decoder_attention_heads=4,
                               encoder_ffn_dim=128, decoder_ffn_dim=128, num_mel_bins=80,
                               max_source_positions=64, max_target_positions=64,
                               pad_token_id=0, bos_token_id=1, eos_token_id=2,
                               decoder_start_token_id=1, attn_implementation="eager")
        encoder = WhisperModel(config).get_encoder().eval()
        module = hf_module(encoder, ["input_features"], ["last_hidden_state"])
        axes = {"input_features": {0: "batch"}, "last_hidden_state": {0: "batch"}}
        return torch_export(module, (torch.randn(1, 80, 128),), ["input_features"],
                            ["last_hidden_state"], axes)

    return Model("audio", "whisper_encoder", "transformers WhisperModel's encoder, random "
                 "weights, small config (d_model 64, 2 layers, 64 positions), 80x128 log-mel "
                 "features, dynamic batch", "transformers", LEGACY, build, BATCH_SIZES, atol=1e-3)


def wav2vec2() -> Model:
    def build():
        import torch
        from transformers import Wav2Vec2Config, Wav2Vec2Model

        torch.manual_seed(SEED)
        config = Wav2Vec2Config(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                                intermediate_size=128, conv_dim=(32,) * 7,
                                num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
                                attn_implementation="eager")
        model = Wav2Vec2Model(config).eval()
        module = hf_module(model, ["input_values"], ["last_hidden_state"])
        axes = {"input_values": {0: "batch", 1: "samples"},
                "last_hidden_state": {0: "batch", 1: "frames"}}
        return torch_export(module, (torch.randn(1, 4000),), ["input_values"],
                            ["last_hidden_state"], axes)

    return Model("audio", "wav2vec2", "transformers Wav2Vec2Model, random weights, small config "
                 "(hidden 64, 2 layers, 32-channel feature encoder), dynamic batch and samples",
                 "transformers", LEGACY, build,
                 [{"batch": 1, "samples": 4000}, {"batch": 2, "samples": 6400}], atol=1e-3)


# ---------------------------------------------------------------------------
# scikit-learn


def sklearn_model(name: str, description: str, make: Callable, data: str = "classes",
                  zipmap: bool = True, rtol: float = 1e-4, atol: float = 1e-4,
                  ci: str = "jit,aot") -> Model:
    """An estimator fit on seeded synthetic data, converted by skl2onnx with
    a dynamic (unnamed) batch dim; classifiers keep skl2onnx's ZipMap
    unless `zipmap` is False."""

    def build():
        from skl2onnx import to_onnx

        rng = np.random.default_rng(SEED)
        x = rng.standard_normal((200, 6)).astype(np.float32)
        y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1).astype(np.int64)
        if data == "regression":
            y = (x @ rng.standard_normal(6)).astype(np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            estimator = make().fit(x, y)
        options = None if zipmap else {id(estimator): {"zipmap": False}}
        return to_onnx(estimator, x[:1], target_opset=17, options=options)

    return Model("sklearn", name, f"scikit-learn {description} (skl2onnx), 6 float features, "
                 "dynamic batch", "scikit-learn", "skl2onnx", build,
                 [{"X:0": 1}, {"X:0": 5}], rtol=rtol, atol=atol, ci=ci)


def sklearn_column_transformer() -> Model:
    """A column transformer over a string and two float columns (one-hot and
    scaling) into a logistic regression, with ZipMap."""
    cities = ["paris", "tokyo", "lima", "oslo"]

    def build():
        import pandas as pd
        from skl2onnx import to_onnx
        from skl2onnx.common.data_types import FloatTensorType, StringTensorType
        from sklearn.compose import ColumnTransformer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import Pipeline
        from sklearn.preprocessing import OneHotEncoder, StandardScaler

        rng = np.random.default_rng(SEED)
        frame = pd.DataFrame({"city": rng.choice(cities, 200),
                              "x0": rng.standard_normal(200).astype(np.float32),
                              "x1": rng.standard_normal(200).astype(np.float32)})
        y = ((frame.city == "oslo") ^ (frame.x0 > 0)).astype(np.int64)
        pipe = Pipeline([("columns", ColumnTransformer([
            ("onehot", OneHotEncoder(handle_unknown="ignore"), ["city"]),
            ("scale", StandardScaler(), ["x0", "x1"])])), ("classify", LogisticRegression())])
        pipe.fit(frame, y)
        types = [("city", StringTensorType([None, 1])), ("x0", FloatTensorType([None, 1])),
                 ("x1", FloatTensorType([None, 1]))]
        return to_onnx(pipe, initial_types=types, target_opset=17)

    sizes = [{f"{i}:0": n for i in ("city", "x0", "x1")} for n in (1, 5)]
    return Model("sklearn", "column_transformer_strings", "scikit-learn ColumnTransformer "
                 "(OneHotEncoder on a string column, StandardScaler on two float columns) + "
                 "LogisticRegression with ZipMap (skl2onnx), dynamic batch", "scikit-learn",
                 "skl2onnx", build, sizes, string_values={"city": cities}, ci="jit,aot")


def sklearn_onehot() -> Model:
    words = ["red", "green", "blue"]

    def build():
        from skl2onnx import to_onnx
        from skl2onnx.common.data_types import StringTensorType
        from sklearn.preprocessing import OneHotEncoder

        rng = np.random.default_rng(SEED)
        encoder = OneHotEncoder(handle_unknown="ignore").fit(rng.choice(words, (50, 2)))
        return to_onnx(encoder, initial_types=[("X", StringTensorType([None, 2]))],
                       target_opset=17)

    return Model("sklearn", "one_hot_encoder", "scikit-learn OneHotEncoder over two string "
                 "columns (skl2onnx), dynamic batch", "scikit-learn", "skl2onnx", build,
                 [{"X:0": 1}, {"X:0": 5}], string_values={"X": words}, ci="jit,aot")


def sklearn_models() -> list[Model]:
    from sklearn import (decomposition, ensemble, linear_model, neighbors, neural_network,
                         pipeline, preprocessing, svm, tree)

    seed = dict(random_state=SEED)
    return [
        sklearn_model("logistic_regression", "LogisticRegression with ZipMap",
                      linear_model.LogisticRegression),
        sklearn_model("logistic_regression_no_zipmap", "LogisticRegression without ZipMap",
                      linear_model.LogisticRegression, zipmap=False),
        sklearn_model("decision_tree", "DecisionTreeClassifier(max_depth=6) with ZipMap",
                      lambda: tree.DecisionTreeClassifier(max_depth=6, **seed)),
        sklearn_model("random_forest", "RandomForestClassifier(10 trees, depth 5) with ZipMap",
                      lambda: ensemble.RandomForestClassifier(10, max_depth=5, **seed)),
        sklearn_model("extra_trees_regressor", "ExtraTreesRegressor(10 trees, depth 5)",
                      lambda: ensemble.ExtraTreesRegressor(10, max_depth=5, **seed),
                      data="regression"),
        sklearn_model("gradient_boosting", "GradientBoostingClassifier(20 stages) with ZipMap",
                      lambda: ensemble.GradientBoostingClassifier(n_estimators=20, **seed)),
        sklearn_model("gradient_boosting_regressor", "GradientBoostingRegressor(20 stages)",
                      lambda: ensemble.GradientBoostingRegressor(n_estimators=20, **seed),
                      data="regression"),
        sklearn_model("linear_regression", "LinearRegression", linear_model.LinearRegression,
                      data="regression"),
        sklearn_model("ridge", "Ridge", linear_model.Ridge, data="regression"),
        sklearn_model("svc", "SVC(probability=True) with ZipMap",
                      lambda: svm.SVC(probability=True, **seed), rtol=1e-3, atol=1e-3),
        sklearn_model("linear_svr", "LinearSVR", lambda: svm.LinearSVR(**seed),
                      data="regression"),
        sklearn_model("svr", "SVR (RBF kernel)", svm.SVR, data="regression"),
        sklearn_model("knn_classifier", "KNeighborsClassifier(5) with ZipMap",
                      neighbors.KNeighborsClassifier),
        # Compiling it takes minutes (TopK over the 200 training points): JIT only in CI.
        sklearn_model("knn_regressor", "KNeighborsRegressor(5)", neighbors.KNeighborsRegressor,
                      data="regression", ci="jit"),
        sklearn_model("mlp_classifier", "MLPClassifier(32) with ZipMap",
                      lambda: neural_network.MLPClassifier((32,), max_iter=300, **seed)),
        sklearn_model("scaler_pca_logistic", "Pipeline(StandardScaler, PCA(3), "
                      "LogisticRegression) with ZipMap",
                      lambda: pipeline.make_pipeline(preprocessing.StandardScaler(),
                                                     decomposition.PCA(3, **seed),
                                                     linear_model.LogisticRegression())),
        sklearn_model("minmax_scaler", "MinMaxScaler", preprocessing.MinMaxScaler),
        sklearn_onehot(),
        sklearn_column_transformer(),
    ]


# ---------------------------------------------------------------------------
# onnxruntime tools and float16 conversions of zoo models


class RandomReader:
    """Calibration data for static quantization: seeded random batches."""

    def __init__(self, model: onnx.ModelProto, sizes: dict, batches: int = 4):
        import onnxruntime as ort

        from omlc_tools import seeded

        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "model.onnx"
            onnx.save(model, str(path))
            session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
            self.feeds = [dict(seeded.seeded_inputs(session, SEED + k, {"dim_values": sizes}))
                          for k in range(batches)]

    def get_next(self):
        return self.feeds.pop() if self.feeds else None


def via_files(transform: Callable[[pathlib.Path, pathlib.Path], None],
              model: onnx.ModelProto) -> onnx.ModelProto:
    """Runs a file-to-file tool on `model`; returns its output with weights inline."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = pathlib.Path(tmp) / "in.onnx", pathlib.Path(tmp) / "out.onnx"
        onnx.save(model, str(src))
        transform(src, dst)
        return onnx.load(str(dst))


def quantized(base: str, kind: str) -> Model:
    """`base` quantized by onnxruntime: `qdq`/`qoperator` static (random
    calibration data), `dynamic` (MatMulInteger, DynamicQuantizeLinear) or
    `nbits` (MatMulNBits, 4 bits, block 32). A float computed a hair
    differently can round to the next quantization step, and the step
    propagates: onnxruntime's own optimized graph of `resnet18_qdq` differs
    from its plain one by up to 0.11, hence the absolute tolerance."""
    spec = next(m for m in ZOO if m.id == base)

    def build():
        from onnxruntime import quantization as q

        model = built(base)
        if kind == "nbits":
            from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

            quantizer = MatMulNBitsQuantizer(model, block_size=32, is_symmetric=True, bits=4)
            quantizer.process()
            return quantizer.model.model
        if kind == "dynamic":
            return via_files(lambda s, d: q.quantize_dynamic(s, d, weight_type=q.QuantType.QInt8),
                             model)
        fmt = q.QuantFormat.QDQ if kind == "qdq" else q.QuantFormat.QOperator

        def static(src, dst):
            q.quant_pre_process(str(src), str(src), skip_symbolic_shape=True)
            q.quantize_static(src, dst, RandomReader(onnx.load(str(src)), spec.sizes[0]),
                              quant_format=fmt, per_channel=kind == "qdq",
                              activation_type=q.QuantType.QUInt8,
                              weight_type=q.QuantType.QInt8)

        return via_files(static, model)

    what = {"qdq": "static quantization, QDQ format, per-channel int8 weights",
            "qoperator": "static quantization, QOperator format (QLinearConv, QLinearMatMul...)",
            "dynamic": "dynamic quantization (int8 weights, DynamicQuantizeLinear, "
                       "MatMulInteger)",
            "nbits": "MatMulNBits 4-bit weight quantization (block 32)"}[kind]
    return Model("quantized", f"{spec.name}_{kind}", f"{spec.description}; onnxruntime "
                 f"{what}", "onnxruntime", f"onnxruntime.quantization ({kind})", build,
                 spec.sizes, spec.int_ranges, rtol=1e-2, atol=0.15, int_weights=True)


def transformer_optimized(base: str, model_type: str, fp16: bool = False) -> Model:
    """`base` through onnxruntime's transformer optimizer (fused Attention,
    SkipLayerNormalization, BiasGelu... of the com.microsoft domain)."""
    spec = next(m for m in ZOO if m.id == base)

    def build():
        from onnxruntime.transformers import optimizer

        optimized = optimizer.optimize_model(built(base), model_type=model_type, num_heads=4,
                                             hidden_size=64, opt_level=1)
        if fp16:
            optimized.convert_float_to_float16(keep_io_types=True)
        return optimized.model

    suffix = "_fp16" if fp16 else ""
    return Model("ort-optimized", f"{spec.name}_{model_type}_fused{suffix}",
                 f"{spec.description}; onnxruntime transformer optimizer (model_type "
                 f"{model_type}){', float16 weights, float32 inputs and outputs' if fp16 else ''}",
                 "onnxruntime", "onnxruntime.transformers.optimizer", build, spec.sizes,
                 spec.int_ranges, rtol=1e-2 if fp16 else 1e-3,
                 atol=2e-2 if fp16 else 1e-3)


def float16(base: str, keep_io_types: bool) -> Model:
    """`base` converted to float16 by onnxconverter-common."""
    spec = next(m for m in ZOO if m.id == base)

    def build():
        from onnxconverter_common import float16 as f16

        model = built(base)
        # The exporter's value_info would keep float types the conversion
        # changes (onnxconverter-common leaves some of them stale).
        del model.graph.value_info[:]
        return f16.convert_float_to_float16(model, keep_io_types=keep_io_types)

    io = "float32 inputs and outputs" if keep_io_types else "float16 inputs and outputs"
    return Model("float16", f"{spec.name}_fp16{'_io32' if keep_io_types else ''}",
                 f"{spec.description}; onnxconverter-common float16 conversion, {io}",
                 "onnxconverter-common", "onnxconverter_common.float16", build, spec.sizes,
                 spec.int_ranges, rtol=1e-2, atol=1e-2)


# ---------------------------------------------------------------------------
# the zoo


def register() -> None:
    for ctor, ci in [("resnet18", "jit,aot"), ("resnext50_32x4d", "jit"),
                     ("wide_resnet50_2", "jit"), ("vgg11", "jit"),
                     ("densenet121", "jit"), ("squeezenet1_0", "jit,aot"),
                     ("squeezenet1_1", "jit,aot"), ("shufflenet_v2_x0_5", "jit,aot"),
                     ("mobilenet_v2", "jit,aot"), ("mobilenet_v3_small", "jit,aot"),
                     ("mobilenet_v3_large", "jit"), ("mnasnet0_5", "jit,aot"),
                     ("efficientnet_b0", "jit"), ("efficientnet_v2_s", "jit"),
                     ("regnet_x_400mf", "jit"), ("regnet_y_400mf", "jit"),
                     ("convnext_tiny", "jit"), ("vit_b_16", "jit"), ("swin_t", "jit"),
                     ("maxvit_t", "jit"), ("googlenet", "jit"), ("alexnet", "jit")]:
        add(classifier(ctor, ci=ci))
    # torchvision's own init for Inception v3 (truncated normal, std 0.1) grows its
    # logits to ~1e11; there onnxruntime's optimized graph differs from its plain
    # one by 4e-3 relative, so the float32 summation order alone needs rtol 1e-2.
    add(classifier("inception_v3", image=299, note=", 299x299", init_weights=True, rtol=1e-2))
    for ctor in ["resnet18", "mobilenet_v3_small", "efficientnet_b0", "regnet_y_400mf",
                 "convnext_tiny", "swin_t"]:
        add(classifier(ctor, dynamo=True))
    detections = ["boxes", "scores", "labels"]
    # Second sizes: the R-CNNs, RetinaNet and FCOS scale the image by
    # min(min_size / its short side, max_size / its long side), the SSDs to a
    # fixed square; each second size is scaled by 2 or 1/2 on both axes.
    add(detection("fasterrcnn_mobilenet_v3_large_320_fpn", detections, 320, (160, 240)))
    add(detection("retinanet_resnet50_fpn", detections, 320, (128, 160), min_size=320,
                  max_size=320))
    add(detection("fcos_resnet50_fpn", detections, 320, (128, 160), min_size=320, max_size=320))
    # The slowest to compile (minutes each: VGG's head, the R-CNNs' paste
    # loops) run in the full zoo only.
    add(detection("ssd300_vgg16", detections, 300, (150, 600), ci=""))
    add(detection("ssdlite320_mobilenet_v3_large", detections, 320, (160, 640)))
    # The two-stage detectors with a ResNet-50 are calibrated in scale only
    # (see omlc_tools/calibrate.py), keep the 150 best region proposals, as
    # the 320-pixel Faster R-CNN does, not 1000, and return 10 detections:
    # each is pasted or located at whole pixels from its box, so a box edge
    # that rounding moves across a pixel moves its mask or keypoints (each
    # detection is one more chance of that), and the keypoint head's eight
    # 512-channel convolutions run once per detection.
    rcnn = {"min_size": 320, "max_size": 320, "ci": "", "center": False,
            "rpn_pre_nms_top_n_test": 150, "rpn_post_nms_top_n_test": 150,
            "box_detections_per_img": 10}
    add(detection("maskrcnn_resnet50_fpn", detections + ["masks"], 320, (128, 160), **rcnn))
    add(detection("keypointrcnn_resnet50_fpn", detections + ["keypoints"], 320, (128, 160),
                  **rcnn))
    add(segmentation("fcn_resnet50"))
    add(segmentation("deeplabv3_mobilenet_v3_large"))
    add(segmentation("lraspp_mobilenet_v3_large"))
    add(video("r3d_18"))
    add(video("mc3_18"))
    add(raft_small())

    bert_io = ["input_ids", "attention_mask", "token_type_ids"]
    hidden = ["last_hidden_state"]
    add(text_model("bert", bert, bert_io, hidden + ["pooler_output"], ci="jit,aot"))
    add(text_model("bert", bert, bert_io, hidden + ["pooler_output"], dynamo=True))
    add(text_model("roberta", roberta, ["input_ids", "attention_mask"], hidden))
    add(text_model("xlm_roberta", xlm_roberta, ["input_ids", "attention_mask"], hidden))
    add(text_model("distilbert", distilbert, ["input_ids", "attention_mask"], hidden,
                   ci="jit,aot"))
    add(text_model("albert", albert, bert_io, hidden))
    add(text_model("electra", electra, bert_io, hidden))
    add(text_model("deberta_v2", deberta_v2, ["input_ids", "attention_mask"], hidden))
    add(text_model("gpt2", gpt2, ["input_ids", "attention_mask"], hidden, use_cache=False))
    add(text_model("gpt2", gpt2, ["input_ids", "attention_mask"], hidden, use_cache=False,
                   dynamo=True))
    add(text_model("gpt_neo", gpt_neo, ["input_ids", "attention_mask"], hidden,
                   use_cache=False))
    add(text_model("llama", llama, ["input_ids", "attention_mask"], ["logits"],
                   note=" (LlamaForCausalLM: RoPE, RMSNorm, SwiGLU, grouped-query attention)",
                   use_cache=False))
    add(text_model("llama", llama, ["input_ids", "attention_mask"], ["logits"], dynamo=True,
                   note=" (LlamaForCausalLM)", use_cache=False))
    add(text_model("mistral", mistral, ["input_ids", "attention_mask"], ["logits"],
                   note=" (MistralForCausalLM: sliding window 8, grouped-query attention)",
                   use_cache=False))
    add(text_model("bart", bart, ["input_ids", "attention_mask", "decoder_input_ids"], hidden,
                   use_cache=False))
    add(text_model("clip_text", clip_text, ["input_ids", "attention_mask"],
                   hidden + ["pooler_output"]))
    add(text_model("t5_encoder", t5_encoder, ["input_ids", "attention_mask"], hidden))
    add(t5_encoder_static())
    add(t5_decoder_with_past())
    add(vision_transformer("vit", vit, 64))
    add(vision_transformer("deit", deit, 64))
    add(vision_transformer("clip_vision", clip_vision, 64))
    add(whisper_encoder())
    add(wav2vec2())

    for model in sklearn_models():
        add(model)

    add(quantized("vision/resnet18", "qdq"))
    add(quantized("vision/mobilenet_v2", "qoperator"))
    add(quantized("vision/mobilenet_v2", "qdq"))
    add(quantized("text/bert", "dynamic"))
    add(quantized("text/bert", "qdq"))
    add(quantized("text/bert", "nbits"))
    add(quantized("text/llama", "nbits"))
    add(transformer_optimized("text/bert", "bert"))
    add(transformer_optimized("text/bert", "bert", fp16=True))
    add(transformer_optimized("text/gpt2", "gpt2"))
    add(float16("vision/resnet18", keep_io_types=True))
    add(float16("vision/mobilenet_v2", keep_io_types=False))
    add(float16("text/bert", keep_io_types=False))


# ---------------------------------------------------------------------------
# writing

INDEX_HEADER = """\
# onnx-mlc model zoo: every model of tests/zoo/, written by tools/export_zoo.py
# from the models' weights.json (edit those, or the script, not this file).
# sizes: the dim values of each tested size (data set K of .cache/zoo/<id>/
# is size K); ci: the modes the CI subset runs, at the first size only;
# ranked: for lists of detections, the output whose descending values order
# every output's rows (rows tied on it may come in either order).
#
# id\tsource\texporter\topset\tsizes\trtol\tatol\tci\tranked
"""


def size_label(dims: dict[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in dims.items()) or "static"


def write_index(out: pathlib.Path) -> int:
    """`out/models.tsv` from every `weights.json` below `out`; returns the count."""
    rows = []
    for path in sorted(out.rglob("weights.json")):
        r = json.loads(path.read_text())
        model_id = path.parent.relative_to(out).as_posix()
        sizes = " ".join(size_label(s) for s in r["sizes"])
        rows.append("\t".join([model_id, r["source"], r["exporter"], str(r["opset"]), sizes,
                               f"{r['rtol']:g}", f"{r['atol']:g}", r["ci"] or "-",
                               str(r.get("ranked", "-"))]))
    (out / "models.tsv").write_text(INDEX_HEADER + "".join(r + "\n" for r in rows))
    return len(rows)


def size_feeds(session, spec: Model) -> list[dict]:
    """Seeded inputs of each tested size (drawn like the references', from seed 0)."""
    from omlc_tools import seeded

    return [dict(seeded.seeded_inputs(session, SEED, {
        "dim_values": dims, "int_ranges": spec.int_ranges,
        "string_values": spec.string_values})) for dims in spec.sizes]


def check_sizes(path: pathlib.Path, spec: Model) -> tuple[str, list[dict]]:
    """Runs the export in onnxruntime at each size; returns the output
    shapes and the inputs it ran on."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    shapes = []
    feeds = size_feeds(session, spec)
    for feed in feeds:
        outputs = session.run(None, feed)
        for value in outputs:
            if isinstance(value, np.ndarray) and value.dtype.kind == "f" \
                    and not np.isfinite(value).all():
                raise ValueError("non-finite output")
        shapes.append(" ".join(str(list(v.shape)) if hasattr(v, "shape") else f"[{len(v)} maps]"
                                for v in outputs))
    return "; ".join(shapes), feeds


def opset_of(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)


def facts(spec: Model, opset: int) -> dict:
    """What `weights.json` says of the model besides its weights."""
    return {"description": spec.description, "source": spec.source,
            "exporter": spec.exporter, "opset": opset,
            "sizes": spec.sizes, "dim_values": spec.sizes[0],
            "int_ranges": {k: list(v) for k, v in spec.int_ranges.items()},
            "string_values": spec.string_values, "rtol": spec.rtol, "atol": spec.atol,
            "ci": spec.ci} | ({"ranked": spec.ranked} if spec.ranked is not None else {})


def update_facts(spec: Model, out: pathlib.Path) -> str:
    """Rewrites the facts of an exported model's `weights.json` from its spec
    (tolerance, sizes, CI modes, ...), keeping graph and weights."""
    path = out / spec.id / "weights.json"
    old = json.loads(path.read_text())
    new = facts(spec, old["opset"]) | {k: old[k] for k in ("format", "file", "size", "tensors")}
    path.write_text(recipes.dump(new))
    return "facts updated" if new != old else "facts unchanged"


def export(spec: Model, out: pathlib.Path) -> str:
    """Builds, checks and writes one model; returns the progress line."""
    model = built(spec.id)
    folder = out / spec.id
    with tempfile.TemporaryDirectory() as tmp:
        full = pathlib.Path(tmp) / "model.onnx"
        onnx.save(model, str(full))
        onnx.checker.check_model(str(full))
        shapes, feeds = check_sizes(full, spec)
    recipe = facts(spec, opset_of(model)) | recipes.strip_weights(model, ints=spec.int_weights)
    if spec.calibrate:
        count = calibrate.calibrate(model, recipe, feeds, center=spec.center,
                                    log=lambda line: None)
        shapes += f"; {count} weights calibrated"
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(folder / "model.onnx"))
    (folder / "weights.json").write_text(recipes.dump(recipe))
    ops = collections.Counter(n.op_type for n in model.graph.node)
    size = (folder / "model.onnx").stat().st_size
    return (f"{len(model.graph.node)} nodes, model.onnx {size / 1024:.0f} KiB, "
            f"{len(recipe['tensors'])} external ({recipe['size'] / 2**20:.1f} MiB); "
            f"outputs {shapes}\n  ops: {', '.join(f'{o} {n}' for o, n in ops.most_common())}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=REPO / "tests" / "zoo")
    parser.add_argument("--list", action="store_true", help="list the models and exit")
    parser.add_argument("--facts-only", action="store_true",
                        help="only rewrite the models' facts (tolerance, sizes, CI modes, ...) "
                        "in their weights.json, no export")
    parser.add_argument("names", nargs="*",
                        help="model ids (vision/resnet18), names or families (default: all)")
    args = parser.parse_args()
    register()
    chosen = [m for m in ZOO if not args.names or any(
        n in (m.id, m.name, m.family) for n in args.names)]
    if args.list:
        for m in chosen:
            print(f"{m.id}\t{m.exporter}\t{m.description}")
        return 0
    failed = []
    for spec in chosen:
        start = time.monotonic()
        try:
            line = update_facts(spec, args.out) if args.facts_only else export(spec, args.out)
        except Exception as e:  # noqa: BLE001 - one model's failure must not stop the rest
            failed.append(spec.id)
            line = f"FAILED: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        print(f"{spec.id}: {line} [{time.monotonic() - start:.1f}s]", flush=True)
    print(f"{write_index(args.out)} models in {args.out / 'models.tsv'}")
    if failed:
        print(f"{len(failed)} failed: {' '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
