"""Per-layer truth for hybrid and per-layer-type families (issue 27 item 3), on the real configs of
tests/data/configs/families (each with its _source) and, for families with no public config found,
minimal configs holding only the fields the rule reads. Every expected value is re-derived here in
numpy from transformers' own code at decba1d2 (5.16.0.dev0), not from posenc:

- which layers are what: Qwen3NextConfig (linear_attention unless (i+1) % full_attention_interval == 0),
  JambaConfig.layers_block_type (attention when i % attn_layer_period == attn_layer_offset),
  NemotronHConfig._pattern_to_list (M, E, *, -), MuseGlimmerTextModel (no position embeddings where
  layer_rope_theta is 0), Exaone4Attention (global NoPE when sliding_window is set),
  MiMoV2FlashConfig (full on layer 0 and every 6th), ModernBertConfig (full when i % 3 == 0);
- each rope: compute_default_rope_parameters (1 / base ** (arange(0, dim, 2) / dim), dim = head_dim *
  partial_rotary_factor), _compute_proportional_rope_parameters (Gemma 4), _compute_llama3_parameters,
  HunYuanDenseV1RotaryEmbedding's alpha base, and DeepSeek-V3's softmax mscale**2."""
import json
import math
import os

import numpy as np

from family_checks import (FAM, by_kind, close, config_writer, default_inv_freq, every_layer_once, family, model,
                           rope_json, ropes)
from harness import expect, finish, run

write = config_writer("posenc_hybrid_")


# --- Qwen3-Next: 36 of 48 layers linear_attention (no positions), partial RoPE on the others ---
path, cfg = family("qwen3-next-80b-a3b.json")
rep = model(path)
if rep:
    full = [i for i in range(48) if (i + 1) % 4 == 0]
    linear = [i for i in range(48) if (i + 1) % 4 != 0]
    mixer = by_kind(rep, "mixer")
    expect(len(mixer) == 1 and mixer[0]["layers"] == linear and mixer[0]["layer_type"] == "linear_attention",
           f"qwen3-next: linear_attention layers are mixers ({[m['layers'][:5] for m in mixer]})")
    rope = by_kind(rep, "rope")
    dim = int(cfg["head_dim"] * cfg["partial_rotary_factor"])  # 256 * 0.25 = 64
    expect(len(rope) == 1 and rope[0]["layers"] == full and close(rope[0]["values"]["inv_freq"],
                                                                 default_inv_freq(cfg["rope_theta"], dim)),
           "qwen3-next: RoPE on the 12 full-attention layers, theta 1e7 over 64 of 256 dims")
    every_layer_once("qwen3-next", rep)
j, r = rope_json("--hf-config", path)
expect(set(j.get("per_layer_type", {})) == {"full_attention"}
       and j["per_layer_type"]["full_attention"]["layers"] == [i for i in range(48) if (i + 1) % 4 == 0]
       and j.get("no_rope_layers") == [i for i in range(48) if (i + 1) % 4 != 0],
       f"qwen3-next: rope --hf-config lists the full_attention layers as its one rope type, the others without "
       f"RoPE ({r.stderr.strip()[:200]})")
r = run("rope", "--hf-config", path, "--layer-type", "linear_attention", text=True)
expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "not attention" in r.stderr,
       f"qwen3-next: --layer-type linear_attention refused in one line ({r.stderr.strip()[:200]})")

# --- Jamba: Mamba mixers, attention without positions every 8th layer from 4 ---
path, cfg = family("jamba-1.5-mini.json")
rep = model(path)
if rep:
    att = [i for i in range(cfg["num_hidden_layers"]) if i % cfg["attn_layer_period"] == cfg["attn_layer_offset"]]
    none = by_kind(rep, "none")
    expect(len(none) == 1 and none[0]["layers"] == att, f"jamba: attention layers {att} carry no positions")
    expect(not by_kind(rep, "rope") and sum(len(m["layers"]) for m in by_kind(rep, "mixer")) == 32 - len(att),
           "jamba: no RoPE anywhere, the other 28 layers are Mamba mixers")
    every_layer_once("jamba", rep)
