#!/usr/bin/python3
"""Write data/families/families.json from a transformers source tree.

    /usr/bin/python3 tools/families/extract.py /path/to/transformers --commit <sha>

Reads src/transformers/models/*/configuration_*.py and modeling_*.py with `ast`
(transformers is never imported), merges data/families/manual.json, and
writes a deterministic JSON file. See tools/families/README.md.
"""

import argparse
import ast
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import config_facts as cf  # noqa: E402
import reach  # noqa: E402
from manual import merge_manual  # noqa: E402
from modeling_facts import def_facts  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BASE_CONFIGS = {"PreTrainedConfig", "PretrainedConfig"}


class ConfigIndex:
    """Every class of every configuration_*.py, by name."""

    def __init__(self, root):
        self.root = root
        self.by_name = {}
        pattern = os.path.join(root, "src", "transformers", "models", "*", "configuration_*.py")
        for path in sorted(glob.glob(pattern)):
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
            rel = os.path.relpath(path, root)
            for node in ast.parse(source).body:
                if isinstance(node, ast.ClassDef):
                    self.by_name.setdefault(node.name, []).append((rel, node, source))

    def lookup(self, name, prefer_rel=None):
        """(rel, class node, source) of a config class name, preferring the given file."""
        candidates = self.by_name.get(name, [])
        for candidate in candidates:
            if candidate[0] == prefer_rel:
                return candidate
        return candidates[0] if candidates else None

    def chain(self, entry):
        """The class and its config base classes, most basic first."""
        chain, seen = [entry], {entry[1].name}
        while True:
            bases = [b for b in cf.base_names(chain[0][1]) if b not in BASE_CONFIGS and b not in seen]
            found = next((self.lookup(b, chain[0][0]) for b in bases if self.lookup(b, chain[0][0])), None)
            if found is None:
                return chain
            seen.add(found[1].name)
            chain.insert(0, found)

    def config_classes(self):
        """(rel, node, source) of every class with its own `model_type = "..."`."""
        out = []
        for entries in self.by_name.values():
            out += [e for e in entries if cf.model_type_of(e[1])]
        return sorted(out, key=lambda e: (cf.model_type_of(e[1]), e[1].name, e[0]))


def config_record(index, entry):
    """The config-side facts of one config class, inherited fields merged in."""
    rel, node, source = entry
    record = {"model_type": cf.model_type_of(node), "config_class": node.name, "file": rel,
              "defaults": {}, "attribute_map": {}, "legacy_kwargs": {}, "derived_in_init": {}}
    chain = index.chain(entry)
    for c_rel, c_node, c_source in chain:
        record["defaults"].update(cf.own_defaults(c_node, c_source))
        record["attribute_map"].update(cf.dict_attribute(c_node, "attribute_map", c_source) or {})
        record["legacy_kwargs"].update(cf.legacy_kwargs(c_node, c_source))
        record["derived_in_init"].update(cf.derived_fields(c_node, c_source))
    if len(chain) > 1:
        record["inherits"] = [c[1].name for c in chain[:-1]]
    subs = cf.dict_attribute(node, "sub_configs", source)
    if subs:
        record["sub_configs"] = {k: sub_model_type(index, v, rel) for k, v in sorted(subs.items())}
        record["_sub_classes"] = sorted(v for v in subs.values() if isinstance(v, str))
    return record


def sub_model_type(index, class_name, prefer_rel):
    """The model_type of a sub-config class name ("auto" for AutoConfig)."""
    if class_name == "AutoConfig":
        return "auto"
    found = index.lookup(class_name, prefer_rel) if isinstance(class_name, str) else None
    if found is None:
        return {"unresolved": class_name}
    for c_node in reversed([c[1] for c in index.chain(found)]):
        if cf.model_type_of(c_node):
            return cf.model_type_of(c_node)
    return {"unresolved": class_name}


def rope_utils_reads(root):
    """Config attributes that transformers' shared rope code (modeling_rope_utils.py) reads."""
    path = os.path.join(root, "src", "transformers", "modeling_rope_utils.py")
    if not os.path.isfile(path):
        return set()
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    reads = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            reads |= def_facts(node, source)["config_reads"]
    return reads


