"""Facts about transformers modeling files, read with `ast`.

A modeling module is indexed as its top-level classes and functions ("defs").
Each def gets local facts (position mechanisms, rotation pairing, config
attributes read, rope guards). A config class's facts are the union over the
defs reachable from the model classes that declare `config: ThatConfig`
(or `config_class = ThatConfig`), not descending into model classes of
other configs, so that a vision tower and a text decoder in one file are told
apart.
"""

import ast
import os
import re

from config_facts import segment, source_of

LEARNED_ATTR_RE = re.compile(r"^(wpe|embed_positions|pos_embed\w*|positions?_embed\w*|\w*_position_embeddings?"
                             r"|\w*_pos_embed\w*|positional_embedding|row_embed\w*|col(umn)?_embed\w*)$")
MIXER_RULES = [  # (mechanism, class-name pattern); first match wins
    ("linear_attention", re.compile(r"GatedDeltaNet|LightningAttention|LinearAttention")),
    ("recurrent", re.compile(r"Rglru|RecurrentBlock")),
    ("conv_mixer", re.compile(r"ShortConv")),
    ("mamba", re.compile(r"Mamba\w*Mixer|Mamba2?Mixer|BambaMixer|FalconH1Mixer|MambaMixer")),
]
RELATIVE_ATTRS = {"distance_embedding", "rel_embeddings", "rel_pos_emb", "rpb", "attention_biases", "rel_pos_h",
                  "rel_pos_w", "relative_attention_bias", "relative_position_bias_table"}
GENERIC_CONFIGS = {"PreTrainedConfig", "PretrainedConfig"}
ROTARY_NAME_RE = re.compile(r"rotary|rotate|rope", re.I)


