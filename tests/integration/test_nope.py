"""`posenc generate nope` against numpy re-derivations of Llama 4's query temperature
(meta-llama/llama-models models/llama4/model.py @ a9c89c47 and transformers Llama4TextAttention:
log1p(floor((cache_position.float() + 1) / floor_scale)) * attn_scale + 1, float32) and NoPE layer map
((layer + 1) % nope_layer_interval == 0); decay and similarity show no positional signal."""
import io
import json

import numpy as np

from harness import expect, finish, run


def csv(*args):
    r = run(*args, "--format", "csv", text=True)
    expect(r.returncode == 0, f"{args}: {r.stderr}")
    return np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1, ndmin=2) if r.returncode == 0 else None


for start, n in ((0, 100), (8150, 100), (16350, 60), ((1 << 25) + 8100, 200)):
    got = csv("generate", "nope", "--table", "temperature", "--start", str(start), "--len", str(n), "--dtype", "float32")
    pos = np.arange(start, start + n, dtype=np.int64).astype(np.float32)
    want = (np.log1p(np.floor((pos + np.float32(1.0)) / np.float32(8192))).astype(np.float32) * np.float32(0.1)
            + np.float32(1.0)).astype(np.float32)
    expect(got is not None and np.array_equal(got[:, 0], np.arange(start, start + n)), f"positions from {start}")
    expect(got is not None and np.allclose(got[:, 1], want, rtol=1e-6, atol=0), f"temperature from {start}: "
           f"{np.abs(got[:, 1] - want).max() if got is not None else None}")

layers = csv("generate", "nope", "--table", "layers", "--layers", "48", "--interval", "4")
expect(layers is not None and np.array_equal(layers[:, 1], ((np.arange(48) + 1) % 4 == 0).astype(float)), "layer map")

# No positional signal: every offset has the same score, every pair the same similarity.
d = csv("decay", "nope", "--max-offset", "20")
expect(d is not None and np.all(d[:, 1] == 64), "decay nope is flat at d = 64")
s = csv("similarity", "nope", "--len", "16")
expect(s is not None and np.allclose(s[:, 1:], 1.0), "similarity nope is 1 everywhere")
# check: unique fails by design (exit 1); the other identities hold.
r = run("check", "nope", "--format", "json", text=True)
j = json.loads(r.stdout) if r.stdout else {}
fails = [i["name"] for i in j.get("identities", []) if not i["holds"]]
expect(r.returncode == 1 and fails == ["unique"], f"check nope: {r.returncode} {fails}")
finish()
