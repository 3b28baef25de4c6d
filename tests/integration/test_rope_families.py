"""DeepSeek-V4's two ropes, the mixer hybrids MiniMax / LFM2 / RecurrentGemma, and explicit nulls
(issue 27, items 1-3 of the families work after test_hybrid_families). Every expected value is
re-derived here in numpy from transformers' own code at decba1d2 (5.16.0.dev0), not from posenc:

- DeepseekV4Config.__post_init__: layer_types from the legacy compress_ratios (0 sliding, 4 CSA, 128
  HCA; the first num_hidden_layers entries) or the default schedule (HCA, HCA, then CSA / HCA in
  turn); partial_rotary_factor = qk_rope_head_dim / head_dim; the main rope (rope_theta, default) and
  the compress rope (the rope_scaling dict with rope_theta = compress_rope_theta and, for yarn,
  attention_factor 1.0); a nested {main, compress} rope_parameters is read as written, with
  standardize_rope_params' setdefault of rope_theta (config.rope_theta);
  DeepseekV4Attention: sliding_attention layers take main, CSA/HCA layers compress;
  _compute_yarn_parameters (find_correction_range with truncate, linear_ramp_factor);
- MiniMaxConfig (full_attention on even layers), Lfm2Config (full_attn_idxs or layer_types),
  RecurrentGemmaConfig.layers_block_type (block_types repeated); their RotaryEmbedding's
  compute_default_rope_parameters (dim = head_dim or hidden_size // num_attention_heads: a
  rotary_dim or partial_rotary_factor of the file is not read);
- PreTrainedConfig keeps a null of the file (no class default)."""
import json
import math

import numpy as np

from family_checks import close, config_writer, default_inv_freq, every_layer_once, family, model, rope_json, ropes
from harness import expect, finish, run

write = config_writer("posenc_ropefam_")


def yarn_inv_freq(base, dim, factor, orig, beta_fast=32, beta_slow=1, truncate=True):
    """_compute_yarn_parameters (modeling_rope_utils.py): the inverse frequencies."""
    def corr_dim(rot):
        return (dim * math.log(orig / (rot * 2 * math.pi))) / (2 * math.log(base))
    low, high = corr_dim(beta_fast), corr_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float32) - np.float32(low)) / np.float32(high - low), 0, 1)
    pos = np.float32(base) ** (np.arange(0, dim, 2).astype(np.float32) / np.float32(dim))
    extra, inter = np.float32(1) / pos, np.float32(1) / (np.float32(factor) * pos)
    ef = np.float32(1) - ramp.astype(np.float32)
    return (inter * (np.float32(1) - ef) + extra * ef).astype(np.float64)


# --- DeepSeek-V4-Flash: main rope on sliding layers, YaRN compress rope on CSA/HCA layers ---
V4_TYPES = {0: "sliding_attention", 4: "compressed_sparse_attention", 128: "heavily_compressed_attention"}
path, cfg = family("deepseek-v4-flash.json")
n = cfg["num_hidden_layers"]
types = [V4_TYPES[r] for r in cfg["compress_ratios"][:n]]
dim = int(cfg["head_dim"] * (cfg["qk_rope_head_dim"] / cfg["head_dim"]))  # 512 * 64/512 = 64
rs = cfg["rope_scaling"]
want_main = default_inv_freq(cfg["rope_theta"], dim)
want_compress = yarn_inv_freq(cfg["compress_rope_theta"], dim, rs["factor"], rs["original_max_position_embeddings"],
                              rs["beta_fast"], rs["beta_slow"])
