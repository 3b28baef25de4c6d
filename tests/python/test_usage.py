# posenc.usage against `posenc usage --format json` / `--table NAME -o x.npy` on a small checkpoint
# written here, and against numpy (weights.md §5: rho = |c + i s|, c = C00 + C11, s = C10 - C01,
# C = W_q,i W_k,i^T per pair, half layout).
import json
import struct

import numpy as np
import pytest

import posenc
from conftest import cli_error, cli_json, run_cli
from test_posenc import assert_same


def write_model(folder, heads=2, d=8, hidden=16):
    rng = np.random.default_rng(5)
    folder.mkdir()
    config = {"model_type": "llama", "num_hidden_layers": 1, "num_attention_heads": heads, "num_key_value_heads": heads,
              "hidden_size": hidden, "head_dim": d, "rope_theta": 10000.0, "max_position_embeddings": 64}
    (folder / "config.json").write_text(json.dumps(config))
    wq = rng.standard_normal((heads * d, hidden)).astype(np.float32)
    wk = rng.standard_normal((heads * d, hidden)).astype(np.float32)
    tensors = {"model.layers.0.self_attn.q_proj.weight": wq, "model.layers.0.self_attn.k_proj.weight": wk,
               "model.layers.0.input_layernorm.weight": np.ones(hidden, np.float32)}
    header, blobs, off = {}, b"", 0
    for name, a in tensors.items():
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + a.nbytes]}
        off += a.nbytes
        blobs += a.tobytes()
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(h)) + h + blobs)
    return wq.astype(np.float64), wk.astype(np.float64)


def test_usage_is_the_cli_and_numpy(tmp_path):
    folder = tmp_path / "m"
    wq, wk = write_model(folder)
    u = posenc.usage(folder)
    assert_same(u, cli_json("usage", folder))
    # numpy: per head, pair i's rows are i and i + 4 (half layout, head 8).
    q, k = wq.reshape(2, 8, 16), wk.reshape(2, 8, 16)
    qa, qb, ka, kb = q[:, :4], q[:, 4:], k[:, :4], k[:, 4:]
    dot = lambda a, b: (a * b).sum(-1)
    c = dot(qa, ka) + dot(qb, kb)
    s = dot(qb, ka) - dot(qa, kb)
    np.testing.assert_allclose(u["rho"][0], np.hypot(c, s), rtol=1e-6)
    np.testing.assert_allclose(u["phi"][0], np.arctan2(s, c), rtol=0, atol=1e-6)
    rho = posenc.usage(folder, table="rho")
    out = tmp_path / "rho.npy"
    run_cli("usage", folder, "--table", "rho", "-o", out)
    assert rho.dtype == np.float64 and np.array_equal(rho, np.load(out))
    with pytest.raises(posenc.Error) as e:
        posenc.usage(tmp_path / "none")
    assert str(e.value) == cli_error("usage", tmp_path / "none")
    with pytest.raises(posenc.Error, match="did you mean 'high_band'"):
        posenc.usage(folder, high_bnd=2)
