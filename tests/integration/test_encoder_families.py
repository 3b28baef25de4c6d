"""Encoder, speech and vision families without a 1-D RoPE (issue 27 item 5): MPNet, ESM-1v / ESM-2,
Wav2Vec2, HuBERT, the Pixtral and DINOv3 ViT vision towers, XGLM. Every expected number is
re-derived here in numpy from transformers' code at decba1d2 (main of 2026-08-19, the commit of
data/families/families.json), read for this test:
  models/mpnet/modeling_mpnet.py      MPNetEncoder.relative_position_bucket / compute_position_bias,
                                      MPNetEmbeddings (padding_idx = 1)
  models/esm/modeling_esm.py          EsmEmbeddings (absolute, padding_idx = pad_token_id),
                                      EsmRotaryEmbedding (rotary: 1 / θ^(arange(0, d, 2) / d))
  models/wav2vec2, models/hubert      *PositionalConvEmbedding, *SamePadLayer
  models/pixtral/modeling_pixtral.py  PixtralRotaryEmbedding.compute_default_rope_parameters
  models/dinov3_vit/modeling_dinov3_vit.py  DINOv3ViTRopePositionEmbedding, get_patches_center_coordinates
  models/xglm/modeling_xglm.py        XGLMSinusoidalPositionalEmbedding (offset 2, get_embedding)
The configs are the real ones of tests/data/configs/families (README.md there names their sources)."""
import io
import json
import math
import os
import tempfile

import numpy as np

from harness import expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
FAM = os.path.join(HERE, "..", "data", "configs", "families")
TMP = tempfile.TemporaryDirectory()


def path(name):
    return os.path.join(FAM, name)


def model(cfg):
    r = run("model", cfg, "--format", "json", text=True)
    expect(r.returncode == 0, f"{os.path.basename(cfg)}: posenc model exits 0 ({r.stderr.strip()[:200]})")
    return json.loads(r.stdout) if r.returncode == 0 else {"mechanisms": [], "family": None}


def one(report, kind):
    found = [m for m in report["mechanisms"] if m["kind"] == kind]
    expect(len(found) == 1, f"{report.get('model_type')}: one {kind} mechanism ({[m['kind'] for m in report['mechanisms']]})")
    return found[0] if found else {"values": {}, "notes": [], "command": None}


def refused(r, *words):
    line = r.stderr.strip()
    return r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == "" and all(w in line for w in words)


def with_fields(src, **changes):
    """A temporary copy of a real config with some fields changed (None removes the field)."""
    cfg = json.load(open(src))
    for k, v in changes.items():
        if v is None:
            cfg.pop(k, None)
        else:
            cfg[k] = v
    name = os.path.join(TMP.name, f"config{len(os.listdir(TMP.name))}.json")
    with open(name, "w") as f:
        json.dump(cfg, f)
    return name


# --- MPNet: T5's bidirectional buckets (32, 128, whatever the config says) + learned table from 2 ---
def mpnet_bucket(rel, num_buckets=32, max_distance=128):
    """MPNetEncoder.relative_position_bucket, in numpy with torch's float32 steps."""
    n = -rel
    num_buckets //= 2
    ret = (n < 0).astype(np.int64) * num_buckets
    n = np.abs(n)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    with np.errstate(divide="ignore"):
        ratio = np.log(n.astype(np.float32) / np.float32(max_exact)) / np.float32(math.log(max_distance / max_exact))
        large = max_exact + np.where(is_small, 0, (ratio * np.float32(num_buckets - max_exact))).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return ret + np.where(is_small, n, large)


mp = path("all-mpnet-base-v2.json")
rep = model(mp)
expect(rep["family"] == "MPNet", f"mpnet: family MPNet ({rep['family']})")
t5 = one(rep, "t5")
v = t5["values"]
expect((v.get("num_buckets"), v.get("max_distance"), v.get("bidirectional"), v.get("max_exact"), v.get("heads"),
        v.get("bias_tables")) == (32, 128, True, 8, 12, 1), f"mpnet: buckets 32/128 bidirectional, 8 exact, 12 heads, one table ({v})")
