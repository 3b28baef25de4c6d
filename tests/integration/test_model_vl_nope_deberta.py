"""`generate` (and the analyses) with --hf-config for the deberta, mrope and nope schemes
(issue 16): DeBERTa-v2/v3 relative buckets, Qwen2-VL / Qwen2.5-VL / Qwen3-VL multimodal RoPE and
the NoPE layers of Llama 4 (with its query temperature), SmolLM3 and Cohere2. Every expected value
is re-derived here in numpy from the transformers code named at each function, never from
posenc's output; the configs are read from tests/data/configs/models by model_type."""
import glob
import io
import json
import math
import os
import tempfile

import numpy as np

from harness import run_npy, expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = sorted(glob.glob(os.path.join(HERE, "..", "data", "configs", "models", "*.json")))
F32 = np.float32


def configs_of(*types):
    out = []
    for path in MODELS:
        cfg = json.load(open(path))
        inner = cfg.get("text_config") if "hidden_size" not in cfg and isinstance(cfg.get("text_config"), dict) else cfg
        if cfg.get("model_type") in types or inner.get("model_type") in types:
            out.append((path, cfg, inner))
    return out


npy = run_npy


def log32(x):
    """torch.log on float32: the float32 nearest ln x (rounded once from double; torch's float32
    kernel is within 1 ulp of it)."""
    return np.log(np.asarray(x, dtype=np.float64)).astype(F32)


# --- DeBERTa-v2/v3 ------------------------------------------------------------------------
# transformers models/deberta_v2/modeling_deberta_v2.py @ 0038a3caa5c7d0c5014704005dd67ab347451ddc:
# DebertaV2Encoder: max_relative_positions < 1 -> max_position_embeddings; build_relative_position:
# q_ids[:, None] - k_ids[None, :], make_log_bucket_position when bucket_size > 0 (int64 / int is
# float32 in torch, torch.log, torch.tensor((max - 1) / mid) float32, ceil, + mid);
# disentangled_attention_bias: att_span = position_buckets, c2p_pos = clamp(r + span, 0, 2span - 1),
# p2c_pos = clamp(-r + span, 0, 2span - 1).
def deberta_buckets(n, m, bucket_size, max_position):
    rel = np.arange(n, dtype=np.int64)[:, None] - np.arange(m, dtype=np.int64)[None, :]
    sign = np.sign(rel)
    mid = bucket_size // 2
    abs_pos = np.where((rel < mid) & (rel > -mid), mid - 1, np.abs(rel))
    ratio = abs_pos.astype(F32) / F32(mid)
    x = log32(ratio) / log32(F32((max_position - 1) / mid)) * F32(mid - 1)
    log_pos = np.ceil(x) + F32(mid)
    return np.where(abs_pos <= mid, rel.astype(F32), log_pos * sign).astype(np.int64)


def check_deberta():
    cases = configs_of("deberta-v2")
    expect(len(cases) >= 1, "a DeBERTa-v3 config present")
    n = 700  # past max_relative_positions 512
    for path, cfg, _ in cases:
        name = os.path.basename(path)
        buckets = cfg.get("position_buckets", -1)
        max_rel = cfg.get("max_relative_positions", -1)
        if max_rel < 1:
            max_rel = cfg.get("max_position_embeddings", 512)
        want = deberta_buckets(n, n, buckets, max_rel)
        for args in (["generate", "--hf-config", path], ["generate", "deberta", "--hf-config", path]):
            got, err = npy(*args, "--len", str(n))
            expect(got is not None and np.array_equal(got, want),
                   f"{name}: {' '.join(args[:2])} buckets = make_log_bucket_position ({err.strip()[:200]})")
            expect(f"--buckets {buckets} --max-relative {max_rel}" in err, f"{name}: the note names the model's values")
        span = buckets
        for index, w in (("c2p", np.clip(want + span, 0, 2 * span - 1)), ("p2c", np.clip(-want + span, 0, 2 * span - 1))):
            got, err = npy("generate", "deberta", "--hf-config", path, "--len", str(n), "--index", index)
            expect(got is not None and np.array_equal(got, w), f"{name}: {index} index ({err.strip()[:200]})")
        r = run("decay", "--hf-config", path, text=True)
        expect(r.returncode == 0 and r.stdout.count("\n") > 10, f"{name}: decay --hf-config just works ({r.stderr})")
    # Without position_buckets the model uses q - k unbucketed: refused in one line, naming posenc model.
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.json")
        json.dump({"model_type": "deberta-v2", "relative_attention": True, "position_biased_input": False,
                   "max_position_embeddings": 512}, open(cfg, "w"))
        r = run("generate", "deberta", "--hf-config", cfg, "--len", "4", text=True)
        expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "unbucketed" in r.stderr and "posenc model" in r.stderr
               and r.stdout == "", f"unbucketed DeBERTa refused in one line: {r.stderr!r}")
        rep = json.loads(run("model", cfg, "--format", "json", text=True).stdout)
        expect([m["command"] for m in rep["mechanisms"] if m["kind"] == "deberta"] == [None],
               "no 'shown by' command for an unbucketed DeBERTa")


