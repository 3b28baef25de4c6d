"""Merge data/families/manual.json (facts written by hand) into the extracted families.

manual.json holds:
  "expected": model types that issue 27 names; those with no config class go to `absent`;
  "entries": [{"model_type": ..., ["config_class": ...,] "why": ..., <field>: <value>, ...}].
A field given by hand replaces the extracted one; the family's `source` map then
says "manual" for it, or "manual (extracted agrees)" when the script found the same
value (every other field says "extracted"), the extracted value is
kept under `extracted_before_manual`, and `why` is kept as `manual_why`.
"""

import json
import os

IDENTITY = ("model_type", "config_class", "file")


def load_manual(path):
    """The manual document, or an empty one when the file does not exist."""
    if not path or not os.path.isfile(path):
        return {"expected": [], "entries": []}
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def mark_extracted(family):
    """Every fact field of a family starts as extracted."""
    family["source"] = {key: "extracted" for key in family if key not in IDENTITY and key != "source"}


def apply_entry(family, entry):
    """Put the hand-written fields of one entry into a family."""
    for key, value in sorted(entry.items()):
        if key in IDENTITY or key == "why":
            continue
        agrees = key in family and family[key] == value
        if key in family and not agrees:
            family.setdefault("extracted_before_manual", {})[key] = family[key]
        family[key] = value
        family["source"][key] = "manual (extracted agrees)" if agrees else "manual"
    family["manual_why"] = entry["why"]


def merge_manual(families, path):
    """Apply manual.json to the families in place; return the `absent` list."""
    manual = load_manual(path)
    for family in families:
        mark_extracted(family)
    present = {f["model_type"] for f in families}
    absent = []
    for entry in manual.get("entries", []):
        matches = [f for f in families if f["model_type"] == entry["model_type"]
                   and entry.get("config_class", f["config_class"]) == f["config_class"]]
        for family in matches:
            apply_entry(family, entry)
        if not matches:
            absent.append({"model_type": entry["model_type"], "why": entry["why"]})
    for name in manual.get("expected", []):
        if name not in present and all(a["model_type"] != name for a in absent):
            absent.append({"model_type": name, "why": "no config class with this model_type at this commit"})
    return sorted(absent, key=lambda a: a["model_type"])
