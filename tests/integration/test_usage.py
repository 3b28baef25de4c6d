"""posenc usage on test-made checkpoints with planted structure (small: 2 layers, head 16), every
expected value re-derived in numpy from the stored weights (qk_fixtures.usage_numbers, weights.md §5):
a head using only pairs 1 and 5; a head built to prefer offset 1 (phi/theta = 1); GQA 8 q heads over
2 kv heads (BF16, RMSNorm gain folded); partial rotary (Phi); interleaved layout (Cohere); MLA rope
rows with q_lora (DeepSeek-V3); fused qkv_proj (Phi-3); a NoPE layer (SmolLM3); the same GQA model
as a llama GGUF (permuted rows) and as Q8_0."""
import io
import json
import os
import sys
import tempfile

import numpy as np

from harness import expect, finish, run
from qk_fixtures import (bf16_bits, bf16_value, pair_rows, permute, q8_0, usage_numbers, write_folder,
                         write_gguf)

rng = np.random.default_rng(29)
L, D = 2, 32
KEYS = ["q_norm", "k_norm", "pair_cos", "k_pair_cos", "rho", "phi"]


def usage_json(path, *extra):
    r = run("usage", path, "--format", "json", *extra, text=True)
    if r.returncode != 0:
        print(r.stderr, file=sys.stderr)
        return None
    return json.loads(r.stdout)


def close(got, want, what, rtol=2e-5):
    """Arrays equal within rtol of the array's largest magnitude (phi: where rho is not ~0)."""
    got = np.array(got, dtype=np.float64)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=0, atol=rtol * max(1.0, np.abs(want).max()))
    expect(ok, f"{what}: {got.ravel()[:4]} vs {want.ravel()[:4]}")


def check_model(j, want, name, layers=None):
    if j is None:
        expect(False, f"{name}: posenc usage failed")
        return
    for key in KEYS:
        for l in range(len(j[key])):
            if layers is not None and l not in layers:
                continue
            w = want[l][key]
            g = np.array(j[key][l], dtype=np.float64)
            if key == "phi":  # phi is defined where rho is not ~0
                mask = want[l]["rho"] > 1e-6 * want[l]["rho"].max()
                g, w = np.where(mask, g, 0), np.where(mask, w, 0)
            if "cos" in key:
                w = np.nan_to_num(w)
                g = np.nan_to_num(g)
            close(g, w, f"{name} layer {l} {key}")


def qk_tensors(wq, wk, gain=None):
    """Each layer's q_proj and k_proj (and input_layernorm, with a gain) by their transformers names."""
    tensors = {}
    for l in range(L):
        tensors[f"model.layers.{l}.self_attn.q_proj.weight"] = wq[l]
        tensors[f"model.layers.{l}.self_attn.k_proj.weight"] = wk[l]
        if gain is not None:
            tensors[f"model.layers.{l}.input_layernorm.weight"] = gain[l]
    return tensors


def random_qk(H, Hkv, d):
    """Random float32 q and k projections of every layer: (L, H·d, D) and (L, Hkv·d, D)."""
    wq = rng.standard_normal((L, H * d, D)).astype(np.float32)
    wk = rng.standard_normal((L, Hkv * d, D)).astype(np.float32)
    return wq, wk


def want_usage(wq, wk, H, Hkv, d, R, layout):
    """usage_numbers of each layer's q and k rows (weights.md §5), each kv head repeated over its
    H / Hkv q heads (repeat_kv)."""
    want = []
    for l in range(len(wq)):
        qa, qb = pair_rows(wq[l], H, d, R, layout)
        ka, kb = pair_rows(wk[l], Hkv, d, R, layout)
        g = np.arange(H) // (H // Hkv)
        want.append(usage_numbers(qa, qb, ka[g], kb[g]))
    return want


def llama_config(H, Hkv, d, extra=None):
    c = {"model_type": "llama", "num_hidden_layers": L, "num_attention_heads": H, "num_key_value_heads": Hkv,
         "hidden_size": D, "head_dim": d, "rope_theta": 10000.0, "max_position_embeddings": 64}
    c.update(extra or {})
    return c