learned = one(rep, "learned")["values"]
expect((learned.get("rows"), learned.get("positions"), learned.get("offset"), learned.get("width")) == (514, 512, 2, 768),
       f"mpnet: learned 514 rows, positions 0..511 in rows 2..513, width 768 ({learned})")
# The bucket table of 200 positions (offsets -199..199) against MPNet's function (exact integers):
# entry (i, j) is the bucket of relative_position = j - i (memory_position - context_position).
r = run("generate", "--hf-config", mp, "--len", "200", "--format", "csv", text=True)
got = np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1)[:, 1:] if r.returncode == 0 else np.zeros((0, 0))
idx = np.arange(200)
want = mpnet_bucket(idx[None, :] - idx[:, None])
expect(got.shape == (200, 200) and np.array_equal(got.astype(np.int64), want),
       f"mpnet: generate --hf-config (t5, the model's default) is MPNet's relative_position_bucket on 200×200 ({r.stderr.strip()[:160]})")
# every bucket but 16: "a key after the query at distance 0" cannot happen (T5's bidirectional form)
expect(set(np.unique(want).tolist()) == set(range(32)) - {16}, "mpnet: offsets ±199 reach the 31 reachable buckets")
r = run("generate", "t5", "--hf-config", mp, "--causal", "--len", "4", text=True)
expect(refused(r, "bidirectional", "--causal"), f"mpnet: t5 --causal refused in one line ({r.stderr.strip()[:200]})")

# --- ESM: position_embedding_type decides ---
esm2 = path("esm2-t6-8m.json")
rep = model(esm2)
rope = one(rep, "rope")["values"]
d = 320 // 20  # EsmRotaryEmbedding: hidden_size // num_attention_heads
inv = (np.float32(1.0) / np.power(np.float32(10000.0), np.arange(0, d, 2, dtype=np.float32) / np.float32(d))).astype(np.float32)
expect(rope.get("base") == 10000 and rope.get("head_dim") == 16 and rope.get("rotary_dim") == 16
       and rope.get("layout") == "half" and np.allclose(rope.get("inv_freq", []), inv, rtol=1e-6, atol=0),
       f"esm2: rotary θ 10000 (class default), head 16, rotate_half, inv_freq as EsmRotaryEmbedding ({rope})")
expect(not any(m["kind"] == "learned" for m in rep["mechanisms"]), "esm2: no learned table (position_embedding_type rotary)")
expect(any(dd["field"] == "rope_theta" and "EsmConfig" in dd["source"] for dd in rep["defaults"]),
       f"esm2: rope_theta marked as EsmConfig's default ({rep['defaults']})")
# ESM-1v/1b: the class default 'absolute' (the ESM-2 file without its position_embedding_type).
esm1 = with_fields(esm2, position_embedding_type=None)
rep = model(esm1)
learned = one(rep, "learned")["values"]
expect((learned.get("rows"), learned.get("positions"), learned.get("offset"), learned.get("width")) == (1026, 1024, 2, 320),
       f"esm absolute: 1026 rows, positions from pad_token_id + 1 = 2 ({learned})")
r = run("rope", "--hf-config", esm1, text=True)
expect(refused(r, "'esm'", "learned", "not RoPE"), f"esm absolute: rope refused naming learned ({r.stderr.strip()[:200]})")
r = run("model", with_fields(esm2, position_embedding_type=None, pad_token_id=None), text=True)
expect(refused(r, "pad_token_id"), f"esm absolute without pad_token_id: refused naming it ({r.stderr.strip()[:200]})")
r = run("model", with_fields(esm2, position_embedding_type="relative_key"), text=True)
expect(refused(r, "position_embedding_type", "relative_key"), f"esm: an unread position_embedding_type refused ({r.stderr.strip()[:200]})")

