"""`posenc model`, `posenc rope --hf-config` and `generate rope` on the collection of real
configs in tests/data/configs/models, each expected value re-derived here in numpy from
transformers' own code (config class defaults, modeling files' rules, modeling_rope_utils
formulas, BLOOM/MPT/Falcon ALiBi slopes), never from posenc's output."""
import glob
import json
import math
import os
import re

import numpy as np

from harness import expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = sorted(glob.glob(os.path.join(HERE, "..", "data", "configs", "models", "*.json")))

# transformers config classes: model_type -> defaults of the fields that decide positions.
CLASS = {
    "llama": dict(rope_theta=10000.0), "mistral": dict(rope_theta=10000.0), "mixtral": dict(rope_theta=1e6),
    "qwen2": dict(rope_theta=10000.0), "qwen3": dict(rope_theta=10000.0), "qwen2_vl": dict(rope_theta=1e6),
    "qwen2_5_vl": dict(rope_theta=1e6), "qwen3_vl_text": dict(rope_theta=5e6), "gemma": dict(rope_theta=10000.0),
    "gemma2": dict(rope_theta=10000.0, head_dim=256),
    "gemma3_text": dict(rope_theta=1e6, head_dim=256, rope_local_base_freq=10000.0, sliding_window_pattern=6,
                        num_attention_heads=8),
    "phi3": dict(rope_theta=10000.0), "deepseek_v2": dict(rope_theta=10000.0), "gpt_neox": dict(),
    "gptj": dict(), "falcon": dict(rope_theta=10000.0), "stablelm": dict(rope_theta=10000.0),
    "cohere": dict(rope_theta=10000.0), "cohere2": dict(rope_theta=10000.0, sliding_window_pattern=4),
    # GlmConfig.__post_init__: kwargs.setdefault("partial_rotary_factor", 0.5) (transformers 008e5743)
    "glm": dict(rope_theta=10000.0, partial_rotary_factor=0.5), "glm4": dict(rope_theta=10000.0), "olmo2": dict(rope_theta=10000.0),
    "granite": dict(rope_theta=10000.0), "gpt_oss": dict(rope_theta=150000.0), "smollm3": dict(rope_theta=2e6),
    "starcoder2": dict(rope_theta=10000.0), "llama4_text": dict(rope_theta=500000.0),
}
# apply_rotary_pos_emb of each modeling file: adjacent pairs (rotate_every_two, repeat_interleave,
# complex view_as_complex, DeepSeek-V3's q/k permutation) or rotate_half.
INTERLEAVED = {"cohere", "cohere2", "glm", "glm4", "llama4_text", "gptj", "deepseek_v2", "deepseek_v3"}
NO_ROPE = {"bloom", "mpt", "gpt2", "gpt_bigcode", "opt", "bert", "roberta", "xlm-roberta", "deberta-v2", "t5", "mt5", "umt5",
           "marian", "m2m_100", "whisper"}


def scope(cfg):
    if "hidden_size" not in cfg and "head_dim" not in cfg and isinstance(cfg.get("text_config"), dict):
        inner = dict(cfg["text_config"])
        inner.setdefault("model_type", cfg["model_type"])
        return inner
    return cfg


def rel_close(a, b, tol=1e-6):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol * np.maximum(np.abs(b), 1e-300)))


def default_inv(d, base):
    return 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)


def get_mscale(s, m=1.0):
    return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0


def yarn(d, base, rs, max_pos):
    # modeling_rope_utils._compute_yarn_parameters
    factor = rs["factor"]
    orig = rs.get("original_max_position_embeddings") or max_pos
    bf, bs = rs.get("beta_fast") or 32, rs.get("beta_slow") or 1
    pos = base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    corr = lambda n: (d * math.log(orig / (n * 2 * math.pi))) / (2 * math.log(base))
    low, high = corr(bf), corr(bs)
    if rs.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    extra = 1 - ramp
    inv = (1 / (factor * pos)) * (1 - extra) + (1 / pos) * extra
    if rs.get("attention_factor"):
        att = rs["attention_factor"]
    elif rs.get("mscale") and rs.get("mscale_all_dim"):
        att = get_mscale(factor, rs["mscale"]) / get_mscale(factor, rs["mscale_all_dim"])
    else:
        att = get_mscale(factor)
    return inv, att


