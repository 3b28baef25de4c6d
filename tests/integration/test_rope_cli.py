"""`posenc rope`, `rope diff` and `rope permutation` through the real binary, checked against
numpy re-implementations of the reference code (transformers' llama3 scaling and the
`permute` of convert_llama_weights_to_hf.py), read back with pandas and json."""
import io
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

POSENC = sys.argv[1]
CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs")


def run(*args):
    return subprocess.run([POSENC, *args], capture_output=True, text=True)


def hf_llama3_inv_freq(d=128, base=500000.0, factor=8.0, low=1.0, high=4.0, L=8192):
    # transformers modeling_rope_utils._compute_llama3_parameters, in float64
    inv = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    wl = 2 * np.pi / inv
    low_wl, high_wl = L / low, L / high
    scaled = np.where(wl > low_wl, inv / factor, inv)
    smooth = (L / wl - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wl < high_wl) & ~(wl > low_wl)
    return inv, np.where(medium, smoothed, scaled), medium


def hf_permute(w, n_heads, dim1, dim2):
    # convert_llama_weights_to_hf.py: w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2)
    return w.reshape(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(0, 2, 1, 3).reshape(dim1, dim2)


def main():
    llama31 = os.path.join(CONFIGS, "llama-3.1-8b.json")

    r = run("rope", "--hf-config", llama31, "--format", "csv")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(io.StringIO(r.stdout))
    inv, scaled, medium = hf_llama3_inv_freq()
    assert len(df) == 64
    np.testing.assert_allclose(df["inv_freq_original"], inv, rtol=1e-6)
    np.testing.assert_allclose(df["inv_freq"], scaled, rtol=1e-6)
    counts = df["regime"].value_counts().to_dict()
    assert counts == {"unchanged": 29, "blended": 6, "interpolated": 29}, counts
    assert list(df.index[df["regime"] == "blended"]) == list(np.flatnonzero(medium)), "medium band"

    j = json.loads(run("rope", "--hf-config", llama31, "--format", "json").stdout)
    np.testing.assert_allclose(j["inv_freq"], scaled, rtol=1e-6)
    assert j["rotary_dim"] == 128 and len(j["pairs"]) == 64

    for d in (8, 128):
        p = json.loads(run("rope", "permutation", "--dim", str(d), "--format", "json").stdout)
        w = np.random.default_rng(0).normal(size=(d, 5))
        assert np.array_equal(w[p["to_half"]], hf_permute(w, 1, d, 5)), d
        assert np.array_equal(w[p["to_half"]][p["to_interleaved"]], w), d

    qwen = os.path.join(CONFIGS, "qwen2.5-7b-yarn.json")
    diff = ["rope", "diff", "--hf-config", qwen, "--convention-a", "hf", "--convention-b", "ggml"]
    assert run(*diff, "--tol", "1e-9").returncode == 1
    assert run(*diff, "--tol", "1e-2").returncode == 0
    assert run("rope", "diff", "--hf-config", llama31, "--convention-a", "hf", "--convention-b", "meta").returncode == 0

    # ggml: theta_scale = powf(base, -2/d), θ_{i+1} = θ_i·theta_scale in float32 (numpy's float32).
    j = json.loads(run("rope", "--dim", "128", "--base", "500000", "--convention", "ggml", "--format", "json").stdout)
    theta_scale = np.power(np.float32(500000.0), np.float32(-2.0) / np.float32(128))
    theta, expected = np.float32(1.0), []
    for _ in range(64):
        expected.append(theta)
        theta = np.float32(theta * theta_scale)
    assert np.array_equal(np.array(j["inv_freq"], dtype=np.float64), np.array(expected, dtype=np.float64)), "ggml iteration"

    # rope diff per pair: linear x2 against none in double, relative difference 1/2 for every pair.
    with tempfile.TemporaryDirectory() as tmp:
        lin = os.path.join(tmp, "linear.json")
        with open(lin, "w") as f:
            f.write('{"head_dim": 16, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}')
        plain = os.path.join(tmp, "plain.json")
        with open(plain, "w") as f:
            f.write('{"head_dim": 16}')
        r = run("rope", "diff", "--config-a", lin, "--config-b", plain, "--precision", "f64", "--len", "50",
                "--format", "json")
        assert r.returncode == 1, r.stderr
        d = json.loads(r.stdout)
        np.testing.assert_allclose(d["per_pair"]["inv_freq_rel"], 0.5, rtol=1e-15)
        inv = 1.0 / 10000.0 ** (np.arange(0, 16, 2) / 16)
        t = np.arange(50)[:, None]
        table = np.maximum(np.abs(np.cos(t * inv / 2) - np.cos(t * inv)), np.abs(np.sin(t * inv / 2) - np.sin(t * inv)))
        np.testing.assert_allclose(d["per_pair"]["table_max_abs"], table.max(axis=0), rtol=1e-12, atol=1e-15)

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        with open(out, "w") as f:
            f.write("precious\n")
        bad = os.path.join(tmp, "config.json")
        with open(bad, "w") as f:
            f.write('{"head_dim": 128, "rope_scaling": {"rope_type": "yarn", "factor": "4"}}')
        r = run("rope", "--hf-config", bad, "-o", out)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (r.returncode, r.stderr)
        assert '"rope_scaling.factor"' in r.stderr, r.stderr
        with open(out) as f:
            assert f.read() == "precious\n", "a failed run changed the output file"
        r = run("rope", "--dim", "16", "-o", out)
        assert r.returncode == 0, r.stderr
        with open(out) as f:
            assert json.load(f)["rotary_dim"] == 16
    # One JSON schema for every rope diff (issue 26 item 7): "kind" and "pass" (exit status 0),
    # the former "within" and "ok" kept as aliases.
    same = os.path.join(CONFIGS, "llama-3.1-8b.json")
    for b, want_pass in ((same, True), (os.path.join(CONFIGS, "llama-2-7b-chat.json"), False)):
        r = run("rope", "diff", "--config-a", same, "--config-b", b, "--format", "json")
        j = json.loads(r.stdout)
        assert j["kind"] == "configs" and j["pass"] is want_pass and j["within"] is want_pass, j
        assert (r.returncode == 0) is want_pass, r.returncode
    gguf = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "gguf",
                        "generated", "qwen2-yarn.gguf")
    if os.path.exists(gguf):
        r = run("rope", "diff", "--config-a", os.path.join(CONFIGS, "qwen2.5-7b-yarn.json"), "--config-b", gguf,
                "--format", "json")
        j = json.loads(r.stdout)
        assert j["kind"] == "gguf" and j["pass"] is j["ok"] and (r.returncode == 0) is j["pass"], (j["pass"], r.returncode)
    print("ok")


if __name__ == "__main__":
    main()
