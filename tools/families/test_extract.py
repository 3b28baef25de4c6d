#!/usr/bin/python3
"""Tests of the families extractor on small hand-written snippets (run: /usr/bin/python3 tools/families/test_extract.py)."""

import ast
import json
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import config_facts as cf  # noqa: E402
import extract  # noqa: E402
from modeling_facts import def_facts  # noqa: E402

OLD_STYLE_CONFIG = '''
class OldConfig(PretrainedConfig):
    model_type = "old"
    attribute_map = {"n_positions": "max_position_embeddings"}

    def __init__(self, hidden_size=512, rope_theta=10000.0, rotary_pct=0.25, max_position_embeddings=2048,
                 vocab_size=100, layer_types=None, sliding_window=4096 if False else None, **kwargs):
        self.rope_theta = rope_theta
        self.head_dim = hidden_size // 8
'''

DATACLASS_CONFIG = '''
@strict
class NewConfig(PreTrainedConfig):
    model_type = "new"
    default_theta = {"global": 160_000.0, "local": 10_000.0}
    sub_configs = {"vision_config": AutoConfig}
    hidden_size: int = 768
    initializer_range: float = interval(min=0.0, max=1.0)(default=0.02)
    layer_types: list[str] | None = None
    rope_parameters: dict | None = None
    partial_rotary_factor: float = 0.5
    vocab_size: int = 10

    def convert_rope_params_to_dict(self, **kwargs):
        every = kwargs.get("global_attn_every_n_layers", 3)
        self.rope_parameters["sliding_attention"].setdefault(
            "rope_theta", kwargs.pop("local_rope_theta", self.default_theta["local"]))
'''

ROTATE_HALF_MODELING = '''
def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_pos_emb(q, k, cos, sin):
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin

class NewRotaryEmbedding(nn.Module):
    def __init__(self, config):
        self.rope_type = "default"

class NewAttention(nn.Module):
    def forward(self, q, k, cos, sin):
        if self.is_sliding:
            q, k = apply_rotary_pos_emb(q, k, cos, sin)
        return q

class NewPreTrainedModel(PreTrainedModel):
    config: NewConfig

class NewModel(NewPreTrainedModel):
    def __init__(self, config):
        self.rotary_emb = NewRotaryEmbedding(config)
        self.layers = [NewAttention()]
'''

COMPLEX_MODELING = '''
def apply_rotary_emb(xq, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    return torch.view_as_real(xq_ * freqs_cis).flatten(3)

class OldAttention(nn.Module):
    def forward(self, x, freqs):
        return apply_rotary_emb(x, freqs)

class OldModel(PreTrainedModel):
    config_class = OldConfig
    def __init__(self, config):
        self.wpe = nn.Embedding(config.max_position_embeddings, 8)
        self.attn = OldAttention()
'''

MAMBA_MODELING = '''
class SnakeMambaMixer(nn.Module):
    def __init__(self, config):
        self.A_log = nn.Parameter(torch.zeros(4))

@use_kernelized_func(apply_rotary_pos_emb)
class SnakeAttention(nn.Module):
    def forward(self, x):
        return x

class SnakeModel(PreTrainedModel):
    config: SnakeConfig
    def __init__(self, config):
        self.mixer = SnakeMambaMixer(config)
        self.attn = SnakeAttention()
'''

SNAKE_CONFIG = '''
class SnakeConfig(PreTrainedConfig):
    model_type = "snake"
    max_position_embeddings: int = 4096
'''


def parse_class(source):
    tree = ast.parse(textwrap.dedent(source))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef)), textwrap.dedent(source)


class ConfigFacts(unittest.TestCase):
    def test_init_defaults(self):
        cls, source = parse_class(OLD_STYLE_CONFIG)
        self.assertEqual(cf.model_type_of(cls), "old")
        defaults = cf.own_defaults(cls, source)
        self.assertEqual(defaults, {"hidden_size": 512, "rope_theta": 10000.0, "rotary_pct": 0.25,
                                    "max_position_embeddings": 2048, "layer_types": None,
                                    "sliding_window": {"expr": "4096 if False else None"}})
        self.assertEqual(cf.dict_attribute(cls, "attribute_map", source), {"n_positions": "max_position_embeddings"})
        self.assertEqual(cf.derived_fields(cls, source), {"rope_theta": ["rope_theta"], "head_dim": ["hidden_size // 8"]})

    def test_dataclass_defaults(self):
        cls, source = parse_class(DATACLASS_CONFIG)
        self.assertEqual(cf.own_defaults(cls, source), {
            "default_theta": {"global": 160000.0, "local": 10000.0}, "hidden_size": 768, "layer_types": None,
            "rope_parameters": None, "partial_rotary_factor": 0.5})
        self.assertEqual(cf.legacy_kwargs(cls, source), {
            "global_attn_every_n_layers": {"default": 3},
            "local_rope_theta": {"default": {"expr": 'self.default_theta["local"]'},
                                 "into": ['rope_parameters["sliding_attention"]["rope_theta"]']}})
        self.assertEqual(cf.dict_attribute(cls, "sub_configs", source), {"vision_config": "AutoConfig"})