def class_parts(node):
    """Methods of a class keyed by name (empty for a function)."""
    if not isinstance(node, ast.ClassDef):
        return {}
    return {s.name: s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def walk_skipping(node, skip=("_init_weights",), skip_decorators=False):
    """ast.walk that does not enter methods named in `skip` (weight init touches every class).

    With skip_decorators, the node's own decorators are left out: transformers puts
    `@use_kernelized_func(apply_rotary_pos_emb)` on attention classes that never call it.
    """
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name in skip:
                continue
            if skip_decorators and current is node and child in getattr(node, "decorator_list", []):
                continue
            stack.append(child)


class Module:
    """One parsed modeling file: its defs, imports and per-def facts."""

    def __init__(self, path, root):
        self.path = path
        self.rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as handle:
            self.source = handle.read()
        self.tree = ast.parse(self.source)
        self.defs = {n.name: n for n in self.tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        for node in self.tree.body:  # tables such as {"recurrent": XRecurrentBlock, "attention": XAttention}
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                node.name = node.targets[0].id
                self.defs.setdefault(node.name, node)
        self.imports = self._imports()
        self._facts = {}

    def _imports(self):
        """{local name: (module path relative to models/<dir>/.., original name)} for sibling modeling imports."""
        out = {}
        for node in self.tree.body:
            if isinstance(node, ast.ImportFrom) and node.level in (1, 2) and node.module:
                if "modeling_" not in node.module:
                    continue
                parts = node.module.split(".")
                folder = os.path.dirname(self.path) if node.level == 1 else os.path.dirname(os.path.dirname(self.path))
                target = os.path.join(folder, *parts) + ".py"
                for alias in node.names:
                    out[alias.asname or alias.name] = (target, alias.name)
        return out

    def facts(self, name):
        """Local facts of the def `name` (cached)."""
        if name not in self._facts:
            self._facts[name] = def_facts(self.defs[name], self.source)
        return self._facts[name]

    def config_annotation(self, name):
        """The config class named by `config: X` or `config_class = X` in a class body, or None."""
        node = self.defs.get(name)
        if not isinstance(node, ast.ClassDef):
            return None
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and getattr(stmt.target, "id", None) == "config":
                return _plain_name(stmt.annotation)
            if isinstance(stmt, ast.Assign) and any(getattr(t, "id", None) == "config_class" for t in stmt.targets):
                return _plain_name(stmt.value)
        return None

    def init_config_annotation(self, name):
        """The annotation of `config` in the class's __init__, or None."""
        init = class_parts(self.defs.get(name)).get("__init__")
        if init is None:
            return None
        for arg in init.args.args:
            if arg.arg == "config" and arg.annotation is not None:
                found = _plain_name(arg.annotation)
                return None if found in GENERIC_CONFIGS else found
        return None


def _plain_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def def_facts(node, source):
    """Local facts of one class or function."""
    facts = {"refs": set(), "mechanisms": {}, "rotation": {}, "config_reads": set(),
             "rope_guards": [], "rope_types": set(), "per_layer_type_rope": False, "nope_comment": False,
             "layer_branches": []}
    for base in getattr(node, "bases", []):
        name = _plain_name(base)
        if name and not re.search(r"Pre[Tt]rained", name):
            facts["refs"].add(name)
    for sub in walk_skipping(node, skip_decorators=isinstance(node, ast.ClassDef)):
        if isinstance(sub, ast.Name):
            facts["refs"].add(sub.id)
        _config_read(sub, facts)
    _mechanisms_by_name(node, facts)
    _mechanisms_by_body(node, source, facts)
    if ROTARY_NAME_RE.search(node.name):
        _rotation(node, source, facts)
    else:
        for method in class_parts(node).values():
            if ROTARY_NAME_RE.search(method.name):
                _rotation(method, source, facts, f"{node.name}.")
    _rope_guards(node, source, facts)
    _rope_types(node, facts)
    _layer_branches(node, source, facts)
    text = segment(source, node)
    facts["nope_comment"] = bool(re.search(r"#.*\bNoPE\b|no_rope|use_rope|nope", text))
    return facts


def _config_read(sub, facts):
    """Record `config.X`, `self.config.X`, `getattr(config, "X")` reads."""
    if isinstance(sub, ast.Attribute):
        value = sub.value
        if (isinstance(value, ast.Name) and value.id.endswith("config")) or (
                isinstance(value, ast.Attribute) and value.attr.endswith("config")):
            facts["config_reads"].add(sub.attr)
    elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in ("getattr", "hasattr"):
        if len(sub.args) >= 2 and isinstance(sub.args[1], ast.Constant) and isinstance(sub.args[1].value, str):
            facts["config_reads"].add(sub.args[1].value)
    elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
        if isinstance(sub.slice.value, str):
            facts["config_reads"].add(sub.slice.value)


def _add(facts, mechanism, evidence):
    facts["mechanisms"].setdefault(mechanism, set()).add(evidence)


def _mechanisms_by_name(node, facts):
    """Mechanisms told by the def's own name."""
    name = node.name
    if isinstance(node, ast.ClassDef):
        if name.endswith("RotaryEmbedding") or re.search(r"Rotary|RoPE|Rope[A-Z]", name):
            _add(facts, "rope", name)
        position = _position_class_kind(node)
        if position:
            _add(facts, position, name)
        for mechanism, pattern in MIXER_RULES:
            if pattern.search(name):
                _add(facts, mechanism, name)
                break
        for method, method_node in class_parts(node).items():
            if method.startswith("apply_rotary") or method.startswith("rotate_"):
                _add(facts, "rope", f"{name}.{method}")
            if re.search(r"position|sinusoid", method, re.I) and _calls_sin_and_cos(method_node):
                _add(facts, "sinusoidal", f"{name}.{method}")
    else:
        if name.startswith("apply_rotary") or name in ("rotate_half", "rotate_every_two"):
            _add(facts, "rope", name)
        if name in ("sinusoids", "get_sinusoid_encoding_table", "_get_sinusoid_encoding_table"):
            _add(facts, "sinusoidal", name)
        if "alibi" in name:
            _add(facts, "alibi", name)
        if re.search(r"position|sinusoid", name, re.I) and _calls_sin_and_cos(node):
            _add(facts, "sinusoidal", name)
    if name == "_relative_position_bucket" or name.endswith("relative_position_bucket"):
        _add(facts, "relative_buckets", name)


def _position_class_kind(node):
    """The mechanism a class named for positions implements, told by its name and bases."""
    name = node.name
    rules = [
        (r"Rotary|RoPE|Rope[A-Z]", None),
        (r"Sinusoid|Sine?Position|PositionEmbeddingSine|Cosine", "sinusoidal"),
        (r"PositionalConv", "conv"),
        (r"RelativePositionBias|Relative\w*Bias|RelativeLogits", "relative_bias_table"),
        (r"Rel(ative)?Positional|RelPosition", "relative_positional"),
        (r"Learned\w*Position|TrainablePosition", "learned"),
    ]
    for pattern, kind in rules:
        if re.search(pattern, name):
            return kind
    if re.search(r"Position", name) and re.search(r"Embedding|Encoding", name):
        bases = {getattr(b, "attr", getattr(b, "id", "")) for b in node.bases}
        if "Embedding" in bases:
            return "learned"
        return "position_other"
    return None


def _calls_sin_and_cos(node):
    """True when a function's body calls both sin and cos."""
    called = {getattr(s.func, "attr", getattr(s.func, "id", "")) for s in ast.walk(node) if isinstance(s, ast.Call)}
    return {"sin", "cos"} <= called


def _mechanisms_by_body(node, source, facts):
    """Mechanisms told by what the body builds: nn.Embedding tables, buckets, alibi."""
    for sub in walk_skipping(node):
        if isinstance(sub, ast.FunctionDef) and sub is not node:
            if sub.name.endswith("relative_position_bucket"):
                _add(facts, "relative_buckets", f"{node.name}.{sub.name}")
            if "alibi" in sub.name:
                _add(facts, "alibi", f"{node.name}.{sub.name}")
        if not (isinstance(sub, ast.Assign) and len(sub.targets) == 1):
            continue
        target = sub.targets[0]
        attr = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        value = sub.value.body if isinstance(sub.value, ast.IfExp) else sub.value
        call = value if isinstance(value, ast.Call) else None
        callee = source_of(call.func, source) if call else ""
        if attr == "relative_attention_bias" and callee.endswith("Embedding"):
            _add(facts, "relative_buckets", f"{node.name}.relative_attention_bias")
        elif (LEARNED_ATTR_RE.match(attr) and re.search(r"(^|\.)(\w*Embedding|Parameter)$", callee)
              and not re.search(r"Sinus|Sine|Rotary|Conv|Rel", callee)):
            _add(facts, "learned", f"{node.name}.{attr} = {callee}(...)")
        elif attr == "relative_position_bias_table" and callee.endswith("Parameter"):
            _add(facts, "relative_bias_table", f"{node.name}.relative_position_bias_table")
        elif attr in RELATIVE_ATTRS and re.search(r"Embedding$", callee):
            _add(facts, "relative_learned", f"{node.name}.{attr}")
        elif attr in RELATIVE_ATTRS and re.search(r"Parameter$", callee):
            _add(facts, "relative_bias_table", f"{node.name}.{attr}")


def _slice_kind(sub, source):
    """'adjacent' for x[..., ::2] / x[..., 1::2], 'half' for x[..., : d // 2] / x[..., d // 2 :], else None."""
    parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
    last = parts[-1] if parts else None
    if not isinstance(last, ast.Slice):
        return None
    if isinstance(last.step, ast.Constant) and last.step.value == 2:
        return "adjacent"
    bound = last.upper or last.lower
    if last.step is None and bound is not None and re.search(r"//\s*2\b", source_of(bound, source)):
        return "half"
    return None


def _number(node):
    """The value of a numeric literal such as 2 or -1, else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return None
    return value if isinstance(value, (int, float)) else None


def _call_kind(sub, source):
    """Pairing told by a call: view_as_complex, repeat_interleave(2), stack((-x2, x1), dim=-1)."""
    callee = source_of(sub.func, source)
    if callee.endswith("view_as_complex"):
        return "adjacent", "view_as_complex"
    if callee.endswith("repeat_interleave"):
        values = [a for a in sub.args] + [k.value for k in sub.keywords if k.arg == "repeats"]
        if any(isinstance(v, ast.Constant) and v.value == 2 for v in values):
            return "adjacent", "repeat_interleave(2)"
    if re.search(r"(reshape|view|unflatten)$", callee) and len(sub.args) >= 2:
        tail = [_number(a) for a in sub.args[-3:]]
        if tail[-1] == 2 and (tail[-2] == -1 or tail[-2:] == [1, 2] and tail[-3:-2] == [-1]):
            return "adjacent", f"{callee.split('.')[-1]}(..., -1, 2)"
    if callee.endswith("chunk") and not re.search(r"cos|sin|freq|pos", callee) and any(isinstance(a, ast.Constant) and a.value == 2 for a in sub.args):
        return "half", "chunk(2, dim=-1)"
    if callee.endswith("stack") and sub.args and isinstance(sub.args[0], (ast.Tuple, ast.List)):
        first = sub.args[0].elts[0] if sub.args[0].elts else None
        if isinstance(first, ast.UnaryOp) and isinstance(first.op, ast.USub):
            return "adjacent", "stack((-x2, x1), dim=-1)"
    return None, None


def _rotation(node, source, facts, prefix=""):
    """How the def pairs rotated dimensions, with evidence."""
    name = prefix + node.name
    if name.startswith("apply_rotary") and name.endswith("_interleave"):
        facts["rotation"].setdefault("interleave", set()).add(name)
        return
    for sub in walk_skipping(node):
        kind, evidence = None, None
        if isinstance(sub, ast.Subscript) and not re.search(r"cos|sin|freq", source_of(sub.value, source)):
            kind = _slice_kind(sub, source)
            evidence = source_of(sub, source)[:60]
        elif isinstance(sub, ast.Call):
            kind, evidence = _call_kind(sub, source)
        if kind:
            facts["rotation"].setdefault(kind, set()).add(f"{name}: {evidence}")


def _calls_rotary(node, source):
    """Names of rotary functions or modules called inside a statement list."""
    called = set()
    for stmt in node:
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Call):
                callee = source_of(sub.func, source)
                if re.search(r"apply_rotary|rotary_emb|rotary_fn|apply_rope|\brope\b", callee, re.I):
                    called.add(callee)
    return called


def _rope_guards(node, source, facts):
    """`if <condition>:` statements whose body or else-branch applies rotary embeddings."""
    for method in ([node] if isinstance(node, ast.FunctionDef) else class_parts(node).values()):
        for sub in ast.walk(method):
            if not isinstance(sub, ast.If):
                continue
            called = _calls_rotary(sub.body, source)
            called_else = _calls_rotary(sub.orelse, source)
            if not (called or called_else):
                continue
            guard = {"where": f"{node.name}.{method.name}" if method is not node else node.name,
                     "condition": source_of(sub.test, source)[:160]}
            if called:
                guard["then"] = sorted(called)
            if called_else:
                guard["else"] = sorted(called_else)
            facts["rope_guards"].append(guard)


def _rope_types(node, facts):
    """rope_type strings a rotary class compares or assigns, and per-layer-type rotary tables."""
    if not (isinstance(node, ast.ClassDef) and "rope" in facts["mechanisms"]):
        return
    for sub in walk_skipping(node):
        if isinstance(sub, ast.Compare) and "rope_type" in ast.dump(sub.left):
            for comp in sub.comparators:
                if isinstance(comp, ast.Constant) and isinstance(comp.value, str):
                    facts["rope_types"].add(comp.value)
        if isinstance(sub, ast.Assign) and any("rope_type" in ast.dump(t) for t in sub.targets):
            if isinstance(sub.value, ast.Constant) and isinstance(sub.value.value, str):
                facts["rope_types"].add(sub.value.value)
        if isinstance(sub, ast.FunctionDef) and sub.name == "compute_default_rope_parameters":
            facts["rope_types"].add("default")
        if isinstance(sub, ast.For) and "layer_types" in ast.dump(sub.iter):
            facts["per_layer_type_rope"] = True


LAYER_TEST_RE = re.compile(r"layer_type|is_sliding|sliding_window|attention_type|use_rope|no_rope|nope|is_local|global_attn")
BRANCH_BODY_RE = re.compile(r"rope|rotary|theta|position_embeddings|inv_freq|head_dim|mixer|mamba|linear_attn|conv")


def _layer_branches(node, source, facts):
    """Branches on a layer's type whose body touches rope, positions, head_dim or the mixer."""
    methods = [node] if isinstance(node, ast.FunctionDef) else list(class_parts(node).values())
    for method in methods:
        if method.name == "_init_weights":
            continue
        for sub in ast.walk(method):
            if not isinstance(sub, (ast.If, ast.IfExp)):
                continue
            test = source_of(sub.test, source)
            if not LAYER_TEST_RE.search(test):
                continue
            body = sub.body if isinstance(sub.body, list) else [sub.body]
            orelse = sub.orelse if isinstance(sub.orelse, list) else [sub.orelse]
            text = " ".join(source_of(s, source) for s in body + orelse)
            touched = sorted(set(m.group(0).lower() for m in BRANCH_BODY_RE.finditer(text)))
            if touched:
                where = node.name if method is node else f"{node.name}.{method.name}"
                facts["layer_branches"].append({"where": where, "condition": test[:160], "touches": touched})
