"""The demo model of docs/usage.md: a small test-made llama (4 layers, 8 q heads over 2 kv heads, head 32,
hidden 256) with large low-frequency pairs everywhere and a previous-token head on the 4 highest pairs
in layer 1 (k = R(θ_i)·q, so φ = −θ_i), written as a folder (demo/) and as GGUFs with the right permute
(demo.gguf) and the llama.cpp#2376 bug (demo-2376.gguf). Usage: bench/usage_demo.py [OUTDIR]"""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
os.chdir(sys.argv[1] if len(sys.argv) > 1 else ".")
import numpy as np
from qk_fixtures import write_folder, write_gguf, permute
rng = np.random.default_rng(1)
L, H, Hkv, d, D = 4, 8, 2, 32, 256
R = d
theta = 10000.0 ** (-np.arange(R // 2) * 2 / R)
wq = rng.standard_normal((L, H * d, D)).astype(np.float32) * 0.05
wk = rng.standard_normal((L, Hkv * d, D)).astype(np.float32) * 0.05
# low-frequency pairs (the last quarter) larger everywhere: "semantic" usage
for w in (wq, wk):
    for hh in range(w.shape[1] // d):
        for i in range(3 * R // 8, R // 2):
            w[:, hh * d + i] *= 4; w[:, hh * d + i + R // 2] *= 4
# layer 1, q heads 0..3 (kv head 0): a previous-token head on the 4 highest pairs: k = R(theta_i)·q  -> phi = -theta_i
for i in range(4):
    qa, qb = 3.0 * np.eye(D)[2 * i], 0.6 * np.eye(D)[2 * i + 1]
    c, s = np.cos(theta[i]), np.sin(theta[i])
    for hh in range(4):
        wq[1, hh * d + i], wq[1, hh * d + i + R // 2] = qa, qb
    wk[1, i], wk[1, i + R // 2] = c * qa - s * qb, s * qa + c * qb
t = {}
for l in range(L):
    t[f"model.layers.{l}.self_attn.q_proj.weight"] = wq[l]
    t[f"model.layers.{l}.self_attn.k_proj.weight"] = wk[l]
    t[f"model.layers.{l}.input_layernorm.weight"] = np.ones(D, np.float32)
write_folder("demo", {"model_type": "llama", "num_hidden_layers": L, "num_attention_heads": H, "num_key_value_heads": Hkv,
                      "hidden_size": D, "head_dim": d, "rope_theta": 10000.0, "max_position_embeddings": 2048}, t)
def gguf(path, kmap):
    kvs = {"general.architecture": "llama", "llama.block_count": L, "llama.attention.head_count": H,
           "llama.attention.head_count_kv": Hkv, "llama.embedding_length": D, "llama.rope.dimension_count": R,
           "llama.rope.freq_base": 10000.0, "llama.context_length": 2048}
    ts = []
    for l in range(L):
        ts.append((f"blk.{l}.attn_q.weight", [D, H * d], 0, permute(wq[l], H).tobytes()))
        ts.append((f"blk.{l}.attn_k.weight", [D, Hkv * d], 0, kmap(wk[l]).astype(np.float32).tobytes()))
    write_gguf(path, kvs, ts)
gguf("demo.gguf", lambda w: permute(w, Hkv))
gguf("demo-2376.gguf", lambda w: permute(w, H))
