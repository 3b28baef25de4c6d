#!/usr/bin/python3
"""Regenerate the families table into a temp file and compare it byte for byte with the committed one.

    /usr/bin/python3 tools/families/check_regenerate.py /path/to/transformers [--commit SHA]

Exit 0 when identical, 1 when they differ (the first differing family is printed),
77 (skip) when no tree is given or the path does not exist, 2 on a usage error.
The commit defaults to the one recorded in the committed file, so that a checkout
at that commit regenerates the identical file.
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import extract  # noqa: E402

SKIP = 77


def first_difference(old_text, new_text):
    """A one-line description of the first family (or top-level key) that differs."""
    old, new = json.loads(old_text), json.loads(new_text)
    for key in sorted(set(old) | set(new)):
        if key != "families" and old.get(key) != new.get(key):
            return f"top-level {key!r}: committed {json.dumps(old.get(key))[:200]} != regenerated {json.dumps(new.get(key))[:200]}"
    by_id = lambda doc: {(f["model_type"], f["config_class"]): f for f in doc.get("families", [])}  # noqa: E731
    old_f, new_f = by_id(old), by_id(new)
    for ident in sorted(set(old_f) | set(new_f)):
        a, b = old_f.get(ident), new_f.get(ident)
        if a != b:
            if a is None or b is None:
                return f"family {ident[0]} ({ident[1]}): only in the {'regenerated' if a is None else 'committed'} file"
            field = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            return f"family {ident[0]} ({ident[1]}), field {field!r} differs"
    return "same data, different bytes (formatting or order)"


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if not args or not os.path.isdir(os.path.join(args[0], "src", "transformers", "models")):
        print("check_regenerate: skipped: no transformers tree given (or no src/transformers/models in it)")
        return SKIP
    committed_path = os.path.join(extract.REPO, "data", "families", "families.json")
    with open(committed_path, encoding="utf-8") as handle:
        committed = handle.read()
    commit = argv[argv.index("--commit") + 1] if "--commit" in argv else json.loads(committed)["transformers"]["commit"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "families.json")
        extract.main([args[0], "--commit", commit, "--out", out])
        with open(out, encoding="utf-8") as handle:
            regenerated = handle.read()
    if regenerated == committed:
        print(f"check_regenerate: {committed_path} regenerates identically from {args[0]}")
        return 0
    print(f"check_regenerate: differs: {first_difference(committed, regenerated)}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
