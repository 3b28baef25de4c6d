"""No silent guess (issue 27 item 2), over the real configs of tests/data/configs/families (each
with its _source). For every config whose model_type posenc does not know, `posenc model` reports
no mechanism and lists the position-related fields exactly as the file states them (compared with
Python's own json reading of the file), and `posenc rope --hf-config` refuses it in one line that
names --assume-family; with --assume-family llama it reads the file's rope_theta (where it has one).
Configs of known families are left to the family tests."""
import glob
import json
import os
import re

from harness import expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = sorted(glob.glob(os.path.join(HERE, "..", "data", "configs", "families", "*.json")))
FIELD = re.compile(r"rope|rotary|theta|position|pos_|window|layer_types|head_dim|partial|alibi|bucket|relative|"
                   r"max_position|num_hidden_layers|hidden_size|num_attention_heads|num_key_value_heads|n_layer|"
                   r"n_head|n_embd")

unknown = 0
for path in CONFIGS:
    name = os.path.basename(path)
    r = run("model", path, "--format", "json", text=True)
    expect(r.returncode == 0, f"{name}: posenc model exits 0 ({r.stderr.strip()[:200]})")
    if r.returncode != 0:
        continue
    report = json.loads(r.stdout)
    if report["family"] is not None:
        continue
    unknown += 1
    cfg = json.load(open(path))  # Python's json reads NaN and Infinity, as transformers does
    scope = cfg
    prefix = ""
    if "hidden_size" not in cfg and "head_dim" not in cfg and isinstance(cfg.get("text_config"), dict):
        scope, prefix = cfg["text_config"], "text_config."
    expect(report["mechanisms"] == [], f"{name}: model_type {report['model_type']} unknown: no mechanism reported")
    want = {prefix + k: v for k, v in scope.items() if FIELD.search(k)}
    got = {s["field"]: s["value"] for s in report["stated"]}
    expect(set(got) == set(want), f"{name}: stated fields {sorted(got)} are the file's {sorted(want)}")
    for k in want:
        same = got.get(k) == want[k] or (isinstance(want[k], float) and want[k] != want[k])
        expect(k not in got or same, f"{name}: {k} = {got.get(k)!r} as the file states {want[k]!r}")
    # what transformers' code holds, from the families table read from its sources (data/families)
    table = {f["model_type"]: f for f in json.load(open(os.path.join(HERE, "..", "..", "data", "families",
                                                                       "families.json")))["families"]}
    fam = table.get(report["model_type"])
    note = " ".join(report["notes"])
    expect((fam is not None and f"reads it as {fam['config_class']}" in note)
           or (fam is None and f"has no model_type '{report['model_type']}'" in note),
           f"{name}: the note names what transformers makes of {report['model_type']} ({note[-200:]})")
    r = run("rope", "--hf-config", path, text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "--assume-family" in r.stderr
           and f"model_type '{report['model_type']}' is not one posenc knows" in r.stderr,
           f"{name}: rope --hf-config refused in one line naming --assume-family ({r.stderr.strip()[:160]})")
    theta = scope.get("rope_theta")
    if isinstance(theta, (int, float)) and theta > 1:
        r = run("rope", "--hf-config", path, "--assume-family", "llama", "--format", "json", text=True)
        got_base = json.loads(r.stdout)["base"] if r.returncode == 0 else None
        expect(got_base == theta, f"{name}: --assume-family llama reads rope_theta {theta} ({got_base}, {r.stderr.strip()[:160]})")
# The vision towers posenc knows since issue 28 item 4: a learned-grid mechanism whose grid is
# image_size // patch_size per axis, with a class-token row except SigLIP
# (SiglipVisionEmbeddings: num_positions = num_patches), read here from each file with Python.
VISION = {"vit-base-patch16-224.json": True, "clip-vit-base-patch16.json": True, "clip-vit-large-patch14-vision.json": True,
          "dinov2-large.json": True, "siglip-so400m-patch14-384-vision.json": False}
for name, class_token in VISION.items():
    cfg = json.load(open(os.path.join(HERE, "..", "data", "configs", "families", name)))
    tower = cfg.get("vision_config", cfg)
    side = tower["image_size"] // tower["patch_size"]
    r = run("model", os.path.join(HERE, "..", "data", "configs", "families", name), "--format", "json", text=True)
    grids = [m for m in json.loads(r.stdout)["mechanisms"] if m["kind"] == "learned-grid"] if r.returncode == 0 else []
    v = grids[0]["values"] if len(grids) == 1 else {}
    expect(v.get("grid_rows") == side and v.get("grid_cols") == side and v.get("class_token") is class_token
           and v.get("rows") == side * side + class_token and v.get("width") == tower["hidden_size"],
           f"{name}: one learned grid of {side}x{side} patches, class token {class_token} ({v})")
# Learned tables posenc knows since issue 28 item 4, each (file: ({stack: row of position 0}, rows
# beyond max_position_embeddings, width field)):
# BartLearnedPositionalEmbedding has max_position_embeddings + 2 rows and reads row t + 2 in the
# encoder and in the decoder; the width is d_model.
# ElectraEmbeddings: max_position_embeddings rows of width embedding_size, row t.
LEARNED = {"bart-base.json": ({"encoder": 2, "decoder": 2}, 2, "d_model"),
           "electra-small-discriminator.json": ({"embeddings": 0}, 0, "embedding_size")}
for name, (stacks, extra_rows, width) in LEARNED.items():
    cfg = json.load(open(os.path.join(HERE, "..", "data", "configs", "families", name)))
    r = run("model", os.path.join(HERE, "..", "data", "configs", "families", name), "--format", "json", text=True)
    got = {m["where"]: m["values"] for m in (json.loads(r.stdout)["mechanisms"] if r.returncode == 0 else [])
           if m["kind"] == "learned"}
    want = {w: {"rows": cfg["max_position_embeddings"] + extra_rows, "positions": cfg["max_position_embeddings"] + extra_rows - off,
                "offset": off, "width": cfg[width]} for w, off in stacks.items()}
    expect(set(got) == set(want) and all({k: got[w].get(k) for k in want[w]} == want[w] for w in want),
           f"{name}: learned tables {want} ({got})")
expect(unknown >= 10, f"at least 10 configs of model types posenc does not know are checked ({unknown})")
print(f"{unknown} configs of unknown model types")
finish()