# --- M-RoPE -------------------------------------------------------------------------------
# get_rope_index (models/qwen2_vl/modeling_qwen2_vl.py, qwen2_5_vl, qwen3_vl) for text + one
# image + text: text positions count up; an image of grid (1, H, W) merged by m gives H/m x W/m
# tokens at (s, s + h, s + w), s the next text position; the text after starts at max + 1.
# Qwen2VLRotaryEmbedding: inv_freq = 1 / base^(arange(0, d, 2) / d); emb = cat(freqs, freqs).
# apply_multimodal_rotary_pos_emb (Qwen2-VL, 2.5-VL): the last dim split into
# mrope_section * 2 chunks, chunk i from axis i % 3. Qwen3-VL apply_interleaved_mrope: pair j
# follows h if j % 3 == 1 and j < 3 s_h, w if j % 3 == 2 and j < 3 s_w, else t.
def vl_positions(before, grid_h, grid_w, merge, after):
    ids = [(t, t, t) for t in range(before)]
    h, w = grid_h // merge, grid_w // merge
    for i in range(h):
        for j in range(w):
            ids.append((before, before + i, before + j))
    nxt = max(max(p) for p in ids) + 1
    ids += [(nxt + t, nxt + t, nxt + t) for t in range(after)]
    return np.array(ids, dtype=np.int64)


def pair_axes(d, sec, interleaved):
    pairs = d // 2
    if interleaved:
        ax = np.zeros(pairs, dtype=np.int64)
        for j in range(pairs):
            if j % 3 == 1 and j < 3 * sec[1]:
                ax[j] = 1
            elif j % 3 == 2 and j < 3 * sec[2]:
                ax[j] = 2
        return ax
    return np.repeat(np.arange(3), sec)


def mrope_cos(ids, d, base, sec, interleaved):
    inv = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    ax = pair_axes(d, sec, interleaved)
    ang = ids[:, ax].astype(np.float64) * inv[None, :]
    return np.concatenate([np.cos(ang), np.cos(ang)], axis=1)


def mrope_fields(cfg, inner):
    rs = inner.get("rope_scaling") or inner.get("rope_parameters") or {}
    sec = rs.get("mrope_section")
    inter = rs.get("mrope_interleaved", inner.get("model_type", "").startswith("qwen3_vl"))
    d = inner.get("head_dim") or inner["hidden_size"] // inner["num_attention_heads"]
    base = inner.get("rope_theta") or rs.get("rope_theta")
    return d, base, sec, inter