rep = model(path)
if rep:
    got = ropes(rep)
    expect(set(got) == set(types), f"deepseek-v4: one rope per layer type ({sorted(got)})")
    for t, m in got.items():
        want = want_main if t == "sliding_attention" else want_compress
        v = m["values"]
        expect(m["layers"] == [i for i in range(n) if types[i] == t]
               and close(v["inv_freq"], want) and v["attention_factor"] == 1.0 and v["rotary_dim"] == 64
               and v["head_dim"] == 512 and v["layout"] == "interleaved",
               f"deepseek-v4: {t} layers rotate with the {'main' if t == 'sliding_attention' else 'compress'} rope "
               f"(64 of 512 dims, adjacent pairs, attention factor 1)")
        expect(any("dims 448..511 rotate" in s for s in m["notes"]),
               f"deepseek-v4: {t}: the rotated dims are the last 64 of the head")
    expect(got.get("sliding_attention", {}).get("values", {}).get("scaling") == "none"
           and got.get("heavily_compressed_attention", {}).get("values", {}).get("scaling") == "yarn",
           "deepseek-v4: rope_scaling goes to the compress rope only")
    every_layer_once("deepseek-v4", rep)
j, r = rope_json("--hf-config", path)
plt = j.get("per_layer_type", {})
expect(j and set(plt) == set(types) and close(j["inv_freq"], want_compress)
       and all(plt[t]["layers"] == [i for i in range(n) if types[i] == t] for t in plt)
       and close(plt["sliding_attention"]["inv_freq"], want_main) and j.get("no_rope_layers", []) == [],
       f"deepseek-v4: rope --hf-config: the compress rope first, every layer type listed ({r.stderr.strip()[:200]})")
# extrapolate compares the methods on every rope of the model: per layer type, its own base.
r = run("extrapolate", "--hf-config", path, "--train-len", "4096", "--target-len", "16384", "--format", "json",
        text=True)
ex = json.loads(r.stdout)["rope"] if r.returncode == 0 else []
none = {x["layer_type"]: x for x in ex if x["method"] == "none"}
expect(set(none) == set(types)
       and all(none[t]["layers"] == [i for i in range(n) if types[i] == t] for t in none)
       and close(none["sliding_attention"]["inv_freq"], want_main)
       and close(none["heavily_compressed_attention"]["inv_freq"], default_inv_freq(cfg["compress_rope_theta"], 64)),
       f"deepseek-v4: extrapolate covers each layer type with its own base ({r.stderr.strip()[-200:]})")
# The nested form DeepseekV4Config saves ({main, compress}); a compress entry without rope_theta takes
# config.rope_theta (standardize_rope_params' setdefault), not compress_rope_theta.
nested = {k: v for k, v in cfg.items() if k not in ("rope_scaling", "compress_ratios", "qk_rope_head_dim", "_source")}
nested["layer_types"] = types
nested["partial_rotary_factor"] = 0.125
nested["rope_parameters"] = {
    "main": {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.125},
    "compress": {"rope_type": "yarn", "factor": 16, "beta_fast": 32, "beta_slow": 1,
                 "original_max_position_embeddings": 65536, "attention_factor": 1.0, "partial_rotary_factor": 0.125}}
rep = model(write("v4_nested.json", nested))
if rep:
    got = ropes(rep)
    expect(close(got["compressed_sparse_attention"]["values"]["inv_freq"],
                 yarn_inv_freq(nested["rope_theta"], 64, 16, 65536))
           and close(got["sliding_attention"]["values"]["inv_freq"], want_main),
           "deepseek-v4 nested rope_parameters: the compress entry without rope_theta takes config.rope_theta")
# Without layer_types nor compress_ratios: HCA, HCA, then CSA and HCA in turn.
plain = {"model_type": "deepseek_v4", "num_hidden_layers": 6}
rep = model(write("v4_default.json", plain))
if rep:
    # ["heavily_compressed_attention"] * min(n, 2) + [CSA if i % 2 else HCA for i in range(n - 2)]
    want_types = ["heavily_compressed_attention"] * 2 + [
        "compressed_sparse_attention" if i % 2 else "heavily_compressed_attention" for i in range(6 - 2)]
    expect(rep["layer_types"] == want_types
           and close(ropes(rep)["heavily_compressed_attention"]["values"]["inv_freq"], default_inv_freq(160000.0, 64)),
           f"deepseek-v4 defaults: the class's schedule, compress_rope_theta 160000 unscaled ({rep['layer_types']})")
