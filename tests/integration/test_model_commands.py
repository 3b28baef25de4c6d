"""Every "shown by" command of `posenc model` runs exactly as printed, with exit 0, on every
config of tests/data/configs/models, and shows that mechanism of that model: the scheme and
stack it reads from --hf-config are the report's, with the report's numbers (heads, buckets,
distance, convention, rows, width, sections, layers), and a rope command prints the report's
inverse frequencies. The report's numbers themselves are re-derived from transformers' code in
test_models.py and test_model_schemes.py; this test checks that the commands reproduce them."""
import glob
import json
import os
import re
import shlex
import tempfile

import numpy as np

from harness import expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = sorted(glob.glob(os.path.join(HERE, "..", "data", "configs", "models", "*.json")))


def note_flags(stderr):
    """The flags of the note 'posenc: note: FILE: model_type ... SCHEME (WHERE): --a 1 --b x'."""
    m = re.search(r"^posenc: note: .*?\) (\w+) \(([^)]*)\):((?: --[\w-]+ \S+)*)$", stderr, re.M)
    if not m:
        return None, None, {}
    pairs = re.findall(r"--([\w-]+) (\S+)", m.group(3))
    return m.group(1), m.group(2), dict(pairs)


# For each scheme: the note's flag and the report's value it must equal.
FLAGS = {
    "alibi": [("heads", "heads")],
    "t5": [("buckets", "num_buckets"), ("max-distance", "max_distance")],
    "sinusoidal": [("len", "rows"), ("dim", "width"), ("convention", "convention")],
    "learned": [("len", "positions"), ("dim", "width")],
    "deberta": [("buckets", "position_buckets"), ("max-relative", "max_relative_positions")],
    "mrope": [("mrope-layout", "interleaved")],
    "nope": [],
}

commands = 0
with tempfile.TemporaryDirectory() as tmp:
    for path in MODELS:
        name = os.path.basename(path)
        r = run("model", path, "--format", "json", text=True)
        expect(r.returncode == 0, f"{name}: posenc model: {r.stderr.strip()}")
        if r.returncode != 0:
            continue
        report = json.loads(r.stdout)
        for m in report["mechanisms"]:
            if not m["command"]:
                continue
            words = shlex.split(m["command"])
            expect(words[0] == "posenc", f"{name}: '{m['command']}' is a posenc command")
            c = run(*words[1:], text=True, cwd=tmp)  # exactly as printed
            commands += 1
            expect(c.returncode == 0, f"{name}: '{m['command']}' exits {c.returncode}: {c.stderr.strip()}")
            if c.returncode != 0:
                continue
            v = m["values"]
            if words[1] == "rope":
                # the rope command's table is the report's rope (its layer type's)
                j = run(*words[1:], "--format", "json", text=True, cwd=tmp)
                got = np.array(json.loads(j.stdout)["inv_freq"]) if j.returncode == 0 else np.array([])
                want = np.array(v["inv_freq"])
                expect(got.shape == want.shape and np.all(np.abs(got - want) <= 1e-12 * np.abs(want)),
                       f"{name}: '{m['command']}' shows the report's inv_freq")
                continue
            expect(words[1:3] == ["generate", m["kind"]], f"{name}: '{m['command']}' generates {m['kind']}")
            scheme, where, flags = note_flags(c.stderr)
            expect(scheme == m["kind"] and where == m["where"],
                   f"{name}: '{m['command']}' reads the {m['kind']} of {m['where']!r} (note: {scheme} {where!r})")
            for flag, key in FLAGS.get(m["kind"], []):
                want = v[key]
                if key == "interleaved":
                    want = "interleaved" if want else "sectioned"
                got = flags.get(flag)
                expect(got is not None and (got == str(want) or (isinstance(want, (int, float)) and not isinstance(
                    want, bool) and float(got) == float(want))),
                       f"{name}: '{m['command']}' --{flag} {got} is the report's {key} {want}")
            if m["kind"] == "t5":
                expect(flags.get("mode") == ("bidirectional" if v["bidirectional"] else "causal"),
                       f"{name}: '{m['command']}' reads the {m['where']} stack ({flags.get('mode')})")
            if m["kind"] == "mrope":
                expect(flags.get("sections") == ",".join(str(x) for x in v["mrope_section"]),
                       f"{name}: '{m['command']}' --sections {flags.get('sections')}")
            if m["kind"] == "nope":  # --layers L --interval k: the NoPE layers are those with (layer + 1) % k == 0
                k, n = int(flags.get("interval", 0)), int(flags.get("layers", 0))
                expect(k > 0 and n == report["num_layers"] and [i for i in range(n) if (i + 1) % k == 0] == m["layers"],
                       f"{name}: '{m['command']}' --layers {n} --interval {k} gives the report's layers {m['layers']}")

# DeBERTa with position_biased_input adds an absolute table (DebertaV2Embeddings.position_embeddings,
# max_position_embeddings rows from position 0); its command reads it (it once failed with
# "internal: the learned report has no 'positions'").
with tempfile.TemporaryDirectory() as tmp:
    cfg = os.path.join(tmp, "config.json")
    json.dump({"model_type": "deberta-v2", "relative_attention": True, "position_buckets": 256,
               "position_biased_input": True, "max_position_embeddings": 512, "hidden_size": 768}, open(cfg, "w"))
    r = run("model", cfg, "--format", "json", text=True)
    learned = [m for m in json.loads(r.stdout)["mechanisms"] if m["kind"] == "learned"] if r.returncode == 0 else []
    expect(len(learned) == 1, f"DeBERTa position_biased_input: one learned table ({r.stderr.strip()})")
    if learned:
        c = run(*shlex.split(learned[0]["command"])[1:], text=True, cwd=tmp)
        _, where, flags = note_flags(c.stderr)
        expect(c.returncode == 0 and where == "embeddings" and flags.get("len") == "512" and flags.get("dim") == "768",
               f"DeBERTa absolute table: '{learned[0]['command']}' exits {c.returncode}, reads {flags}: {c.stderr.strip()}")

expect(commands >= 60, f"{commands} commands run")
finish()