r = run("rope", "--hf-config", path, text=True)
expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "not RoPE" in r.stderr
       and "non-attention mixer layers (no positions) and attention without positions" in r.stderr,
       f"jamba: rope --hf-config refused in one line naming Mamba mixers and position-free attention ({r.stderr.strip()[:200]})")

# --- Nemotron-H and Nemotron-3: hybrid_override_pattern; the file's rope_theta is read by no code ---
for name in ("nemotron-h-56b.json", "nemotron-3-nano-30b-a3b.json"):
    path, cfg = family(name)
    rep = model(path)
    if not rep:
        continue
    pattern = cfg["hybrid_override_pattern"]
    expect(rep["num_layers"] == len(pattern), f"{name}: {len(pattern)} layers, the pattern's length")
    star = [i for i, ch in enumerate(pattern) if ch == "*"]
    none = by_kind(rep, "none")
    expect(len(none) == 1 and none[0]["layers"] == star, f"{name}: attention layers {star[:4]}... carry no positions")
    expect(not by_kind(rep, "rope"), f"{name}: no RoPE")
    every_layer_once(name, rep)
    unread = {s["field"]: s for s in rep["stated"]}
    if "rope_theta" in cfg:
        expect("rope_theta" in unread and unread["rope_theta"]["value"] == cfg["rope_theta"]
               and unread["rope_theta"]["source"].startswith("unread"),
               f"{name}: the file's rope_theta {cfg['rope_theta']} is reported as unread")
    else:
        expect("rope_theta" not in unread, f"{name}: no rope_theta, none reported")

# --- Falcon Mamba: no positions at all ---
path = os.path.join(FAM, "falcon-mamba-7b.json")
rep = model(path)
if rep:
    expect([m["kind"] for m in rep["mechanisms"]] == ["mixer"] and rep["num_layers"] == 64,
           "falcon-mamba: one mechanism, Mamba mixers in all 64 layers")

# --- Muse Glimmer: layer_rope_theta == 0 layers have no RoPE ---
path, cfg = family("muse-glimmer-30b.json")
scope = cfg["text_config"] if "text_config" in cfg and "hidden_size" not in cfg else cfg
rep = model(path)
if rep:
    thetas = scope["layer_rope_theta"]
    nope = [i for i, t in enumerate(thetas) if t == 0]
    got = by_kind(rep, "nope")
    expect(len(got) == 1 and got[0]["layers"] == nope and len(nope) == 13, f"muse-glimmer: NoPE on the 13 layers {nope[:4]}...")
    rope = by_kind(rep, "rope")
    expect(sorted(i for m in rope for i in m["layers"]) == [i for i, t in enumerate(thetas) if t != 0]
           and all(close(m["values"]["inv_freq"], default_inv_freq(scope["rope_parameters"]["rope_theta"], scope["head_dim"]))
                   for m in rope),
           "muse-glimmer: the other 39 layers rotate with rope_parameters' theta over head_dim")
    every_layer_once("muse-glimmer", rep)