class ModelingFacts(unittest.TestCase):
    def facts_of(self, source, name):
        tree = ast.parse(source)
        node = next(n for n in tree.body if getattr(n, "name", None) == name)
        return def_facts(node, source)

    def test_rotate_half(self):
        facts = self.facts_of(ROTATE_HALF_MODELING, "rotate_half")
        self.assertEqual(set(facts["rotation"]), {"half"})
        self.assertIn("rope", facts["mechanisms"])
        attention = self.facts_of(ROTATE_HALF_MODELING, "NewAttention")
        self.assertEqual(attention["rope_guards"], [{"where": "NewAttention.forward", "condition": "self.is_sliding",
                                                     "then": ["apply_rotary_pos_emb"]}])

    def test_view_as_complex(self):
        facts = self.facts_of(COMPLEX_MODELING, "apply_rotary_emb")
        self.assertEqual(set(facts["rotation"]), {"adjacent"})
        self.assertIn("apply_rotary_emb: view_as_complex", facts["rotation"]["adjacent"])

    def test_mamba_mixer_and_decorator(self):
        self.assertEqual(set(self.facts_of(MAMBA_MODELING, "SnakeMambaMixer")["mechanisms"]), {"mamba"})
        self.assertNotIn("apply_rotary_pos_emb", self.facts_of(MAMBA_MODELING, "SnakeAttention")["refs"])


class WholeTree(unittest.TestCase):
    """extract.build on a fake transformers tree holding the snippets above."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        files = {"new/configuration_new.py": DATACLASS_CONFIG, "new/modeling_new.py": ROTATE_HALF_MODELING,
                 "old/configuration_old.py": OLD_STYLE_CONFIG, "old/modeling_old.py": COMPLEX_MODELING,
                 "snake/configuration_snake.py": SNAKE_CONFIG, "snake/modeling_snake.py": MAMBA_MODELING}
        for rel, text in files.items():
            path = os.path.join(self.tmp.name, "src", "transformers", "models", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(textwrap.dedent(text))
        manual = os.path.join(self.tmp.name, "manual.json")
        with open(manual, "w", encoding="utf-8") as handle:
            json.dump({"expected": ["ghost"], "entries": [{"model_type": "old", "why": "test", "rules": ["r"]}]}, handle)
        self.doc = extract.build(self.tmp.name, "abc", manual)
        self.by_type = {f["model_type"]: f for f in self.doc["families"]}

    def tearDown(self):
        self.tmp.cleanup()

    def test_families(self):
        self.assertEqual(sorted(self.by_type), ["new", "old", "snake"])
        new, old, snake = self.by_type["new"], self.by_type["old"], self.by_type["snake"]
        self.assertEqual((new["rotation"], sorted(new["mechanisms"])), ("half", ["nope", "rope"]))
        self.assertEqual(new["rope_init"], ["default"])
        self.assertEqual(new["sub_configs"], {"vision_config": "auto"})
        self.assertEqual((old["rotation"], sorted(old["mechanisms"])), ("adjacent", ["learned", "rope"]))
        self.assertEqual(sorted(snake["mechanisms"]), ["mamba", "none"])
        self.assertEqual(snake["modeling_unread"], ["max_position_embeddings"])

    def test_manual_and_absent(self):
        old = self.by_type["old"]
        self.assertEqual((old["rules"], old["source"]["rules"], old["manual_why"]), (["r"], "manual", "test"))
        self.assertEqual(old["source"]["rotation"], "extracted")
        self.assertEqual([a["model_type"] for a in self.doc["absent"]], ["ghost"])

    def test_render_is_deterministic(self):
        text = extract.render(self.doc)
        self.assertTrue(text.endswith("}\n"))
        self.assertEqual(text, extract.render(json.loads(text)))


if __name__ == "__main__":
    unittest.main()