def check_mrope():
    cases = configs_of("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_text")
    kinds = {cfg["model_type"] for _, cfg, _ in cases}
    expect({"qwen2_vl", "qwen2_5_vl", "qwen3_vl"} <= kinds, f"Qwen2-VL, 2.5-VL, 3-VL configs present ({kinds})")
    grid, merge, before, after = (1, 8, 12), 2, 3, 2
    for path, cfg, inner in cases:
        name = os.path.basename(path)
        d, base, sec, inter = mrope_fields(cfg, inner)
        ids = vl_positions(before, grid[1], grid[2], merge, after)
        common = ["--grid", ",".join(map(str, grid)), "--text-before", str(before), "--text-after", str(after)]
        got, err = npy("generate", "mrope", "--hf-config", path, "--table", "positions", *common)
        expect(got is not None and np.array_equal(got, ids), f"{name}: get_rope_index positions ({err.strip()[:300]})")
        want = mrope_cos(ids, d, base, sec, inter)
        got, err = npy("generate", "mrope", "--hf-config", path, "--precision", "f64", "--dtype", "float64", *common)
        expect(got is not None and got.shape == want.shape and float(np.max(np.abs(got - want))) <= 1e-12,
               f"{name}: cos table (base {base}, sections {sec}, {'interleaved' if inter else 'sectioned'}) "
               f"{None if got is None or got.shape != want.shape else np.max(np.abs(got - want))}")
        # float32 as transformers: within 4e-6 of the exact table (angle < 40: 40 * 2^-24 rounding + cos's)
        got, err = npy("generate", "mrope", "--hf-config", path, *common)
        expect(got is not None and got.shape == want.shape and float(np.max(np.abs(got - want))) <= 4e-6,
               f"{name}: float32 cos table within 4e-6")
        # Without a scheme the model decides: rope, the table of text tokens (t = h = w), which is
        # M-RoPE's for text: the same rows as the mrope table's text tokens.
        r = run("generate", "--hf-config", path, "--len", str(before), "--table", "cos", "--format", "npy",
                "--dtype", "float64", "-o", "-")
        if r.returncode == 0:
            plain = np.load(io.BytesIO(r.stdout))
            expect(plain.shape == (before, d) and float(np.max(np.abs(plain - want[:before]))) <= 1e-6,
                   f"{name}: the model decides rope, whose text rows are M-RoPE's text rows")
        else:
            expect(False, f"{name}: generate --hf-config (the model decides): {r.stderr.decode().strip()}")
    # The model's numbers, not the preset's: base, sections and layout follow the file.
    path, cfg, inner = configs_of("qwen2_vl")[0]
    with tempfile.TemporaryDirectory() as tmp:
        changed = dict(cfg)
        changed["rope_theta"] = 123456.0
        changed["rope_scaling"] = {"type": "mrope", "mrope_section": [32, 16, 16]}
        p = os.path.join(tmp, "config.json")
        json.dump(changed, open(p, "w"))
        d = cfg["hidden_size"] // cfg["num_attention_heads"]
        ids = vl_positions(before, grid[1], grid[2], merge, after)
        want = mrope_cos(ids, d, 123456.0, [32, 16, 16], False)
        got, err = npy("generate", "mrope", "--hf-config", p, "--precision", "f64", "--dtype", "float64",
                       "--grid", ",".join(map(str, grid)), "--text-before", str(before), "--text-after", str(after))
        expect(got is not None and got.shape == want.shape and float(np.max(np.abs(got - want))) <= 1e-12,
               f"a changed Qwen2-VL config: base 123456 and sections 32,16,16 are the file's ({err.strip()[:300]})")
        # vision_config.spatial_merge_size 4 and Qwen2.5-VL's tokens_per_second are read from the file
        changed = dict(cfg)
        changed["model_type"] = "qwen2_5_vl"
        changed["vision_config"] = {"spatial_merge_size": 4, "tokens_per_second": 2}
        json.dump(changed, open(p, "w"))
        got, err = npy("generate", "mrope", "--hf-config", p, "--table", "positions", "--grid", "1,8,12",
                       "--text-before", "3", "--text-after", "2")
        expect(got is not None and np.array_equal(got, vl_positions(3, 8, 12, 4, 2)) and "--tokens-per-second 2" in err,
               f"vision_config.spatial_merge_size 4, tokens_per_second 2 ({err.strip()[:300]})")
        # a scaled rope is not what the mrope scheme draws: refused in one line
        changed = dict(cfg)
        changed["rope_scaling"] = {"type": "yarn", "factor": 4.0, "mrope_section": [16, 24, 24]}
        json.dump(changed, open(p, "w"))
        r = run("generate", "mrope", "--hf-config", p, text=True)
        expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "scaled (yarn)" in r.stderr and r.stdout == "",
               f"a yarn-scaled M-RoPE is refused: {r.stderr!r}")