def modeling_record(record, workspace, shared_reads):
    """The modeling-side facts of one config class."""
    folder = os.path.join(workspace.root, os.path.dirname(record["file"]))
    modules = [m for m in workspace.modeling_modules(folder) if m is not None]
    roots, scope = reach.find_roots(modules, record["config_class"], workspace)
    subs = set(record.pop("_sub_classes", []))
    summary = reach.summarize(reach.reach(roots, record["config_class"], workspace, subs))
    reads = summary.pop("config_reads") | (shared_reads if summary.pop("uses_rope_utils") else set())
    fields = set(record["defaults"]) - {"default_theta", "rope_parameters", "rope_scaling"}
    amap = record["attribute_map"]
    aliases = {f: {f, amap.get(f)} | {k for k, v in amap.items() if v == f} for f in fields}
    summary["modeling_unread"] = sorted(f for f in fields if not aliases[f] & reads)
    summary["modeling_files"] = sorted(m.rel for m in modules)
    summary["modeling_scope"] = scope
    if not modules:
        summary["mechanisms"] = {"unknown": ["no modeling_*.py in the config's folder"]}
        summary["rotation"] = "unknown"
    return summary


def transformers_version(root):
    """__version__ of src/transformers/__init__.py, else setup.py's version=."""
    for rel, pattern in (("src/transformers/__init__.py", r'__version__\s*=\s*"([^"]+)"'),
                         ("setup.py", r'version="([^"]+)"')):
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                match = re.search(pattern, handle.read())
            if match:
                return match.group(1)
    return None


def transformers_commit(root, given):
    """The commit given on the command line, else the tree's git HEAD, else None."""
    if given:
        return given
    try:
        out = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def add_sub_config_mechanisms(families):
    """For composite configs: the mechanisms of each sub-config's family."""
    by_type = {}
    for family in families:
        by_type.setdefault(family["model_type"], family)
    for family in families:
        subs = family.get("sub_configs") or {}
        found = {}
        for name, model_type in subs.items():
            if model_type == "auto":
                found[name] = ["any (AutoConfig: the checkpoint names the model type)"]
            elif isinstance(model_type, str) and model_type in by_type:
                found[name] = sorted(by_type[model_type]["mechanisms"])
        if found:
            family["sub_config_mechanisms"] = found
            if list(family["mechanisms"]) == ["none"]:
                family["mechanisms"] = {"in_sub_configs": ["the config's own model classes hold no position code;"
                                                           " see sub_config_mechanisms"]}
        rotations = {k: by_type[v]["rotation"] for k, v in subs.items() if isinstance(v, str) and v in by_type}
        if family["rotation"] == "unknown" and any(r not in ("none", "unknown") for r in rotations.values()):
            family["rotation"] = "in_sub_configs"
            family["sub_config_rotation"] = rotations


def build(root, commit, manual_path):
    """The whole document."""
    index = ConfigIndex(root)
    workspace = reach.Workspace(root)
    shared = rope_utils_reads(root)
    families = []
    for entry in index.config_classes():
        record = config_record(index, entry)
        record.update(modeling_record(record, workspace, shared))
        families.append(record)
    add_sub_config_mechanisms(families)
    absent = merge_manual(families, manual_path)
    return {
        "transformers": {"repo": "huggingface/transformers", "commit": commit,
                         "version": transformers_version(root),
                         "base_default_theta": base_default_theta(root)},
        "generated_by": "tools/families/extract.py",
        "families": families,
        "absent": absent,
    }


def base_default_theta(root):
    """RotaryEmbeddingConfigMixin.default_theta: the theta of configs that set none."""
    path = os.path.join(root, "src", "transformers", "modeling_rope_utils.py")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == "RotaryEmbeddingConfigMixin":
            for name, value, _ in cf.class_assignments(node):
                if name == "default_theta":
                    return cf.value_of(value, source)
    return None


def render(document):
    """Deterministic JSON text: sorted keys, 1-space indent, trailing newline."""
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transformers_root", help="a transformers source tree (holding src/transformers)")
    parser.add_argument("--commit", help="the transformers commit of the tree (default: git rev-parse HEAD)")
    parser.add_argument("--manual", default=os.path.join(REPO, "data", "families", "manual.json"))
    parser.add_argument("--out", default=os.path.join(REPO, "data", "families", "families.json"))
    args = parser.parse_args(argv)
    if not os.path.isdir(os.path.join(args.transformers_root, "src", "transformers", "models")):
        parser.error(f"{args.transformers_root}: no src/transformers/models in it")
    text = render(build(args.transformers_root, transformers_commit(args.transformers_root, args.commit),
                        args.manual))
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