def longrope(d, base, rs, max_pos, orig_top):
    # modeling_rope_utils._compute_longrope_parameters without seq_len (the rotary module at
    # init): short_factor; a top-level original_max_position_embeddings (Phi-3) sets
    # factor = max_position_embeddings / original for the attention factor
    if orig_top:
        orig, factor = orig_top, max_pos / orig_top
    else:
        orig, factor = max_pos, rs.get("factor")
    att = rs.get("attention_factor") or (1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(orig)))
    ext = np.asarray(rs["short_factor"], dtype=np.float64)
    return 1.0 / (ext * base ** (np.arange(0, d, 2, dtype=np.float64) / d)), att


def llama3(d, base, rs):
    inv = default_inv(d, base)
    f, lo, hi, L = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"], rs["original_max_position_embeddings"]
    wl = 2 * np.pi / inv
    scaled = np.where(wl > L / lo, inv / f, inv)
    smooth = (L / wl - lo) / (hi - lo)
    smoothed = (1 - smooth) * scaled / f + smooth * scaled
    medium = ~(wl < L / hi) & ~(wl > L / lo)
    return np.where(medium, smoothed, scaled)


def expected_ropes(cfg):
    """{layer_type or "": (base, inv_freq, attention_factor, layout, rotary_dim)} and NoPE layers."""
    s = scope(cfg)
    mt = s["model_type"]
    d_cls = CLASS.get(mt, {})
    get = lambda k, dflt=None: s[k] if s.get(k) is not None else d_cls.get(k, dflt)
    if "qk_rope_head_dim" in s:
        head = s["qk_rope_head_dim"]
    elif get("head_dim"):
        head = get("head_dim")
    else:
        head = get("hidden_size", s.get("n_embd")) // get("num_attention_heads", s.get("n_head"))
    partial = get("partial_rotary_factor", s.get("rotary_pct", 1.0))
    rot = s.get("rotary_dim") or int(head * partial)
    base = get("rope_theta", s.get("rotary_emb_base", 10000.0))
    layout = "interleaved" if mt in INTERLEAVED else "half"
    rs = s.get("rope_scaling") or {}
    kind = rs.get("rope_type", rs.get("type", "default"))
    att = 1.0
    if kind == "linear":
        inv = default_inv(rot, base) / rs["factor"]
    elif kind == "llama3":
        inv = llama3(rot, base, rs)
    elif kind == "yarn":
        inv, att = yarn(rot, base, rs, get("max_position_embeddings"))
    elif kind in ("longrope", "su"):
        inv, att = longrope(rot, base, rs, get("max_position_embeddings"), s.get("original_max_position_embeddings"))
    else:
        inv = default_inv(rot, base)
    n = get("num_hidden_layers", s.get("n_layer", 0))
    ropes = {"": (base, inv, att, layout, rot)}
    nope = []
    types = s.get("layer_types")
    if mt == "gemma2" and not types:
        types = ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(n)]
    if mt in ("gemma3_text", "cohere2") and not types:
        p = get("sliding_window_pattern")
        types = ["sliding_attention" if (i + 1) % p else "full_attention" for i in range(n)]
    if mt == "gemma3_text":  # Gemma3TextModel.rotary_emb_local: rope_local_base_freq, rope_type default
        local = get("rope_local_base_freq")
        ropes = {"full_attention": ropes[""], "sliding_attention": (local, default_inv(rot, local), 1.0, layout, rot)}
    elif types and len(set(types)) > 1 and mt != "cohere2":
        ropes = {t: ropes[""] for t in set(types)}
    if mt == "cohere2":  # Cohere2Attention rotates only on sliding-window layers
        nope = [i for i, t in enumerate(types) if t == "full_attention"]
        ropes = {"sliding_attention": ropes[""]}
    if mt in ("llama4_text", "smollm3"):  # use_rope = no_rope_layers[i], else (i + 1) % 4 != 0
        flags = s.get("no_rope_layers") or [int((i + 1) % 4 != 0) for i in range(n)]
        nope = [i for i in range(n) if flags[i] == 0]
    return ropes, nope, types or []