# --- Wav2Vec2 / HuBERT: a grouped convolution, named, not tabulated ---
for name, fam in (("wav2vec2-base-960h.json", "Wav2Vec2"), ("chinese-hubert-base.json", "HuBERT")):
    rep = model(path(name))
    conv = one(rep, "convolutional")
    cv = conv["values"]
    # Conv1d(768, 768, kernel_size=128, padding=64, groups=16); SamePadLayer drops 1 frame (even kernel)
    expect(rep["family"] == fam and (cv.get("kernel"), cv.get("groups"), cv.get("channels_per_group"), cv.get("padding"),
                                     cv.get("trimmed_frames")) == (128, 16, 48, 64, 1) and conv["command"] is None,
           f"{name}: convolutional kernel 128, 16 groups of 48 channels, padding 64, 1 frame trimmed, no command ({cv})")
    expect(len(rep["mechanisms"]) == 1, f"{name}: no other mechanism ({[m['kind'] for m in rep['mechanisms']]})")
r = run("rope", "--hf-config", path("wav2vec2-base-960h.json"), text=True)
expect(refused(r, "'wav2vec2'", "convolutional", "not RoPE"), f"wav2vec2: rope refused naming the convolution ({r.stderr.strip()[:200]})")
r = run("generate", "--hf-config", path("chinese-hubert-base.json"), text=True)
expect(refused(r, "kernel 128", "16 groups"), f"hubert: generate refused naming kernel and groups ({r.stderr.strip()[:200]})")

# --- Pixtral vision tower: one θ ladder, even rungs to rows, odd rungs to columns ---
pix = path("pixtral-ministral-3-3b-vision.json")
rep = model(pix)
ax = one(rep, "axial-rope")
av = ax["values"]
hd, theta, side = 64, 10000.0, 1540 // 14
freqs = (np.float32(1.0) / np.power(np.float32(theta), np.arange(0, hd, 2).astype(np.float32) / np.float32(hd))).astype(np.float32)
h = np.arange(side)
inv_table = np.concatenate([np.repeat(np.outer(h, freqs[::2])[:, None, :], side, 1),
                            np.repeat(np.outer(h, freqs[1::2])[None, :, :], side, 0)], -1).reshape(-1, hd // 2)
i, j = 37, 90  # a patch: position id i·side + j (position_ids_in_meshgrid)
rows_f, cols_f = np.array(av.get("row_inv_freq", [])), np.array(av.get("column_inv_freq", []))
expect(len(rows_f) == 16 and len(cols_f) == 16
       and np.allclose(np.concatenate([i * rows_f, j * cols_f]), inv_table[i * side + j], rtol=1e-6, atol=0),
       f"pixtral: the angles of patch ({i}, {j}) are row·row_inv_freq then column·column_inv_freq as transformers' table")
expect((av.get("rows"), av.get("columns"), av.get("base"), av.get("layout"), av.get("head_dim")) == (110, 110, 10000, "half", 64)
       and ax["command"] == f"posenc generate axial-rope --hf-config {pix}", f"pixtral: 110×110 patches, θ 10000, half layout ({av}, {ax['command']})")
# The table the command writes: token n = patch (n // 110, n % 110), the angles of cat(inv_freq[id],
# inv_freq[id]) as PixtralRotaryEmbedding builds them (float32), for the first 500 patches (rows 0-4, every
# column). numpy's float32 power and posenc's may differ by 1 ulp in a frequency, and the product is
# rounded once more: 3e-7 relative (up to 2.5e-5 rad at angle 81.7); cos within 1e-5 for the same reason.
ids = np.arange(500)
angles = np.concatenate([inv_table[ids], inv_table[ids]], -1).astype(np.float32)
for table, want, rtol, atol in (("angle", angles, 3e-7, 0.0), ("cos", np.cos(angles), 0.0, 1e-5)):
    r = run("generate", "axial-rope", "--hf-config", pix, "--len", "500", "--table", table, "--format", "csv", text=True)
    got = np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1)[:, 1:] if r.returncode == 0 else np.zeros((0, 0))
    expect(got.shape == (500, 64) and np.allclose(got, want, rtol=rtol, atol=atol),
           f"pixtral: generate axial-rope --hf-config --table {table} is transformers' for 500 patches "
           f"({np.abs(got - want).max() if got.shape == want.shape else got.shape}; {r.stderr.strip()[-160:]})")
