#!/usr/bin/env python3
"""Fails when a folder of posenc includes one above it (docs/architecture.md, "Floors").

Reads every `#include "posenc/FOLDER/..."` of src/ and include/, and every relative include
that leaves a folder of src/, and checks it against the order below, written once here.
Usage: check_layers.py [REPOSITORY_ROOT]   (default: the repository holding this script)
Exit 0 when every include goes to the same floor or one below, 1 otherwise (one line each).
"""
import os
import re
import sys

# Lowest first. A folder may include its own floor and any floor below; "" is the ground
# (src/*.cpp, include/posenc/*.hpp: table, params, error, memory, parallel, fast_math, text).
FLOORS = ["", "formats", "encodings", "rope", "models", "schemes", "analysis", "reports", "render", "cli"]
# Sub-folders that belong to a floor (rope/engines is the rope floor: the core dispatches to it).
SUBFOLDERS = {"rope/engines": "rope"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def floor_of(rel):
    """The floor of a path relative to src/ or include/posenc/ ("rope/engines/x.cpp" -> "rope")."""
    parts = rel.split("/")
    if len(parts) == 1:
        return ""
    folder = parts[0]
    if len(parts) > 2 and f"{parts[0]}/{parts[1]}" in SUBFOLDERS:
        return SUBFOLDERS[f"{parts[0]}/{parts[1]}"]
    return folder


def sources(root):
    for top in ("src", os.path.join("include", "posenc")):
        base = os.path.join(root, top)
        for d, _, names in os.walk(base):
            for n in sorted(names):
                if n.endswith((".cpp", ".hpp", ".h", ".inc")):
                    path = os.path.join(d, n)
                    yield path, os.path.relpath(path, base).replace(os.sep, "/")


def target_of(root, path, inc):
    """Path of the included file relative to src/ or include/posenc/, or None (system, tests)."""
    if inc.startswith("posenc/"):
        return inc[len("posenc/"):]
    full = os.path.normpath(os.path.join(os.path.dirname(path), inc))
    src = os.path.join(root, "src")
    if full.startswith(src + os.sep):
        return os.path.relpath(full, src).replace(os.sep, "/")
    return None


def violations(root):
    out = []
    for path, rel in sources(root):
        own = floor_of(rel)
        if own not in FLOORS:
            out.append(f"{os.path.relpath(path, root)}: folder '{own}' is not in the floors {FLOORS[1:]}")
            continue
        text = open(path, encoding="utf-8").read()
        for m in INCLUDE.finditer(text):
            tgt = target_of(root, path, m.group(1))
            if tgt is None:
                continue
            theirs = floor_of(tgt)
            if theirs not in FLOORS:
                out.append(f"{os.path.relpath(path, root)}: includes \"{m.group(1)}\" of unknown folder '{theirs}'")
            elif FLOORS.index(theirs) > FLOORS.index(own):
                out.append(f"{os.path.relpath(path, root)}: {own or 'ground'} includes \"{m.group(1)}\" "
                           f"({theirs}, above it)")
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = violations(root)
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} include(s) go up a floor; order (lowest first): ground < " + " < ".join(FLOORS[1:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