def alibi_expected(cfg):
    s = scope(cfg)
    mt = s["model_type"]
    n = s.get("n_head") or s.get("num_attention_heads") or s.get("n_heads")
    if mt == "mpt":  # build_mpt_alibi_tensor
        P = 2 ** math.ceil(math.log2(n))
        m = np.arange(1, P + 1, dtype=np.float32) * np.float32(s["attn_config"].get("alibi_bias_max", 8) / P)
        sl = np.float32(1.0) / np.power(np.float32(2.0), m)
        if P != n:
            sl = np.concatenate([sl[1::2], sl[::2]])[:n]
        return sl.astype(np.float64)
    cp = 2 ** math.floor(math.log2(n))  # build_alibi_tensor (BLOOM, Falcon)
    base = np.float32(2 ** (-(2 ** -(math.log2(cp) - 3))))
    sl = np.power(base, np.arange(1, 1 + cp).astype(np.float32))
    if cp != n:
        extra = np.float32(2 ** (-(2 ** -(math.log2(2 * cp) - 3))))
        rem = min(cp, n - cp)
        sl = np.concatenate([sl, np.power(extra, np.arange(1, 1 + 2 * rem, 2).astype(np.float32))])
    if mt == "falcon":  # .bfloat16(): round to nearest even on the upper 16 bits
        b = sl.astype(np.float32).view(np.uint32)
        b = ((b + np.uint32(0x7FFF) + ((b >> 16) & 1)) & np.uint32(0xFFFF0000)).astype(np.uint32)
        sl = b.view(np.float32)
    return sl.astype(np.float64)