for extra, words in ((["--positions", "pixel"], ["--ladder shared", "--positions index"]),
                     (["--axes-dim", "16,32"], ["--ladder shared", "same", "16", "32"])):
    r = run("generate", "axial-rope", "--grid", "2x2", "--dim", "48", "--ladder", "shared", *extra, text=True)
    expect(refused(r, *words), f"axial-rope --ladder shared {' '.join(extra)}: refused in one line ({r.stderr.strip()[:160]})")
r = run("rope", "--hf-config", pix, text=True)
expect(refused(r, "'pixtral'", "axial-rope"), f"pixtral: rope refused naming axial-rope ({r.stderr.strip()[:200]})")

# --- DINOv3 ViT: patch-centre coordinates in [-1, 1], 2π·θ^(-4k/d) ---
# ComfyUI's dino3_large.json spells model_type 'dinov3' (ComfyUI's own loader; transformers has no
# such model_type: DINOv3ViTConfig is 'dinov3_vit'), so posenc leaves it unknown (test_unknown_families);
# the same fields under transformers' spelling:
rep = model(path("dinov3-vitl16.json"))
expect(rep["family"] is None and rep["mechanisms"] == [], "dinov3 (ComfyUI spelling): not a transformers model_type, no mechanism")
rep = model(with_fields(path("dinov3-vitl16.json"), model_type="dinov3_vit"))
ax = one(rep, "axial-rope")
av = ax["values"]
hd, n = 1024 // 16, 224 // 16
inv = (1 / np.power(np.float32(100.0), np.arange(0, 1, 4 / hd, dtype=np.float32))).astype(np.float32)
coords = (np.float32(2.0) * (np.arange(0.5, n, dtype=np.float32) / np.float32(n)) - np.float32(1.0)).astype(np.float32)
expect(np.allclose(av.get("inv_freq", []), inv, rtol=1e-6, atol=0) and len(av.get("inv_freq", [])) == 16,
       f"dinov3_vit: 16 inverse frequencies 100^(-4k/64) ({av.get('inv_freq', [])[:3]}...)")
expect(np.array_equal(np.array(av.get("coordinates", []), dtype=np.float32), coords),
       f"dinov3_vit: the 14 patch centres (i + 0.5)/14·2 − 1 in float32 ({av.get('coordinates', [])[:3]}...)")
expect((av.get("rows"), av.get("base"), av.get("unrotated_tokens"), av.get("layout")) == (14, 100, 5, "half")
       and abs(av.get("angle_scale", 0) - 2 * math.pi) < 1e-15 and ax["command"] is None,
       f"dinov3_vit: 14×14 grid, θ 100, class + 4 register tokens unrotated, angle 2π·c·f, not tabulated ({av})")
r = run("generate", "--hf-config", with_fields(path("dinov3-vitl16.json"), model_type="dinov3_vit"), text=True)
expect(refused(r, "patch-centre coordinates", "does not tabulate", "posenc model"),
       f"dinov3_vit: generate --hf-config refused in one line ({r.stderr.strip()[:200]})")

# --- XGLM: fairseq sinusoid, position t in row t + 2 ---
xg = path("xglm-1.7b.json")
rep = model(xg)
sv = one(rep, "sinusoidal")["values"]
expect((sv.get("rows"), sv.get("width"), sv.get("convention"), sv.get("first_position")) == (2048, 2048, "fairseq", 2),
       f"xglm: fairseq 2048×2048 from row 2 ({sv})")
r = run("generate", "--hf-config", xg, "--len", "3", "--format", "csv", text=True)
half = 2048 // 2
w = np.exp(np.arange(half, dtype=np.int64).astype(np.float32) * np.float32(-(math.log(10000) / (half - 1))))
pos = np.arange(5, dtype=np.int64).astype(np.float32)[:, None] * w[None, :]
table = np.concatenate([np.sin(pos), np.cos(pos)], 1).astype(np.float32)  # get_embedding rows 0..4
got = np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1)[:, 1:] if r.returncode == 0 else np.zeros((0, 0))
expect(got.shape == (3, 2048) and np.allclose(got, table[2:5], rtol=0, atol=2e-6),
       f"xglm: generate --hf-config rows 0-2 are get_embedding rows 2-4 within 2e-6 ({r.stderr.strip()[:200]})")
TMP.cleanup()
finish()
