"""Facts about transformers configuration classes, read with `ast`.

Nothing here imports transformers: each configuration_*.py is parsed, and the
class bodies are read for `model_type`, field defaults (dataclass-style
annotated attributes or `__init__` keyword defaults), `attribute_map`,
`sub_configs`, `default_theta` and legacy keys read from `kwargs`.
"""

import ast
import re

# Fields named in issue 27; any other field whose name matches POSITION_RE is kept too.
POSITION_FIELDS = {
    "rope_theta", "rope_scaling", "rope_parameters", "partial_rotary_factor", "rotary_pct",
    "rotary_dim", "rotary_emb_base", "head_dim", "hidden_size", "num_attention_heads",
    "num_key_value_heads", "num_hidden_layers", "max_position_embeddings",
    "original_max_position_embeddings", "layer_types", "sliding_window", "sliding_window_pattern",
    "use_sliding_window", "max_window_layers", "no_rope_layers", "no_rope_layer_interval",
    "global_rope_theta", "local_rope_theta", "rope_local_base_freq", "swa_rope_theta",
    "compress_rope_theta", "global_head_dim", "layer_rope_theta", "qk_rope_head_dim",
    "position_embedding_type", "relative_attention_num_buckets", "relative_attention_max_distance",
    "max_relative_positions", "position_buckets", "alibi", "use_alibi", "num_conv_pos_embeddings",
    "num_conv_pos_embedding_groups", "image_size", "patch_size", "default_theta",
    "global_attn_every_n_layers", "rope_interleave", "interleaved_rope",
}
POSITION_RE = re.compile(r"rope|rotary|position|pos_|alibi|window|layer_types|theta")


def is_position_field(name):
    """True for a field name that issue 27 asks to record."""
    return name in POSITION_FIELDS or bool(POSITION_RE.search(name))


_LINES = {}


def segment(source, node):
    """ast.get_source_segment without re-splitting the whole file on every call."""
    if getattr(node, "end_lineno", None) is None:
        return ""
    lines = _LINES.get(id(source))
    if lines is None or lines[0] is not source:
        lines = (source, [line.encode("utf-8") for line in source.splitlines(True)])
        _LINES[id(source)] = lines
    rows = lines[1][node.lineno - 1:node.end_lineno]
    if not rows:
        return ""
    if len(rows) == 1:
        return rows[0][node.col_offset:node.end_col_offset].decode("utf-8", "replace")
    rows = [rows[0][node.col_offset:]] + rows[1:-1] + [rows[-1][:node.end_col_offset]]
    return b"".join(rows).decode("utf-8", "replace")


def source_of(node, source):
    """The source text of a node, whitespace collapsed."""
    return " ".join(segment(source, node).split())


def value_of(node, source):
    """A JSON value for an expression: a literal, or {"expr": source text}."""
    if node is None:
        return None
    try:
        value = ast.literal_eval(node)
        if isinstance(value, (tuple, set)):
            value = list(value)
        if _json_safe(value):
            return value
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    inner = _wrapped_default(node)
    if inner is not None:
        return value_of(inner, source)
    return {"expr": source_of(node, source)}


def _json_safe(value):
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, list):
        return all(_json_safe(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_safe(v) for k, v in value.items())
    return False


def _wrapped_default(node):
    """The default inside `interval(...)(default=X)` or `field(default=X)` (strict dataclass idioms)."""
    if not isinstance(node, ast.Call):
        return None
    for keyword in node.keywords:
        if keyword.arg == "default":
            return keyword.value
        if keyword.arg == "default_factory" and isinstance(keyword.value, ast.Lambda):
            return keyword.value.body
    return None


def class_assignments(cls):
    """(name, value node, annotated?) for each class-level assignment."""
    out = []
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            out.append((stmt.target.id, stmt.value, True))
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    out.append((target.id, stmt.value, False))
    return out


def init_defaults(cls):
    """(name, default node) for the keyword defaults of `__init__`, if the class defines one."""
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__":
            args = stmt.args
            positional = args.args[len(args.args) - len(args.defaults):]
            pairs = list(zip(positional, args.defaults))
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            return [(a.arg, d) for a, d in pairs]
    return []


def model_type_of(cls):
    """The string of `model_type = "..."` in the class body, or None."""
    for name, value, _ in class_assignments(cls):
        if name == "model_type" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def own_defaults(cls, source):
    """Position-relevant defaults declared in this class body (not inherited)."""
    defaults = {}
    for name, value, annotated in class_assignments(cls):
        if is_position_field(name) and (annotated or name == "default_theta"):
            defaults[name] = value_of(value, source) if value is not None else {"expr": "<required>"}
    for name, value in init_defaults(cls):
        if is_position_field(name):
            defaults[name] = value_of(value, source)
    return defaults


def dict_attribute(cls, attr, source):
    """A class-level dict such as attribute_map, as {key: value or expr}."""
    for name, value, _ in class_assignments(cls):
        if name == attr and isinstance(value, ast.Dict):
            out = {}
            for key, val in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    out[key.value] = value_of(val, source) if not isinstance(val, ast.Name) else val.id
            return out
    return None


def legacy_kwargs(cls, source):
    """Keys read with kwargs.get/pop("key", default) in the class's methods, with defaults.

    Old config.json keys (global_rope_theta, rope_local_base_freq, rotary_pct, ...) are
    read this way by the dataclass configs; `into` lists where the value lands when the
    call is the value of a `X.setdefault("key", ...)`. kwargs.setdefault("key", v) counts too.
    """
    found = {}
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and _is_setdefault(node) and len(node.args) == 2:
            target = f'{source_of(node.func.value, source)}["{_const(node.args[0])}"]'
            _note_kwarg(node.args[1], source, found, target)
    for node in ast.walk(cls):
        _note_kwarg(node, source, found, None)
    return {k: v for k, v in found.items() if is_position_field(k) or "into" in v}


def _is_setdefault(node):
    return isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault"


def _const(node):
    return node.value if isinstance(node, ast.Constant) else None


def _note_kwarg(node, source, found, into):
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return
    func = node.func
    if func.attr not in ("get", "pop", "setdefault") or getattr(func.value, "id", None) != "kwargs":
        return
    key = _const(node.args[0]) if node.args else None
    if not isinstance(key, str) or (key in found and into is None):
        return
    entry = found.setdefault(key, {})
    entry["default"] = value_of(node.args[1], source) if len(node.args) > 1 else None
    if into and into.replace("self.", "") not in entry.setdefault("into", []):
        entry["into"].append(into.replace("self.", ""))


def derived_fields(cls, source):
    """Position fields assigned in __post_init__/__init__ bodies: {field: [expression source, ...]}."""
    out = {}
    for stmt in cls.body:
        if not (isinstance(stmt, ast.FunctionDef) and stmt.name in ("__post_init__", "__init__")):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self" and is_position_field(target.attr)):
                    text = source_of(node.value, source)
                    exprs = out.setdefault(target.attr, [])
                    if text not in exprs:
                        exprs.append(text[:200])
    return out


def base_names(cls):
    """Names of the base classes (plain names or the last attribute)."""
    names = []
    for base in cls.bases:
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names