r = run("model", write("v4_bad.json", {**plain, "compress_ratios": [0, 8, 4, 4, 4, 4]}), text=True)
expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "compress_ratios" in r.stderr and "got 8" in r.stderr,
       f"deepseek-v4: a compress ratio other than 0, 4, 128 is refused in one line ({r.stderr.strip()[:200]})")

# --- MiniMax (MiniMax-Text-01): lightning-attention layers are mixers; softmax layers rotate all head_dim dims ---
mm = {"model_type": "minimax", "hidden_size": 6144, "num_attention_heads": 64, "head_dim": 128, "num_hidden_layers": 8,
      "rotary_dim": 64, "rope_theta": 10000000}  # the fields the rules read (no public whole config found)
for name, extra, full in (("minimax_default.json", {}, [i for i in range(8) if (i + 1) % 2 != 0]),
                          ("minimax_types.json", {"layer_types": ["linear_attention"] * 7 + ["full_attention"]}, [7])):
    rep = model(write(name, {**mm, **extra}))
    if not rep:
        continue
    got = ropes(rep)
    mixer = [m for m in rep["mechanisms"] if m["kind"] == "mixer"]
    expect(list(got) == ["full_attention"] and got["full_attention"]["layers"] == full
           and got["full_attention"]["values"]["rotary_dim"] == 128
           and close(got["full_attention"]["values"]["inv_freq"], default_inv_freq(1e7, 128))
           and len(mixer) == 1 and mixer[0]["layers"] == [i for i in range(8) if i not in full],
           f"minimax {name}: RoPE over all 128 dims (rotary_dim 64 unread) on {full}, lightning layers are mixers")
    every_layer_once(f"minimax {name}", rep)
j, r = rope_json("--hf-config", write("minimax_r.json", mm))
expect(j and j.get("no_rope_layers") == [1, 3, 5, 7] and set(j.get("per_layer_type", {})) == {"full_attention"},
       f"minimax: rope --hf-config counts the lightning layers among the layers without RoPE ({r.stderr.strip()[:200]})")

# --- LFM2: conv layers are mixers (a real config: LFM2.5-Encoder-350M), attention layers RoPE ---
path, cfg = family("lfm2.5-encoder-350m.json")
att = [i for i, t in enumerate(cfg["layer_types"]) if t == "full_attention"]
rep = model(path)
if rep:
    got = ropes(rep)
    mixer = [m for m in rep["mechanisms"] if m["kind"] == "mixer"]
    dim = cfg["hidden_size"] // cfg["num_attention_heads"]
    expect(list(got) == ["full_attention"] and got["full_attention"]["layers"] == att
           and close(got["full_attention"]["values"]["inv_freq"], default_inv_freq(cfg["rope_parameters"]["rope_theta"], dim))
           and len(mixer) == 1 and mixer[0]["layer_type"] == "conv"
           and mixer[0]["layers"] == [i for i, t in enumerate(cfg["layer_types"]) if t == "conv"],
           f"lfm2: RoPE (theta 1e6, {dim} dims) on {att}, conv layers are mixers")
    every_layer_once("lfm2", rep)
rep = model(write("lfm2_idxs.json", {"model_type": "lfm2", "hidden_size": 512, "num_attention_heads": 8,
                                     "num_hidden_layers": 6, "full_attn_idxs": [2, 5]}))
if rep:
    got = ropes(rep)
    expect(rep["layer_types"] == ["conv", "conv", "full_attention", "conv", "conv", "full_attention"]
           and close(got["full_attention"]["values"]["inv_freq"], default_inv_freq(1000000.0, 64)),
           "lfm2: full_attn_idxs gives the attention layers, Lfm2Config's default_theta 1e6")