# --- NoPE ---------------------------------------------------------------------------------
# Llama4TextConfig: no_rope_layers default [int((i + 1) % no_rope_layer_interval != 0)] (4);
# Llama4TextAttention: use_rope = no_rope_layers[i]; on the others, with attn_temperature_tuning,
# q *= log1p(floor((cache_position.float() + 1.0) / floor_scale)) * attn_scale + 1.0 (float32).
# SmolLM3: use_rope = no_rope_layers[i]. Cohere2Config: layer i is full_attention when
# (i + 1) % sliding_window_pattern == 0 (4), and Cohere2Attention rotates only sliding layers.
def nope_layers_of(inner):
    mt = inner.get("model_type")
    n = inner.get("num_hidden_layers")
    if mt in ("llama4_text", "smollm3"):
        flags = inner.get("no_rope_layers") or [int((i + 1) % inner.get("no_rope_layer_interval", 4) != 0)
                                               for i in range(n)]
        return [i for i, f in enumerate(flags) if f == 0]
    if mt == "cohere2":
        types = inner.get("layer_types") or ["sliding_attention" if (i + 1) % inner.get("sliding_window_pattern", 4)
                                             else "full_attention" for i in range(n)]
        return [i for i, t in enumerate(types) if t == "full_attention"]
    return []


def check_nope():
    cases = configs_of("llama4_text", "smollm3", "cohere2")
    kinds = {inner.get("model_type") for _, _, inner in cases}
    expect({"llama4_text", "smollm3", "cohere2"} <= kinds, f"Llama 4, SmolLM3, Cohere2 configs present ({kinds})")
    for path, cfg, inner in cases:
        name = os.path.basename(path)
        want = np.zeros(inner["num_hidden_layers"])
        want[nope_layers_of(inner)] = 1
        got, err = npy("generate", "nope", "--hf-config", path, "--table", "layers")
        expect(got is not None and np.array_equal(got[:, 0], want), f"{name}: NoPE layers ({err.strip()[:300]})")
        if inner.get("model_type") == "llama4_text":
            fs, sc = inner.get("floor_scale", 8192), inner.get("attn_scale", 0.1)
            start = fs - 3
            t = np.arange(start, start + 8, dtype=F32)
            s = (np.log1p(np.floor((t + F32(1.0)) / F32(fs)).astype(np.float64)).astype(F32) * F32(sc) + F32(1.0))
            got, err = npy("generate", "nope", "--hf-config", path, "--table", "temperature", "--start", str(start),
                           "--len", "8", "--dtype", "float32")
            expect(got is not None and float(np.max(np.abs(got[:, 0] - s) / s)) <= 1e-6,
                   f"{name}: query temperature at floor_scale ({got[:, 0] if got is not None else err})")
            expect("--temperature true" in err, f"{name}: the temperature is switched on from the config")
        else:
            got, err = npy("generate", "nope", "--hf-config", path, "--table", "temperature", "--len", "4")
            expect(got is not None and np.all(got == 1) and "--temperature false" in err,
                   f"{name}: no query temperature ({err.strip()[:200]})")
    # NoPE layers at no single interval: refused (the layers table would be wrong), no command shown.
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "config.json")
        json.dump({"model_type": "smollm3", "num_hidden_layers": 6, "no_rope_layers": [1, 0, 1, 1, 0, 0]}, open(p, "w"))
        r = run("generate", "nope", "--hf-config", p, text=True)
        expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "not every k-th layer" in r.stderr
               and "1, 4-5" in r.stderr, f"irregular NoPE layers refused: {r.stderr!r}")
        rep = json.loads(run("model", p, "--format", "json", text=True).stdout)
        expect([m["command"] for m in rep["mechanisms"] if m["kind"] == "nope"] == [None],
               "no 'shown by' command for irregular NoPE layers")


check_deberta()
check_mrope()
check_nope()
finish()
