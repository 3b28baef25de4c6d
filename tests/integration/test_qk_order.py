"""posenc rope diff --config-a HF_FOLDER --config-b FILE.gguf --weights: the q/k row order of test-made
GGUF conversions of one small GQA llama (8 q heads over 2 kv heads, head 16, hidden 256, 2 layers, q/k
biases), each made here with llama.cpp's permute or one of its historical bugs (weights.md §3.1-§3.4,
transcribed in qk_fixtures): the correct permute (F32, Q8_0, Q4_K) exits 0; no permute, k permuted as
MHA (llama.cpp#2376), k permuted with n_head // n_head_kv (before PR #3364) exit 1 with that map named;
partial rotary (rope.dimension_count 8 of head 16): the partial map passes, the whole-head permute is
named. Q4_K blocks come from a quantiser written here and are checked with ggml_reference.py first."""
import json
import os
import sys
import tempfile

import numpy as np

import ggml_reference
from harness import expect, finish, run
from qk_fixtures import permute, permute_partial, q4_k, q8_0, write_folder, write_gguf

rng = np.random.default_rng(3364)
L, H, Hkv, d, D = 2, 8, 2, 16, 256

wq = rng.standard_normal((L, H * d, D)).astype(np.float32)
wk = rng.standard_normal((L, Hkv * d, D)).astype(np.float32)
bq = rng.standard_normal((L, H * d)).astype(np.float32)
bk = rng.standard_normal((L, Hkv * d)).astype(np.float32)

# The Q4_K writer is test code: its blocks must decode (ggml's formulas, ggml_reference.py) close to the input.
blocks = np.frombuffer(q4_k(wq[0]), np.uint8).reshape(-1, 144)
back = ggml_reference.q4_k(blocks).reshape(wq[0].shape)
expect(np.abs(back - wq[0]).max() < 0.2 * np.abs(wq[0]).max(), f"test Q4_K quantiser round trip: {np.abs(back - wq[0]).max()}")


def convert(path, k_map, q_map, qtype=0, rot=d):
    kvs = {"general.architecture": "llama", "llama.block_count": L, "llama.attention.head_count": H,
           "llama.attention.head_count_kv": Hkv, "llama.embedding_length": D, "llama.rope.dimension_count": rot,
           "llama.rope.freq_base": 10000.0, "llama.context_length": 64}
    enc = {0: lambda x: x.astype(np.float32).tobytes(), 8: q8_0, 12: q4_k}[qtype]
    ts = []
    for l in range(L):
        q, k = q_map(wq[l]), k_map(wk[l])
        ts.append((f"blk.{l}.attn_q.weight", [D, H * d], qtype, enc(q)))
        ts.append((f"blk.{l}.attn_q.bias", [H * d], 0, q_map(bq[l]).astype(np.float32).tobytes()))
        ts.append((f"blk.{l}.attn_k.weight", [D, Hkv * d], qtype, enc(k)))
        ts.append((f"blk.{l}.attn_k.bias", [Hkv * d], 0, k_map(bk[l]).astype(np.float32).tobytes()))
    write_gguf(path, kvs, ts)


def check(hf, gguf, want_exit, want_found, what):
    r = run("rope", "diff", "--config-a", hf, "--config-b", gguf, "--weights", "--format", "json", text=True)
    try:
        j = json.loads(r.stdout)
    except ValueError:
        expect(False, f"{what}: no JSON ({r.stderr})")
        return None
    found = {(t["tensor"], t["found_map"]) for t in j["tensors"]}
    ok = r.returncode == want_exit and all((t, m) in found for t, m in want_found.items())
    expect(ok, f"{what}: exit {r.returncode} (want {want_exit}), found {sorted(found)}, want {want_found} ({r.stderr})")
    return j