# --- RecurrentGemma: recurrent blocks are mixers; local attention blocks rotate all head_dim dims ---
rg = {"model_type": "recurrent_gemma", "hidden_size": 2560, "num_attention_heads": 10, "num_hidden_layers": 26,
      "partial_rotary_factor": 0.5, "rope_theta": 10000.0}  # the fields the rules read
rep = model(write("rg.json", rg))
if rep:
    got = ropes(rep)
    att = [i for i in range(26) if i % 3 == 2]
    expect(list(got) == ["attention"] and got["attention"]["layers"] == att
           and got["attention"]["values"]["rotary_dim"] == 256
           and close(got["attention"]["values"]["inv_freq"], default_inv_freq(10000.0, 256))
           and any("partial_rotary_factor 0.5" in s for s in got["attention"]["notes"]),
           "recurrent_gemma: RoPE over all 256 dims (partial_rotary_factor unread at decba1d2) on every third block")
    every_layer_once("recurrent_gemma", rep)
rep = model(write("rg_blocks.json", {**rg, "num_hidden_layers": 5, "block_types": ["recurrent", "attention"]}))
expect(rep is not None and rep["layer_types"] == ["recurrent", "attention", "recurrent", "attention", "recurrent"],
       "recurrent_gemma: block_types repeated over the layers")
r = run("rope", "--hf-config", write("rg_yarn.json", {**rg, "rope_scaling": {"rope_type": "yarn", "factor": 2}}), text=True)
expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "supports only the default rope" in r.stderr,
       f"recurrent_gemma: a scaled rope is refused as transformers refuses it ({r.stderr.strip()[:200]})")

# --- MiniMax-M2: known now; its rotary_dim is read by no transformers code ---
path, cfg = family("minimax-m2.5.json")
j, r = rope_json("--hf-config", path)
expect(j and close(j["inv_freq"], default_inv_freq(cfg["rope_theta"], cfg["head_dim"]))
       and any("rotary_dim" in s and "read by no code" in s for s in j.get("notes", [])),
       f"minimax-m2: RoPE over head_dim 128 x partial_rotary_factor 1, rotary_dim 64 named unread ({r.stderr.strip()[:200]})")

# --- GLM-4.x MoE and Nemotron: partial RoPE, partial_rotary_factor 0.5 by default (kwargs.setdefault) ---
for name in ("glm-4.7-fp8.json", "nemotron-4-4b.json"):
    path, cfg = family(name)
    head = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    rot = int(head * cfg.get("partial_rotary_factor", 0.5))
    j, r = rope_json("--hf-config", path)
    expect(j and close(j["inv_freq"], default_inv_freq(cfg.get("rope_theta", 10000.0), rot)),
           f"{name}: RoPE on {rot} of {head} dims, theta {cfg.get('rope_theta', 10000.0)} ({r.stderr.strip()[:200]})")

# --- null in the file: transformers keeps None, the class default is not used ---
g3 = {"model_type": "gemma3_text", "hidden_size": 1152, "num_attention_heads": 4, "head_dim": 256,
      "num_hidden_layers": 6, "sliding_window": None, "rope_theta": 1000000.0}
rep = model(write("g3_null.json", g3))
if rep:
    expect(not any(d["field"] == "sliding_window" for d in rep.get("defaults", []))
           and any("sliding_window is null" in s for s in rep.get("notes", [])),
           "null sliding_window: kept null, not Gemma3TextConfig's 4096")
r = run("rope", "--hf-config", write("lfm2_null.json", {"model_type": "lfm2", "hidden_size": 512,
                                                        "num_attention_heads": 8, "num_hidden_layers": 2,
                                                        "rope_theta": None}), text=True)
expect(r.returncode == 2 and r.stderr.count("\n") == 1 and '"rope_theta" is null' in r.stderr,
       f"null rope_theta: refused (transformers builds no rope from None), not the class default ({r.stderr.strip()[:200]})")

finish()