def check_model(path):
    name = os.path.basename(path)
    cfg = json.load(open(path))
    src = cfg.get("_source", {})
    commit = src.get("commit")
    # a verified copy names the repository, the file and the 40-hex commit it was read at; a config
    # without one says so (commit null and a note) instead of inventing a commit
    expect(src.get("hf_model") and (
        (isinstance(commit, str) and re.fullmatch(r"[0-9a-f]{40}", commit) and src.get("repo") and src.get("path"))
        or (commit is None and "no public copy found" in src.get("note", ""))), f"{name}: _source {src}")
    s = scope(cfg)
    mt = s["model_type"]
    r = run("model", path, "--format", "json", text=True)
    expect(r.returncode == 0, f"{name}: posenc model exits 0 ({r.stderr.strip()})")
    if r.returncode != 0:
        return
    rep = json.loads(r.stdout)
    kinds = [m["kind"] for m in rep["mechanisms"]]
    rope_cmd = run("rope", "--hf-config", path, "--format", "json", text=True)
    uses_rope = mt not in NO_ROPE and not (mt == "falcon" and s.get("alibi"))
    if not uses_rope:
        expect("rope" not in kinds, f"{name}: no RoPE reported for a model without RoPE ({kinds})")
        expect(rope_cmd.returncode == 2 and rope_cmd.stderr.count("\n") == 1 and "'posenc model " in rope_cmd.stderr
               and "not RoPE" in rope_cmd.stderr, f"{name}: rope refuses in one line: {rope_cmd.stderr!r}")
    else:
        expect(rope_cmd.returncode == 0, f"{name}: rope --hf-config exits 0 ({rope_cmd.stderr.strip()})")
        ropes, nope, types = expected_ropes(cfg)
        got = {m["layer_type"] or "": m for m in rep["mechanisms"] if m["kind"] == "rope"}
        expect(set(got) == set(ropes), f"{name}: rope layer types {sorted(got)} == {sorted(ropes)}")
        for t, (base, inv, att, layout, rot) in ropes.items():
            if t not in got:
                continue
            v = got[t]["values"]
            expect(v["base"] == base, f"{name} {t}: base {v['base']} == {base}")
            expect(v["rotary_dim"] == rot, f"{name} {t}: rotary_dim {v['rotary_dim']} == {rot}")
            expect(v["layout"] == layout, f"{name} {t}: layout {v['layout']} == {layout}")
            expect(rel_close(v["inv_freq"], inv), f"{name} {t}: inv_freq within 1e-6 of numpy")
            expect(abs(v["attention_factor"] - att) <= 1e-6 * att, f"{name} {t}: attention factor {v['attention_factor']} == {att}")
        got_nope = [m["layers"] for m in rep["mechanisms"] if m["kind"] == "nope"]
        expect((got_nope[0] if got_nope else []) == nope, f"{name}: NoPE layers {got_nope} == {nope}")
        rj = json.loads(rope_cmd.stdout) if rope_cmd.returncode == 0 else {}
        expect(rj.get("no_rope_layers") == nope, f"{name}: rope JSON no_rope_layers == {nope}")
        if len(ropes) > 1:
            per = rj.get("per_layer_type", {})
            expect(set(per) == set(ropes), f"{name}: rope JSON per_layer_type {sorted(per)}")
            for t, (base, inv, *_rest) in ropes.items():
                if t in per:
                    expect(rel_close(per[t]["inv_freq"], inv), f"{name}: per_layer_type {t} inv_freq")
                    want = [i for i, x in enumerate(types) if x == t]
                    expect(per[t]["layers"] == want, f"{name}: per_layer_type {t} layers")
        elif types and any(t not in ropes for t in types):
            # one rope type beside layers that carry none (Cohere2's full layers): listed, with its layers
            per = rj.get("per_layer_type", {})
            want = {t: [i for i, x in enumerate(types) if x == t] for t in ropes}
            expect({t: v["layers"] for t, v in per.items()} == want, f"{name}: per_layer_type lists the rope type")
        else:
            expect("per_layer_type" not in rj, f"{name}: no per_layer_type when every layer rotates alike")
        if mt == "llama4_text" or (mt == "llama4"):
            nm = [m for m in rep["mechanisms"] if m["kind"] == "nope"][0]["values"]
            fs, sc = s.get("floor_scale", 8192), s.get("attn_scale", 0.1)
            want = [math.log1p(math.floor((p + 1) / fs)) * sc + 1 for p in nm["temperature_positions"]]
            expect(rel_close(nm["temperature"], want, 1e-12), f"{name}: Llama 4 query temperature")
    if "qk_rope_head_dim" in s:
        mla = [m for m in rep["mechanisms"] if m["kind"] == "mla"]
        expect(len(mla) == 1 and mla[0]["values"]["qk_rope_head_dim"] == s["qk_rope_head_dim"], f"{name}: MLA width")
        if mla:
            rs = s.get("rope_scaling") or {}
            scale = (s["qk_rope_head_dim"] + s["qk_nope_head_dim"]) ** -0.5
            if rs.get("mscale_all_dim"):
                scale *= get_mscale(rs["factor"], rs["mscale_all_dim"]) ** 2
            expect(abs(mla[0]["values"]["softmax_scale"] - scale) <= 1e-12, f"{name}: MLA softmax scale")
    rs = s.get("rope_scaling") or {}
    if "mrope_section" in rs:
        sec = rs["mrope_section"]
        pairs = sum(sec)
        if rs.get("mrope_interleaved"):  # apply_interleaved_mrope
            axis = [1 if (i % 3 == 1 and i < 3 * sec[1]) else 2 if (i % 3 == 2 and i < 3 * sec[2]) else 0
                    for i in range(pairs)]
        else:  # apply_multimodal_rotary_pos_emb: contiguous chunks
            axis = [k for k, n in enumerate(sec) for _ in range(n)]
        mm = [m for m in rep["mechanisms"] if m["kind"] == "mrope"]
        expect(len(mm) == 1 and mm[0]["values"]["pair_axis"] == axis, f"{name}: M-RoPE pair axes")
    if "alibi" in kinds:
        a = [m for m in rep["mechanisms"] if m["kind"] == "alibi"][0]["values"]
        want = alibi_expected(cfg)
        # torch and numpy raise float32 to integer powers with vectorised powf that is not
        # correctly rounded (posenc rounds the exact power): within 1e-6 relative (a few float32 ulp).
        expect(rel_close(a["slopes"], want, 1e-6), f"{name}: ALiBi slopes {a['slopes'][:3]} == {want[:3]}")
    if mt in ("t5", "mt5", "umt5"):
        t5 = {m["layer_type"]: m["values"] for m in rep["mechanisms"] if m["kind"] == "t5"}
        nb, md = s.get("relative_attention_num_buckets", 32), s.get("relative_attention_max_distance", 128)
        expect(t5.get("encoder", {}).get("bidirectional") is True and t5.get("decoder", {}).get("bidirectional") is False
               and t5["encoder"]["num_buckets"] == nb and t5["decoder"]["max_distance"] == md, f"{name}: T5 stacks")
        # UMT5Attention: has_relative_attention_bias in every layer; T5: only in layer 0 of a stack
        own = [any("its own bias table" in n for n in m["notes"]) for m in rep["mechanisms"] if m["kind"] == "t5"]
        first = [any("in layer 0" in n for n in m["notes"]) for m in rep["mechanisms"] if m["kind"] == "t5"]
        expect(own == [mt == "umt5"] * 2 and first == [mt != "umt5"] * 2, f"{name}: bias table per layer {own} {first}")
    learned = [m["values"] for m in rep["mechanisms"] if m["kind"] == "learned"]
    # RoBERTa/XLM-R: create_position_ids_from_input_ids counts from padding_idx + 1 (RobertaConfig pad_token_id 1),
    # so max_position_embeddings rows hold max_position_embeddings - padding_idx - 1 positions.
    rpad = s.get("pad_token_id", 1) + 1
    offsets = {"opt": (2, s.get("max_position_embeddings")),
               "roberta": (rpad, s.get("max_position_embeddings", 514) - rpad),
               "xlm-roberta": (rpad, s.get("max_position_embeddings", 514) - rpad),
               "gpt2": (0, s.get("n_positions")), "gpt_bigcode": (0, s.get("n_positions")),
               "bert": (0, s.get("max_position_embeddings")), "whisper": (0, s.get("max_target_positions"))}
    if mt in offsets:
        off, positions = offsets[mt]
        expect(len(learned) == 1 and learned[0]["offset"] == off and learned[0]["positions"] == positions
               and learned[0]["rows"] == positions + off, f"{name}: learned table {learned} offset {off}")
    sin = [m["values"] for m in rep["mechanisms"] if m["kind"] == "sinusoidal"]
    conv = {"marian": ("paper", 0), "m2m_100": ("fairseq", s.get("pad_token_id", 1) + 1), "whisper": ("tensor2tensor", 0)}
    if mt in conv:
        expect(len(sin) == 1 and (sin[0]["convention"], sin[0]["first_position"]) == conv[mt],
               f"{name}: sinusoidal {sin}")
    if mt == "deberta-v2":
        dm = [m["values"] for m in rep["mechanisms"] if m["kind"] == "deberta"]
        expect(len(dm) == 1 and dm[0]["att_span"] == s["position_buckets"], f"{name}: DeBERTa span")
        expect(not learned, f"{name}: no absolute table when position_biased_input is false")