with tempfile.TemporaryDirectory(prefix="posenc_qk_order_") as tmp:
    tensors = {}
    for l in range(L):
        p = f"model.layers.{l}.self_attn."
        tensors[p + "q_proj.weight"], tensors[p + "k_proj.weight"] = wq[l], wk[l]
        tensors[p + "q_proj.bias"], tensors[p + "k_proj.bias"] = bq[l], bk[l]
    hf = os.path.join(tmp, "hf")
    write_folder(hf, {"model_type": "llama", "num_hidden_layers": L, "num_attention_heads": H,
                      "num_key_value_heads": Hkv, "hidden_size": D, "head_dim": d, "rope_theta": 10000.0,
                      "max_position_embeddings": 64}, tensors)
    right_q = lambda w: permute(w, H)
    right_k = lambda w: permute(w, Hkv)
    cases = [
        ("right.gguf", right_k, right_q, 0, d, 0, {"q": "llama", "k": "llama", "q_bias": "llama", "k_bias": "llama"}),
        ("right-q8_0.gguf", right_k, right_q, 8, d, 0, {"q": "llama", "k": "llama"}),
        ("right-q4_k.gguf", right_k, right_q, 12, d, 0, {"q": "llama", "k": "llama"}),
        ("none.gguf", lambda w: w, lambda w: w, 0, d, 1, {"q": "identity", "k": "identity", "k_bias": "identity"}),
        ("bug2376.gguf", lambda w: permute(w, H), right_q, 0, d, 1, {"q": "llama", "k": "llama_mha_for_k"}),
        ("bug3364.gguf", lambda w: permute(w, H // Hkv), right_q, 0, d, 1, {"q": "llama", "k": "llama_groups_for_k"}),
        ("partial.gguf", lambda w: permute_partial(w, Hkv, 8), lambda w: permute_partial(w, H, 8), 0, 8, 0,
         {"q": "llama", "k": "llama"}),
        ("partial-whole.gguf", right_k, right_q, 0, 8, 1, {"q": "llama_whole_head", "k": "llama_whole_head"}),
    ]
    for name, kmap, qmap, qtype, rot, want_exit, want_found in cases:
        path = os.path.join(tmp, name)
        convert(path, kmap, qmap, qtype, rot)
        j = check(hf, path, want_exit, want_found, name)
        if j and want_exit == 1:
            f = j["findings"]
            expect(f and all(set(x) >= {"layer", "tensor", "found_map", "expected_map", "bug"} for x in f)
                   and all(x["expected_map"] == "llama" for x in f), f"{name}: findings {f}")
        if j and name == "bug2376.gguf":
            expect(any("2376" in x["bug"] for x in j["findings"]), f"{name}: the bug named")
        if j and name == "bug3364.gguf":
            expect(any("3364" in x["bug"] for x in j["findings"]), f"{name}: the bug named")
    # text output and the GGUF-only mode
    r = run("rope", "diff", "--config-a", hf, "--config-b", os.path.join(tmp, "none.gguf"), "--weights", text=True)
    expect(r.returncode == 1 and "identity" in r.stdout and "WRONG" in r.stdout, f"text report ({r.stdout[-300:]})")
    r = run("rope", "diff", "--config-b", os.path.join(tmp, "right.gguf"), "--weights", text=True)
    expect(r.returncode == 0 and "not checked" in r.stdout, f"GGUF-only checks ({r.stdout} {r.stderr})")

    # a shared llama3 file (../shared, skipped when absent): rope_freqs checked against rope.dimension_count
    shared = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "gguf", "generated",
                          "llama3-rope-freqs.gguf")
    if os.path.exists(shared):
        r = run("rope", "diff", "--config-b", shared, "--weights", "--format", "json", text=True)
        j = json.loads(r.stdout) if r.returncode == 0 else {}
        expect(len(j.get("checks", [])) == 3 and all(c["ok"] for c in j["checks"]),
               f"llama3-rope-freqs.gguf: rope_freqs 64 values, finite, llama3 divisors ({r.stdout[-300:]} {r.stderr})")

finish()
