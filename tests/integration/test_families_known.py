"""DeepSeek-V4's ropes in the serving engines, the pair table's dims where the rotated part is not at
the start of the head, and the plain-RoPE families known since issue 27's refused-types list. Every
expected value is re-derived here in numpy from the code named beside it, never from posenc:

- transformers decba1d2 (5.16.0.dev0): DeepseekV4Config.__post_init__ (the compress rope is the file's
  yarn dict over compress_rope_theta with attention_factor 1.0; the main rope is default over
  rope_theta), modeling_deepseek_v4.py apply_rotary_pos_emb (rotates x[..., -rope_dim:] in adjacent
  pairs: cos/sin repeat_interleave(2)); DeepseekV3Attention / DeepseekV2Attention (q = cat(q_nope,
  q_rot), pairs adjacent in q_rot: apply_rotary_pos_emb_interleave / view_as_complex);
  _compute_yarn_parameters; each new family's RotaryEmbedding.compute_default_rope_parameters
  (dim = head_dim or hidden_size // num_attention_heads, 1 / theta ** (arange(0, dim, 2) / dim) in
  float32) with the config class's default_theta (else RotaryEmbeddingConfigMixin's 10000);
- vLLM vllm/model_executor/models/deepseek_v4.py @023da1fc (DeepseekV4Attention.__init__: rope_type
  deepseek_yarn on every layer's rope, mscale = mscale_all_dim = 0); SGLang models/deepseek_v4.py
  @000328a8 with layers/deepseek_v4_rope.py @130a4070 (precompute_freqs_cis: YaRN on compressed
  layers only, freqs / factor * (1 - smooth) + freqs * smooth, magnitude 1); TensorRT-LLM
  _torch/models/modeling_deepseekv4.py @02586bf0 (yarn with mscale 0 on compressed layers, none on
  the others); MLX-LM mlx_lm/models/deepseek_v4.py @014a10b2 (as SGLang); llama.cpp
  src/models/deepseek4.cpp @00395eb2 (dsv4_rope_attn_factor cancels ggml's 1 + 0.1 ln s)."""
import json
import math
import os
import tempfile

import numpy as np

from harness import expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, "..", "data", "configs")
TMP = tempfile.mkdtemp(prefix="posenc_known_")
f32 = np.float32


def default_inv_freq(base, dim):
    """compute_default_rope_parameters in float32."""
    exps = np.arange(0, dim, 2, dtype=np.int64).astype(f32) / f32(dim)
    return (f32(1.0) / (f32(base) ** exps)).astype(np.float64)


def corr_range(base, dim, orig, beta_fast=32, beta_slow=1):
    def corr_dim(rot):
        return (dim * math.log(orig / (rot * 2 * math.pi))) / (2 * math.log(base))
    low, high = max(math.floor(corr_dim(beta_fast)), 0), min(math.ceil(corr_dim(beta_slow)), dim - 1)
    return low, (high + 0.001 if low == high else high)