with tempfile.TemporaryDirectory(prefix="posenc_usage_") as tmp:
    # 1. planted: llama MHA, 4 heads, head 16 (8 pairs), gain 1, F32. Layer 0 head 0 uses only pairs
    # 1 and 5; layer 1 head 2 prefers offset 1: its pair i rows are s_i·e_2i, s_i·e_2i+1 and k = R(-θ_i)·q,
    # so C = s²·R(θ_i) and phi = θ_i (weights.md §5.5), with s = 10 on the 2 highest pairs, 0.1 elsewhere.
    H, d, R = 4, 16, 16
    theta = 10000.0 ** (-np.arange(R // 2) * 2 / R)
    wq, wk = random_qk(H, H, d)
    for w in (wq, wk):
        head = w[0, :d]
        for i in range(R // 2):
            if i not in (1, 5):
                head[i] = 0
                head[i + R // 2] = 0
    q2 = np.zeros((d, D), np.float32)
    k2 = np.zeros((d, D), np.float32)
    for i in range(R // 2):
        s = 10.0 if i < 2 else 0.1
        qa, qb = s * np.eye(D)[2 * i], s * np.eye(D)[2 * i + 1]
        c, sn = np.cos(-theta[i]), np.sin(-theta[i])
        q2[i], q2[i + R // 2] = qa, qb
        k2[i], k2[i + R // 2] = c * qa - sn * qb, sn * qa + c * qb
    wq[1, 2 * d:3 * d], wk[1, 2 * d:3 * d] = q2, k2
    planted = os.path.join(tmp, "planted")
    write_folder(planted, llama_config(H, H, d), qk_tensors(wq, wk, np.ones((L, D), np.float32)))
    want = want_usage(wq, wk, H, H, d, R, "half")
    j = usage_json(planted)
    check_model(j, want, "planted")
    if j:
        rho00 = np.array(j["rho"][0][0])
        expect(np.all(rho00[[0, 2, 3, 4, 6, 7]] == 0) and np.all(rho00[[1, 5]] > 0),
               f"layer 0 head 0 uses only pairs 1 and 5: {rho00}")
        heads = [(p["layer"], p["head"]) for p in j["summary"]["positional_heads"]]
        # numpy: share of rho in the 2 highest-frequency pairs (a quarter of 8) >= 0.5
        want_heads = {(l, h) for l in range(L) for h in range(H)
                      if want[l]["rho"][h, :2].sum() / want[l]["rho"][h].sum() >= 0.5}
        expect(set(heads) == want_heads and (1, 2) in want_heads, f"positional heads {heads} vs {want_heads}")
        p = [p for p in j["summary"]["positional_heads"] if (p["layer"], p["head"]) == (1, 2)]
        expect(p and abs(p[0]["offset"] - 1.0) < 1e-5, f"layer 1 head 2 prefers offset 1: {p}")
        phi12 = np.array(j["phi"][1][2])
        expect(np.allclose(phi12 / theta, 1.0, atol=1e-5), f"phi/theta = 1 on every pair of the offset head: {phi12 / theta}")
        expect(j["theta"] == [float(t) for t in theta] or np.allclose(j["theta"], theta, rtol=1e-15), "theta = base^(-2i/R)")
        mean = np.mean([want[l]["rho"] for l in range(L)], axis=(0, 1))
        close(j["summary"]["mean_rho"], mean, "summary mean_rho")
        long = 2 * np.pi / theta > 64
        share = sum(want[l]["rho"][:, long].sum() for l in range(L)) / sum(want[l]["rho"].sum() for l in range(L))
        expect(abs(j["summary"]["long_share"] - share) < 1e-6 and j["summary"]["long_pairs"] == int(long.sum()),
               f"share of rho in pairs with wavelength > 64: {j['summary']['long_share']} vs {share}")
        # Liu et al.: d_extra = 2·ceil((R/2)·log_base(T/2π))
        expect(j["summary"]["critical_dimension"] == 2 * int(np.ceil(R / 2 * np.log(64 / (2 * np.pi)) / np.log(10000))),
               "critical dimension")
        expect(all(k in j for k in ["theta", "layers", "heads", "pairs", "summary"]), "JSON keys")

    # 2. GQA: 8 q heads over 2 kv heads, BF16, RMSNorm gain folded into the columns.
    H, Hkv, d, R = 8, 2, 16, 16
    wq = bf16_bits(rng.standard_normal((L, H * d, D)))
    wk = bf16_bits(rng.standard_normal((L, Hkv * d, D)))
    gam = rng.uniform(0.5, 2.0, (L, D)).astype(np.float32)
    gqa = os.path.join(tmp, "gqa")
    write_folder(gqa, llama_config(H, Hkv, d), qk_tensors(wq, wk, gam))
    want_gqa = want_usage(bf16_value(wq).astype(np.float64) * gam[:, None, :],
                          bf16_value(wk).astype(np.float64) * gam[:, None, :], H, Hkv, d, R, "half")
    j = usage_json(gqa)
    check_model(j, want_gqa, "gqa bf16")
    if j:
        expect(j["heads"] == 8 and j["kv_heads"] == 2 and j["pairs"] == 8 and j["layers"] == 2, "gqa geometry")

    # 2b. the same model as a llama GGUF (llama.cpp NORM: rows permuted), F32 and Q8_0.
    def gguf_of(path, qtype):
        kvs = {"general.architecture": "llama", "llama.block_count": L, "llama.attention.head_count": H,
               "llama.attention.head_count_kv": Hkv, "llama.embedding_length": D, "llama.rope.dimension_count": R,
               "llama.rope.freq_base": 10000.0, "llama.context_length": 64}
        ts = []
        for l in range(L):
            for name, w, n in (("attn_q", wq[l], H), ("attn_k", wk[l], Hkv)):
                p = permute(bf16_value(w), n)
                ts.append((f"blk.{l}.{name}.weight", [D, p.shape[0]], 0 if qtype == "f32" else 8,
                           p.astype(np.float32).tobytes() if qtype == "f32" else q8_0(p)))
            ts.append((f"blk.{l}.attn_norm.weight", [D], 0, gam[l].tobytes()))
        write_gguf(path, kvs, ts)

    g32 = os.path.join(tmp, "gqa.gguf")
    gguf_of(g32, "f32")
    j = usage_json(g32)
    check_model(j, want_gqa, "gqa gguf f32 (interleaved rows, same pairs)")
    g8 = os.path.join(tmp, "gqa-q8.gguf")
    gguf_of(g8, "q8")
    j = usage_json(g8)
    if j:  # Q8_0: the numbers of the dequantised rows, within the quantisation error (~1 %)
        got = np.array(j["rho"], dtype=np.float64)
        want = np.array([w["rho"] for w in want_gqa])
        expect(np.abs(got - want).max() < 0.03 * want.max(), f"gqa Q8_0 rho within 3 %: {np.abs(got - want).max()}")

    # 3. partial rotary: Phi (partial_rotary_factor 0.5: R = 8 of head 16), pairs (i, i + 4). The
    # families below derive head_dim = hidden_size / heads: hidden 64 for 4 heads of 16.
    D = 64
    H, d, R = 4, 16, 8
    wq, wk = random_qk(H, H, d)
    tensors = qk_tensors(wq, wk)
    phi = os.path.join(tmp, "phi")
    write_folder(phi, {"model_type": "phi", "num_hidden_layers": L, "num_attention_heads": H, "num_key_value_heads": H,
                       "hidden_size": D, "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
                       "max_position_embeddings": 64}, tensors)
    want = want_usage(wq, wk, H, H, d, R, "half")
    j = usage_json(phi)
    check_model(j, want, "phi partial rotary")
    if j:
        expect(j["pairs"] == 4 and np.allclose(j["theta"], 10000.0 ** (-np.arange(4) * 2 / 8)),
               f"partial rotary: 4 pairs, theta over R: {j['theta']}")

    # 4. interleaved layout: Cohere pairs (2i, 2i+1).
    H, d, R = 4, 16, 16
    wq, wk = random_qk(H, H, d)
    tensors = qk_tensors(wq, wk)
    cohere = os.path.join(tmp, "cohere")
    write_folder(cohere, {"model_type": "cohere", "num_hidden_layers": L, "num_attention_heads": H,
                          "num_key_value_heads": H, "hidden_size": D, "rope_theta": 10000.0,
                          "max_position_embeddings": 64}, tensors)
    want = want_usage(wq, wk, H, H, d, R, "inter")
    check_model(usage_json(cohere), want, "cohere interleaved")

    # 5. MLA (DeepSeek-V3, rope_interleave: adjacent pairs): q = q_b·diag(γ_qa)·q_a, rope rows last 8 of
    # each 16-row head; k rope = the last 8 rows of kv_a_proj_with_mqa, shared by every head.
    H, nope, rope_d, qr, kvr = 4, 8, 8, 16, 8
    qa_w = rng.standard_normal((L, qr, D)).astype(np.float32)
    qb_w = rng.standard_normal((L, H * (nope + rope_d), qr)).astype(np.float32)
    ga = rng.uniform(0.5, 2.0, (L, qr)).astype(np.float32)
    kv_w = rng.standard_normal((L, kvr + rope_d, D)).astype(np.float32)
    tensors = {}
    for l in range(L):
        p = f"model.layers.{l}.self_attn."
        tensors[p + "q_a_proj.weight"] = qa_w[l]
        tensors[p + "q_a_layernorm.weight"] = ga[l]
        tensors[p + "q_b_proj.weight"] = qb_w[l]
        tensors[p + "kv_a_proj_with_mqa.weight"] = kv_w[l]
    mla = os.path.join(tmp, "mla")
    write_folder(mla, {"model_type": "deepseek_v3", "num_hidden_layers": L, "num_attention_heads": H,
                       "num_key_value_heads": H, "hidden_size": D, "q_lora_rank": qr, "kv_lora_rank": kvr,
                       "qk_nope_head_dim": nope, "qk_rope_head_dim": rope_d, "v_head_dim": 8, "rope_theta": 10000.0,
                       "max_position_embeddings": 64, "rope_scaling": None}, tensors)
    want = []
    for l in range(L):
        qeff = (qb_w[l].astype(np.float64) * ga[l]) @ qa_w[l].astype(np.float64)  # (H·16, D)
        qa, qb = pair_rows(qeff, H, nope + rope_d, rope_d, "inter", off=nope)
        ka, kb = pair_rows(kv_w[l].astype(np.float64), 1, kvr + rope_d, rope_d, "inter", off=kvr)
        want.append(usage_numbers(qa, qb, np.repeat(ka, H, 0), np.repeat(kb, H, 0)))
    j = usage_json(mla)
    check_model(j, want, "deepseek_v3 MLA rope rows", )
    if j:
        expect(j["kv_heads"] == 1 and j["pairs"] == 4, f"MLA: one shared rope key, 4 pairs ({j['kv_heads']}, {j['pairs']})")

    # 6. fused Phi-3 qkv_proj [q (4 heads) | k (2) | v (2)] × 16 rows; 7. SmolLM3 with layer 1 NoPE.
    H, Hkv, d, R = 4, 2, 16, 16
    qkv = rng.standard_normal((L, (H + 2 * Hkv) * d, D)).astype(np.float32)
    tensors = {f"model.layers.{l}.self_attn.qkv_proj.weight": qkv[l] for l in range(L)}
    phi3 = os.path.join(tmp, "phi3")
    write_folder(phi3, {"model_type": "phi3", "num_hidden_layers": L, "num_attention_heads": H,
                        "num_key_value_heads": Hkv, "hidden_size": D, "rope_theta": 10000.0,
                        "max_position_embeddings": 64}, tensors)
    want = want_usage(qkv[:, :H * d], qkv[:, H * d:(H + Hkv) * d], H, Hkv, d, R, "half")
    check_model(usage_json(phi3), want, "phi3 fused qkv_proj")

    wq, wk = random_qk(H, Hkv, d)
    tensors = qk_tensors(wq, wk)
    smol = os.path.join(tmp, "smollm3")
    write_folder(smol, {"model_type": "smollm3", "num_hidden_layers": L, "num_attention_heads": H,
                        "num_key_value_heads": Hkv, "hidden_size": D, "rope_theta": 10000.0,
                        "max_position_embeddings": 64, "no_rope_layers": [1, 0]}, tensors)
    j = usage_json(smol)
    want = want_usage(wq[:1], wk[:1], H, Hkv, d, R, "half")
    check_model(j, want, "smollm3 layer 0", layers=[0])
    if j:
        expect(all(j[k][1] is None for k in KEYS) and j["layer_base"][1] is None,
               "smollm3 layer 1 (no_rope_layers = 0) is NoPE: null arrays")

    # --table rho as .npy (layers × heads × pairs, NaN for NoPE), and a figure.
    r = run("usage", smol, "--table", "rho", "--format", "npy", "-o", "-")
    a = np.load(io.BytesIO(r.stdout)) if r.returncode == 0 else None
    expect(a is not None and a.shape == (2, 4, 8) and np.isnan(a[1]).all() and np.allclose(a[0], want[0]["rho"], rtol=1e-5),
           f"--table rho npy ({r.stderr[-200:]})")
    png = os.path.join(tmp, "u.png")
    r = run("usage", planted, "-o", png, text=True)
    expect(r.returncode == 0 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"usage -o u.png ({r.stderr})")
    r = run("usage", os.path.join(tmp, "nowhere"), text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "nowhere': no such file or folder" in r.stderr,
           f"a missing folder: one line naming it, exit 2 ({r.stderr})")

finish()