for path in MODELS:
    check_model(path)

# every "shown by" command of a report: test_model_commands.py runs each as printed
families = {scope(json.load(open(p)))["model_type"] for p in MODELS}
expect(len(MODELS) >= 40 and len(families) >= 25, f"collection: {len(MODELS)} configs, {len(families)} model types")

# generate rope under --convention hf: DeepSeek-V3's rotary module returns cat(freqs, freqs)
# (half) and permutes q/k instead; the table is that tensor, and a note says so.
ds = os.path.join(HERE, "..", "data", "configs", "deepseek-r1.json")
r = run("generate", "rope", "--hf-config", ds, "--len", "3", "--format", "json", "--dtype", "float64", text=True)
expect(r.returncode == 0 and "rotary module output: half layout" in r.stderr, f"deepseek-r1 table note: {r.stderr!r}")
if r.returncode == 0:
    j = json.loads(r.stdout)
    row = np.array(j["data"][2])
    inv, att = yarn(64, 10000.0, {"factor": 40, "original_max_position_embeddings": 4096, "beta_fast": 32,
                                  "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}, 163840)
    want = np.concatenate([np.cos(2 * inv), np.cos(2 * inv)]) * att
    expect(np.max(np.abs(row - want)) < 1e-6, f"deepseek-r1 hf cos row 2 is cat(cos, cos): {np.max(np.abs(row - want))}")

# a model folder works wherever --hf-config does
folder = os.path.join(HERE, "..", "data", "configs")
r = run("model", folder, text=True)
expect(r.returncode == 2 and "holds no config.json" in r.stderr, f"folder without config.json: {r.stderr!r}")
finish()