def yarn_inv_freq(base, dim, factor, orig):
    """_compute_yarn_parameters (truncate): inter · (1 − ef) + extra · ef, ef = 1 − ramp."""
    low, high = corr_range(base, dim, orig)
    ramp = np.clip((np.arange(dim // 2, dtype=f32) - f32(low)) / f32(high - low), 0, 1)
    pos = f32(base) ** (np.arange(0, dim, 2).astype(f32) / f32(dim))
    extra, inter = f32(1) / pos, f32(1) / (f32(factor) * pos)
    ef = f32(1) - ramp.astype(f32)
    return (inter * (f32(1) - ef) + extra * ef).astype(np.float64)


def v4_blend_inv_freq(base, dim, factor, orig):
    """SGLang's precompute_freqs_cis / MLX-LM's DeepseekV4RoPE: freqs / factor * (1 - smooth) + freqs * smooth."""
    low, high = corr_range(base, dim, orig)
    freqs = f32(1.0) / (f32(base) ** (np.arange(0, dim, 2).astype(f32) / f32(dim)))
    smooth = f32(1) - np.clip((np.arange(dim // 2, dtype=f32) - f32(low)) / f32(high - low), 0, 1).astype(f32)
    return (freqs / f32(factor) * (f32(1) - smooth) + freqs * smooth).astype(np.float64)


def close(got, want, rtol=2e-7):  # 2e-7: two float32 ulps (powf in C++ and numpy may differ by one)
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    return got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=0)


def write(name, cfg):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def rope_json(*args):
    r = run("rope", *args, "--format", "json", text=True)
    expect(r.returncode == 0, f"rope {' '.join(os.path.basename(a) for a in args)} exits 0 ({r.stderr.strip()[:300]})")
    return json.loads(r.stdout) if r.returncode == 0 else None


# --- 1. DeepSeek-V4-Flash in the serving engines -----------------------------------------------
V4 = os.path.join(CONFIGS, "families", "deepseek-v4-flash.json")
v4 = json.load(open(V4))
ys = v4["rope_scaling"]  # yarn, factor 16, original 65536, beta 32 / 1
n = 4096
r = run("rope", "engines", "--hf-config", V4, "--len", str(n), "--format", "json", text=True)
# Exit 1: vLLM's main rope is beyond --tol (as `rope engines` exits when a convention differs).
expect(r.returncode == 1, f"deepseek-v4-flash: rope engines exits 1 ({r.returncode}: {r.stderr.strip()[:300]})")
rep = json.loads(r.stdout) if r.returncode in (0, 1) and r.stdout else {}
types = rep.get("rope_types", {})
expect(set(types) == {"sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"},
       f"deepseek-v4-flash: one section per layer type ({sorted(types)})")
main_hf = default_inv_freq(v4["rope_theta"], 64)
comp_hf = yarn_inv_freq(v4["compress_rope_theta"], 64, ys["factor"], ys["original_max_position_embeddings"])
comp_blend = v4_blend_inv_freq(v4["compress_rope_theta"], 64, ys["factor"], ys["original_max_position_embeddings"])
main_vllm = yarn_inv_freq(v4["rope_theta"], 64, ys["factor"], ys["original_max_position_embeddings"])
for name, sec in types.items():
    eng = {e["convention"]: e for e in sec["engines"]}
    compressed = name != "sliding_attention"
    hf = sec["transformers"]
    expect(close(hf["inv_freq"], comp_hf if compressed else main_hf) and hf["attention_factor"] == 1.0,
           f"deepseek-v4 {name}: transformers' inv_freq and attention factor 1 (DeepseekV4Config)")
    for conv in ("vllm", "sglang", "trtllm", "mlx"):
        e = eng.get(conv, {})
        expect(e.get("attention_factor") == 1.0 and e.get("logit_scale", 1.0) == 1.0,
               f"deepseek-v4 {name} {conv}: attention factor 1, no softmax factor (got {e.get('attention_factor')}, "
               f"{e.get('logit_scale')})")
    expect(eng["vllm-0.6"]["verdict"].startswith("refuses") and "DeepSeek-V4" in eng["vllm-0.6"]["verdict"],
           f"deepseek-v4 {name}: vllm-0.6 says it has no DeepSeek-V4 model ({eng['vllm-0.6']['verdict'][:120]})")
    if compressed:
        expect(close(eng["vllm"]["inv_freq"], comp_hf) and close(eng["trtllm"]["inv_freq"], comp_hf),
               f"deepseek-v4 {name}: vllm and trtllm YaRN over compress_rope_theta as transformers")
        expect(close(eng["sglang"]["inv_freq"], comp_blend) and close(eng["mlx"]["inv_freq"], comp_blend),
               f"deepseek-v4 {name}: sglang and mlx the frequency blend of precompute_freqs_cis")
        for conv in ("vllm", "sglang", "trtllm", "mlx"):
            expect(eng[conv]["verdict"].startswith("agrees"), f"deepseek-v4 {name}: {conv} agrees ({eng[conv]['verdict'][:160]})")
        expect(abs(eng["ggml"]["attention_factor"] - 1.0) < 1e-6,
               f"deepseek-v4 {name}: llama.cpp's deepseek4 cancels ggml's mscale ({eng['ggml']['attention_factor']})")
    else:
        expect(close(eng["vllm"]["inv_freq"], main_vllm) and "deepseek_yarn" in eng["vllm"]["verdict"]
               and eng["vllm"]["verdict"].startswith("differs"),
               f"deepseek-v4 sliding: vllm scales the main rope by YaRN too, named ({eng['vllm']['verdict'][:160]})")
        for conv in ("sglang", "trtllm", "mlx"):
            expect(close(eng[conv]["inv_freq"], main_hf) and eng[conv]["verdict"].startswith("agrees"),
                   f"deepseek-v4 sliding: {conv} unscaled, agrees ({eng[conv]['verdict'][:160]})")

# --- 2. Pair-table dims where the rotated part is not at the start ------------------------------
# DeepSeek-V4: the last 64 of 512 dims, adjacent pairs: pair i = (448 + 2i, 449 + 2i).
j = rope_json("--hf-config", V4, "--layer-type", "sliding_attention")
if j:
    dims = [p["dims"] for p in j["pairs"]]
    expect(dims == [[448 + 2 * i, 449 + 2 * i] for i in range(32)],
           f"deepseek-v4: pair dims 448,449 ... 510,511 (got {dims[:2]} ... {dims[-1:]})")
    expect(any(s.startswith("pair table:") and "last 64 dims" in s for s in j["notes"]),
           "deepseek-v4: a note says what the dims count")
# DeepSeek-V3 / V2: q = cat(q_nope (qk_nope_head_dim 128), q_rot (64)), adjacent pairs in q_rot.
for cfg_path in (os.path.join(CONFIGS, "families", "deepseek-v3.json"), os.path.join(CONFIGS, "models", "deepseek-v2-lite.json")):
    c = json.load(open(cfg_path))
    j = rope_json("--hf-config", cfg_path)
    if j:
        nope, rot = c["qk_nope_head_dim"], c["qk_rope_head_dim"]
        dims = [p["dims"] for p in j["pairs"]]
        expect(dims == [[nope + 2 * i, nope + 2 * i + 1] for i in range(rot // 2)],
               f"{os.path.basename(cfg_path)}: pair dims from {nope} in the concatenated {nope + rot}-dim head ({dims[:2]})")
        expect(any(s.startswith("pair table:") and f"follow {nope} dims" in s for s in j["notes"]),
               f"{os.path.basename(cfg_path)}: a note says the labels count the concatenated head")
# A plain model keeps its labels: rotate_half pairs (i, i + d/2) from dim 0.
j = rope_json("--hf-config", os.path.join(CONFIGS, "models", "llama-3.2-1b.json"))
if j:
    expect([p["dims"] for p in j["pairs"]][:2] == [[0, 32], [1, 33]]
           and not any(s.startswith("pair table:") for s in j["notes"]),
           "llama-3.2-1b: pair dims from 0 (rotate_half), no note")

# --- 3. Plain-RoPE families: the class defaults (no public config.json copy found for these) ----
# (model_type, head dim from the class defaults, default_theta or 10000, rotated dims, adjacent pairs)
FAMILIES = [
    ("seed_oss", 128, 10000.0), ("arcee", 2560 // 32, 10000.0), ("olmoe", 2048 // 16, 10000.0),
    ("flex_olmo", 4096 // 32, 500000.0), ("granitemoeshared", 4096 // 32, 10000.0), ("hy_v3", 128, 11158840.0),
    ("solar_open", 128, 1000000.0), ("jais2", 3328 // 26, 10000.0), ("bitnet", 2560 // 20, 500000.0),
    ("dots1", 4608 // 32, 10000.0), ("hyperclovax", 4096 // 32, 10000.0), ("vaultgemma", 256, 10000.0),
    ("diffllama", 2048 // 32, 10000.0), ("ministral", 4096 // 32, 10000.0), ("chameleon", 4096 // 32, 10000.0),
    ("helium", 128, 100000.0), ("nomic_bert", 768 // 12, 1000.0), ("jina_embeddings_v3", 1024 // 16, 20000.0),
    ("eurobert", 768 // 12, 10000.0), ("aria_text", 4096 // 32, 10000.0), ("emu3_text_model", 4096 // 32, 1000000.0),
    ("granite4_vision_text", 4096 // 32, 10000.0), ("gpt_neox_japanese", 2560 // 32, 10000.0),
]
for mt, dim, theta in FAMILIES:
    j = rope_json("--hf-config", write(f"{mt}.json", {"model_type": mt}))
    if not j:
        continue
    want = default_inv_freq(theta, dim)
    expect(j["rotary_dim"] == dim and j["base"] == theta and close(j["inv_freq"], want),
           f"{mt}: class defaults give RoPE over {dim} dims at theta {theta:g} (got {j['rotary_dim']}, {j['base']})")
    half = [p["dims"] for p in j["pairs"]][:2]
    expect(half == ([[0, 1], [2, 3]] if mt == "helium" else [[0, dim // 2], [1, dim // 2 + 1]]),
           f"{mt}: {'adjacent' if mt == 'helium' else 'rotate_half'} pairs ({half})")
# A file's own rope_theta and head_dim win over the class defaults (Solar Open: partial_rotary_factor too).
j = rope_json("--hf-config", write("solar_partial.json", {"model_type": "solar_open", "rope_theta": 5e5,
                                                          "head_dim": 128, "partial_rotary_factor": 0.5}))
if j:
    expect(j["rotary_dim"] == 64 and close(j["inv_freq"], default_inv_freq(5e5, 64)),
           "solar_open: int(head_dim × partial_rotary_factor) = 64 rotated dims at the file's theta")

# --- 4. GLM-4.7-Flash (glm4_moe_lite): DeepSeek-V3's MLA (modeling_glm4_moe_lite.py @decba1d2) ------------
GLM = os.path.join(CONFIGS, "families", "glm-4.7-flash.json")
g = json.load(open(GLM))  # no rope_theta in the file: Glm4MoeLiteConfig's 10000; rope_interleave default true
j = rope_json("--hf-config", GLM)
if j:
    nope, rot = g["qk_nope_head_dim"], g["qk_rope_head_dim"]
    expect(j["rotary_dim"] == rot and j["base"] == 10000.0 and close(j["inv_freq"], default_inv_freq(10000.0, rot))
           and [p["dims"] for p in j["pairs"]] == [[nope + 2 * i, nope + 2 * i + 1] for i in range(rot // 2)],
           f"glm-4.7-flash: RoPE over q_rot (64 dims after {nope}), theta 10000, adjacent pairs ({j['rotary_dim']}, {j['base']})")
# With YaRN and mscale_all_dim: yarn_apply_mscale multiplies the softmax scale by get_mscale(s, mscale_all_dim)².
yarn = {**g, "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                              "mscale": 1.0, "mscale_all_dim": 1.0}}
j = rope_json("--hf-config", write("glm_yarn.json", yarn))
if j:
    m = 0.1 * 1.0 * math.log(4.0) + 1.0
    expect(abs(j["logit_scale"] - m * m) < 1e-12 and abs(j["attention_factor"] - 1.0) < 1e-12
           and close(j["inv_freq"], yarn_inv_freq(10000.0, 64, 4.0, 4096)),
           f"glm-4.7-flash yarn: softmax x {m * m:.6g}, cos/sin x 1 (got {j['logit_scale']}, {j['attention_factor']})")
r = run("rope", "engines", "--hf-config", os.path.join(TMP, "glm_yarn.json"), "--len", "16", "--format", "json", text=True)
rep = json.loads(r.stdout) if r.stdout else {}
eng = {e["convention"]: e for e in rep.get("engines", [])}
expect(all(eng.get(c, {}).get("verdict", "").startswith("refuses") and "glm4_moe_lite" in eng[c]["verdict"]
           for c in ("vllm", "vllm-0.6", "sglang", "trtllm", "mlx")),
       "glm-4.7-flash yarn: the engines whose glm4_moe_lite code was not read say so instead of a number")
finish()