# --- Gemma 4: full layers rotate over global_head_dim (proportional), sliding over head_dim ---
path, cfg = family("gemma-4-26b-a4b.json")
tc = cfg["text_config"]
rep = model(path)
if rep:
    rope = ropes(rep)
    full_p = tc["rope_parameters"]["full_attention"]
    gdim = tc["global_head_dim"]
    angles = int(full_p["partial_rotary_factor"] * gdim // 2)  # _compute_proportional_rope_parameters
    want_full = np.concatenate([default_inv_freq(full_p["rope_theta"], gdim)[:angles], np.zeros(gdim // 2 - angles)])
    # its exponents are arange(0, 2 * angles, 2) / head_dim: the first `angles` of the default table over gdim
    want_sliding = default_inv_freq(tc["rope_parameters"]["sliding_attention"]["rope_theta"], tc["head_dim"])
    expect(set(rope) == {"full_attention", "sliding_attention"}, f"gemma-4: two ropes ({sorted(rope)})")
    if set(rope) == {"full_attention", "sliding_attention"}:
        expect(rope["full_attention"]["values"]["head_dim"] == gdim and close(rope["full_attention"]["values"]["inv_freq"], want_full),
               f"gemma-4: full layers over global_head_dim {gdim}, {angles} rotating pairs of theta 1e6")
        expect(close(rope["sliding_attention"]["values"]["inv_freq"], want_sliding),
               "gemma-4: sliding layers over head_dim 256, theta 1e4")
        full_layers = [i for i, t in enumerate(tc["layer_types"]) if t == "full_attention"]
        expect(rope["full_attention"]["layers"] == full_layers, f"gemma-4: full layers {full_layers}")
    every_layer_once("gemma-4", rep)

# --- MiMo-V2-Flash: sliding layers theta 1e4 (swa_rope_theta), full layers 5e6 ---
path, cfg = family("mimo-v2-flash.json")
rep = model(path)
if rep:
    rope = ropes(rep)
    dim = int(cfg["head_dim"] * 0.334)  # MiMoV2FlashConfig's rope_parameters: partial_rotary_factor 0.334
    full = [i for i in range(48) if i == 0 or (i + 1) % 6 == 0]
    expect(full == [i for i, p in enumerate(cfg["hybrid_layer_pattern"]) if p == 0],
           "mimo-v2-flash: the class's full layers are the file's hybrid_layer_pattern zeros")
    expect(set(rope) == {"full_attention", "sliding_attention"} and rope["full_attention"]["layers"] == full
           and close(rope["full_attention"]["values"]["inv_freq"], default_inv_freq(5_000_000.0, dim))
           and close(rope["sliding_attention"]["values"]["inv_freq"], default_inv_freq(cfg["swa_rope_theta"], dim)),
           "mimo-v2-flash: full layers theta 5e6, sliding layers swa_rope_theta 1e4, 64 rotary dims")

# --- EXAONE 4 1.2B: no sliding window, so every layer rotates (llama3 scaling) ---
path, cfg = family("exaone-4.0-1.2b.json")
rep = model(path)
if rep:
    s = cfg["rope_scaling"]
    inv = default_inv_freq(cfg["rope_theta"], cfg["head_dim"]).astype(np.float32)
    wavelen = 2 * math.pi / inv  # _compute_llama3_parameters
    low_wl = s["original_max_position_embeddings"] / s["low_freq_factor"]
    high_wl = s["original_max_position_embeddings"] / s["high_freq_factor"]
    llama = np.where(wavelen > low_wl, inv / s["factor"], inv)
    smooth = (s["original_max_position_embeddings"] / wavelen - s["low_freq_factor"]) / (s["high_freq_factor"] - s["low_freq_factor"])
    smoothed = (1 - smooth) * llama / s["factor"] + smooth * llama
    medium = ~(wavelen < high_wl) & ~(wavelen > low_wl)
    want = np.where(medium, smoothed, llama)
    rope = by_kind(rep, "rope")
    expect(len(rope) == 1 and not by_kind(rep, "nope") and rope[0]["where"] == "every layer"
           and close(rope[0]["values"]["inv_freq"], want, rtol=1e-6),
           "exaone-4 1.2B: sliding_window null, RoPE (llama3) on every layer")

# --- EXAONE 4 hybrid (sliding_window set): global layers NoPE. Minimal config, Exaone4Config's rule ---
path = write("exaone4-hybrid.json", {"model_type": "exaone4", "num_hidden_layers": 8, "hidden_size": 256,
                                     "num_attention_heads": 4, "sliding_window": 4096, "sliding_window_pattern": 4})
rep = model(path)
if rep:
    expect([m["layers"] for m in by_kind(rep, "nope")] == [[3, 7]]
           and [m["layers"] for m in by_kind(rep, "rope")] == [[0, 1, 2, 4, 5, 6]],
           "exaone4 hybrid: layers 3 and 7 (full_attention) NoPE, the sliding layers RoPE")

# --- ModernBERT: global_rope_theta on layers i % 3 == 0, local_rope_theta on the others ---
path = write("modernbert.json", {"model_type": "modernbert", "num_hidden_layers": 22, "hidden_size": 768,
                                 "num_attention_heads": 12, "global_attn_every_n_layers": 3,
                                 "global_rope_theta": 160000.0, "local_rope_theta": 10000.0})
rep = model(path)
if rep:
    rope = ropes(rep)
    expect(set(rope) == {"full_attention", "sliding_attention"}
           and rope["full_attention"]["layers"] == [i for i in range(22) if i % 3 == 0]
           and close(rope["full_attention"]["values"]["inv_freq"], default_inv_freq(160000.0, 64))
           and close(rope["sliding_attention"]["values"]["inv_freq"], default_inv_freq(10000.0, 64)),
           "modernbert: global theta 160000 on every 3rd layer from 0, local 10000 on the others")
j, r = rope_json("--hf-config", path)
expect(j.get("base") == 160000.0 and set(j.get("per_layer_type", {})) == {"full_attention", "sliding_attention"}
       and j["per_layer_type"]["sliding_attention"]["base"] == 10000.0,
       f"modernbert: rope --hf-config reports the global rope and lists both ({r.stderr.strip()[:200]})")

# --- Gemma 3n: sliding layers take rope_local_base_freq (class default 10000), unscaled ---
path = write("gemma3n.json", {"model_type": "gemma3n_text", "num_hidden_layers": 35, "hidden_size": 2048,
                              "num_attention_heads": 8, "head_dim": 256, "rope_theta": 1000000.0})
rep = model(path)
if rep:
    rope = ropes(rep)
    expect(set(rope) == {"full_attention", "sliding_attention"}
           and rope["full_attention"]["layers"] == [i for i in range(35) if (i + 1) % 5 == 0]
           and close(rope["sliding_attention"]["values"]["inv_freq"], default_inv_freq(10000.0, 256))
           and close(rope["full_attention"]["values"]["inv_freq"], default_inv_freq(1e6, 256)),
           "gemma3n: 28 sliding layers theta 10000 (rope_local_base_freq default), 7 full layers 1e6")

# --- OLMo 3: YaRN on full-attention layers only (transformers >= 5.13) ---
yarn = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 8192, "beta_fast": 32.0,
        "beta_slow": 1.0, "attention_factor": 1.2079441541679836}
path = write("olmo3.json", {"model_type": "olmo3", "num_hidden_layers": 8, "hidden_size": 4096,
                            "num_attention_heads": 32, "rope_theta": 500000, "rope_scaling": yarn,
                            "max_position_embeddings": 65536})
rep = model(path)
if rep:
    rope = ropes(rep)
    expect(set(rope) == {"full_attention", "sliding_attention"} and rope["full_attention"]["values"]["scaling"] == "yarn"
           and rope["sliding_attention"]["values"]["scaling"] == "none"
           and close(rope["sliding_attention"]["values"]["inv_freq"], default_inv_freq(500000.0, 128)),
           "olmo3: full layers YaRN, sliding layers the default rope of theta 500000")
# rope engines: the full layers' rope is YaRN in transformers and in vLLM alike (vLLM scales only the full
# layers); the sliding layers' rope is unscaled in both, so neither table is compared with one that scales all.
# Without --layer-type both ropes are compared, one section each.
j, r = rope_json("engines", "--hf-config", path)
by_type = j.get("rope_types", {})
expect(j.get("layer_types") == ["full_attention", "sliding_attention"]
       and by_type.get("full_attention", {}).get("rope_type") == "yarn"
       and by_type.get("sliding_attention", {}).get("rope_type") == "none"
       and by_type["full_attention"]["layers"] == [i for i in range(8) if (i + 1) % 4 == 0]
       and all(next(e for e in by_type[t]["engines"] if e["convention"] == "vllm")["verdict"].startswith("agrees")
               for t in by_type),
       f"olmo3: rope engines compares the full layers' yarn and the sliding layers' default rope ({r.stderr.strip()[:200]})")
for layer_type, method in (("full_attention", "yarn"), ("sliding_attention", "none")):
    r = run("rope", "engines", "--hf-config", path, "--layer-type", layer_type, text=True)
    first = r.stdout.splitlines()[0] if r.stdout else ""
    vllm = [l for l in r.stdout.splitlines() if l.strip().startswith("vllm ") and ("agrees" in l or "differs" in l)]
    expect(r.returncode == 0 and f", {method} with 64 pairs" in first and vllm and "agrees" in vllm[0],
           f"olmo3: rope engines {layer_type} compares the {method} rope ({first[:120]}, {vllm[:1]})")

# --- Hunyuan: rope_scaling {"type": "dynamic", "alpha": A} is a fixed base theta * A ** (d / (d - 2)) ---
path = write("hunyuan.json", {"model_type": "hunyuan_v1_dense", "num_hidden_layers": 32, "hidden_size": 4096,
                              "num_attention_heads": 32, "head_dim": 128, "rope_theta": 10000.0,
                              "rope_scaling": {"type": "dynamic", "alpha": 1000.0, "factor": 1.0}})
j, r = rope_json("--hf-config", path)
base = 10000.0 * 1000.0 ** (128 / 126)  # 1.116e7
exps = np.arange(0, 128, 2, dtype=np.int64).astype(np.float32) / np.float32(128)
want = (1.0 / (np.float32(base) ** exps)).astype(np.float64)
expect(j and abs(j["base"] - base) <= 1e-9 * base and abs(base - 1.116e7) < 0.001e7 and j["rope_type"] == "none"
       and close(j["inv_freq"], want, rtol=1e-6),
       f"hunyuan: base 10000 * 1000^(128/126) = {base:.6g}, fixed ({j.get('base')}, {r.stderr.strip()[:200]})")

# --- Persimmon: partial_rotary_factor 0.5 by default; ERNIE 4.5 and CodeGen: adjacent pairs ---
path = write("persimmon.json", {"model_type": "persimmon", "hidden_size": 4096, "num_attention_heads": 64,
                                "rope_theta": 25000.0})
j, r = rope_json("--hf-config", path)
expect(j and close(j["inv_freq"], default_inv_freq(25000.0, 32)),
       f"persimmon: 0.5 of the 64-dim head rotates ({r.stderr.strip()[:200]})")
for mt, extra in (("ernie4_5", {"head_dim": 128}), ("codegen", {"n_embd": 4096, "n_head": 16, "rotary_dim": 64}),
                  ("deepseek_v32", {})):
    cfgs = {"model_type": mt, "hidden_size": 1024, "num_attention_heads": 8, **extra}
    if mt == "codegen":
        cfgs = {"model_type": mt, **extra}
    if mt == "deepseek_v32":
        cfgs = json.load(open(os.path.join(FAM, "deepseek-v3.2.json")))
    path = write(f"{mt}.json", cfgs)
    rep = model(path)
    if rep:
        rope = by_kind(rep, "rope")
        expect(rope and rope[0]["values"]["layout"] == "interleaved", f"{mt}: adjacent pairs ({rope and rope[0]['values']['layout']})")

# --- Kimi-K2 (DeepSeek-V3 code): transformers' logit scale is mscale**2 ---
path, cfg = family("kimi-k2-instruct.json")
rs = cfg["rope_scaling"]
mscale = 0.1 * rs["mscale_all_dim"] * math.log(rs["factor"]) + 1.0  # yarn_get_mscale
j, r = rope_json("--hf-config", path)
expect(j and abs(j["logit_scale"] - mscale ** 2) < 1e-12 and abs(mscale ** 2 - 1.813) < 5e-4,
       f"kimi-k2: transformers' logit scale mscale^2 = {mscale ** 2:.6g} ({j.get('logit_scale')})")

finish()
