"""Which modeling code belongs to a config class, and what that code does for positions."""

import ast
import glob
import os
import re

from modeling_facts import Module

MAX_EVIDENCE = 6


class Workspace:
    """Parsed modeling modules of one transformers tree, loaded on demand."""

    def __init__(self, root):
        self.root = root
        self.modules = {}

    def module(self, path):
        """The parsed module at `path`, or None when there is no such file."""
        if path not in self.modules:
            self.modules[path] = Module(path, self.root) if os.path.isfile(path) else None
        return self.modules[path]

    def modeling_modules(self, folder):
        """The modeling_*.py modules of a model folder (generated files, not modular_*.py)."""
        paths = sorted(glob.glob(os.path.join(folder, "modeling_*.py")))
        return [self.module(p) for p in paths if not re.search(r"modeling_(tf|flax)_", p)]

    def resolve(self, module, name, depth=0):
        """(module, name) of the def a name refers to, following sibling-model imports."""
        if name in module.defs:
            return module, name
        if name in module.imports and depth < 4:
            path, original = module.imports[name]
            target = self.module(path)
            if target is not None:
                return self.resolve(target, original, depth + 1)
        return None


def effective_config(module, name, workspace, seen=None):
    """The config class a model class is declared for: its own `config: X`, else its first base's."""
    seen = seen or set()
    if (module.rel, name) in seen:
        return None
    seen.add((module.rel, name))
    declared = module.config_annotation(name) or module.init_config_annotation(name)
    if declared:
        return declared
    node = module.defs.get(name)
    for base in getattr(node, "bases", []):
        if isinstance(base, ast.Name):
            found = workspace.resolve(module, base.id)
            if found:
                return effective_config(found[0], found[1], workspace, seen)
    return None


def find_roots(modules, config_name, workspace):
    """(roots, scope): model classes declared for `config_name`, and how they were found."""
    declared, by_init = [], []
    for module in modules:
        for name, node in module.defs.items():
            if not isinstance(node, ast.ClassDef):
                continue
            if effective_config(module, name, workspace) == config_name:
                declared.append((module, name))
            elif module.init_config_annotation(name) == config_name:
                by_init.append((module, name))
    if declared:
        return declared, "classes declared for the config"
    if by_init:
        return by_init, "classes whose __init__ takes the config"
    everything = [(m, n) for m in modules for n in m.defs]
    return everything, "whole modeling file (no class names the config)" if everything else "no modeling file"


def reach(roots, config_name, workspace, sub_config_classes=()):
    """Every def reachable from the roots by name references.

    Model classes declared for one of the config's sub-configs (the vision
    tower, the text decoder of a composite model) are not entered: they are
    facts of that sub-config. Other model classes (BertModel inside DPR) are.
    """
    seen = {(m.rel, n): (m, n) for m, n in roots}
    queue = list(roots)
    while queue:
        module, name = queue.pop()
        for ref in sorted(module.facts(name)["refs"]):
            found = workspace.resolve(module, ref)
            if not found or (found[0].rel, found[1]) in seen:
                continue
            other = effective_config(found[0], found[1], workspace)
            if other and other != config_name and other in sub_config_classes:
                continue
            seen[(found[0].rel, found[1])] = found
            queue.append(found)
    return [seen[k] for k in sorted(seen)]


MIXERS = ("mamba", "linear_attention", "conv_mixer", "recurrent")
LAYERWISE_RE = re.compile(r"layer|sliding|use_rope|no_rope|nope|is_local|is_global", re.I)
NOPE_READS = ("no_rope_layers", "no_rope_layer_interval", "use_rope", "nope_layer_interval")


def _collect(reached):
    """Union of the local facts of the reached defs."""
    total = {"mechanisms": {}, "rotation": {}, "config_reads": set(), "rope_guards": [], "rope_types": set(),
             "layer_branches": [], "per_layer_type_rope": False, "uses_rope_utils": False, "nope_comment": []}
    for module, name in reached:
        facts = module.facts(name)
        for key in ("mechanisms", "rotation"):
            for kind, evidence in facts[key].items():
                total[key].setdefault(kind, set()).update(evidence)
        total["config_reads"] |= facts["config_reads"]
        total["rope_types"] |= facts["rope_types"]
        total["per_layer_type_rope"] |= facts["per_layer_type_rope"]
        total["uses_rope_utils"] |= bool(facts["refs"] & {"ROPE_INIT_FUNCTIONS", "dynamic_rope_update"})
        for key in ("rope_guards", "layer_branches"):
            total[key] += [item for item in facts[key] if item not in total[key]]
        if facts["nope_comment"]:
            total["nope_comment"].append(name)
    return total


def _nope_evidence(total):
    """Evidence that some layers skip rope: config reads of NoPE keys, rope applied under a condition only."""
    evidence = {f"reads config.{key}" for key in NOPE_READS if key in total["config_reads"]}
    conditional = set()
    for guard in total["rope_guards"]:
        if "then" in guard and "else" not in guard and "interleave" not in guard["condition"]:
            text = f'{guard["where"]}: rope only if {guard["condition"]}'
            (evidence if LAYERWISE_RE.search(guard["condition"]) else conditional).add(text)
    return evidence, conditional


def rotation_summary(total):
    """(rotation label, evidence by pairing kind)."""
    kinds = {k: sorted(v)[:MAX_EVIDENCE] for k, v in total["rotation"].items()}
    if not kinds:
        return ("unknown" if "rope" in total["mechanisms"] else "none"), {}
    if len(kinds) == 1:
        return next(iter(kinds)), kinds
    if "interleave" in kinds:
        return "interleave", kinds
    return "mixed", kinds


def summarize(reached):
    """The family facts of a set of reached defs."""
    total = _collect(reached)
    mechanisms = {k: sorted(v)[:MAX_EVIDENCE] for k, v in total["mechanisms"].items()}
    nope, conditional = _nope_evidence(total)
    if nope and "rope" in mechanisms:
        mechanisms["nope"] = sorted(nope)[:MAX_EVIDENCE]
    if conditional and "rope" in mechanisms:
        mechanisms["rope_conditional"] = sorted(conditional)[:MAX_EVIDENCE]
    if all(k in MIXERS for k in mechanisms):
        mechanisms["none"] = ["no position code reached from the config's model classes"]
    rotation, rotation_evidence = rotation_summary(total)
    return {
        "mechanisms": mechanisms,
        "rotation": rotation,
        "rotation_evidence": rotation_evidence,
        "rope_init": sorted(total["rope_types"]) if "rope" in mechanisms else [],
        "rope_per_layer_type": total["per_layer_type_rope"],
        "rope_guards": total["rope_guards"][:MAX_EVIDENCE],
        "layer_type_branches": total["layer_branches"][:8],
        "config_reads": total["config_reads"],
        "uses_rope_utils": total["uses_rope_utils"],
    }
