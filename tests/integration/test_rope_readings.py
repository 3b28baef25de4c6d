"""RoPE settings that implementations read in more than one way, through the real binary:
llama3 with equal band factors (Llama 4 Scout) against a numpy float32 re-implementation of
transformers' `_compute_llama3_parameters`, and `check rope` on scaled configs."""
import json
import os
import subprocess
import sys

import numpy as np

POSENC = sys.argv[1]
CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs")


def run(*args):
    return subprocess.run([POSENC, *args], capture_output=True, text=True)


def hf_llama3_f32(d, base, factor, low, high, L):
    # transformers modeling_rope_utils._compute_llama3_parameters with float32 tensors; numpy
    # follows torch here: a float32 array meeting a Python float stays float32.
    inv = (np.float32(1.0) / np.float32(base) ** (np.arange(0, d, 2).astype(np.float32) / np.float32(d)))
    wl = np.float32(2 * np.pi) / inv
    low_wl, high_wl = np.float32(L / low), np.float32(L / high)
    scaled = np.where(wl > low_wl, inv / np.float32(factor), inv)
    with np.errstate(divide="ignore", invalid="ignore"):  # high == low: x/0 in the unused entries
        smooth = (np.float32(L) / wl - np.float32(low)) / np.float32(high - low)
        smoothed = (1 - smooth) * scaled / np.float32(factor) + smooth * scaled
    medium = ~(wl < high_wl) & ~(wl > low_wl)
    return np.where(medium, smoothed, scaled), medium


def expect(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def main():
    # Llama 4 Scout's text_config: factor 16, low = high = 1, original 8192, theta 500000, d 128.
    args = ["rope", "--dim", "128", "--base", "500000", "--scaling", "llama3", "--factor", "16",
            "--low-freq-factor", "1", "--high-freq-factor", "1", "--original-max-position-embeddings", "8192"]
    r = run(*args, "--format", "json")
    expect(r.returncode == 0, f"equal llama3 factors refused: {r.stderr!r}")
    j = json.loads(r.stdout)
    want, medium = hf_llama3_f32(128, 500000.0, 16.0, 1.0, 1.0, 8192)
    expect(not medium.any() and np.isfinite(want).all(), "numpy: Scout has no pair on the step")
    np.testing.assert_allclose(j["inv_freq"], want, rtol=1e-6)
    regimes = [p["regime"] for p in j["pairs"]]
    expect(regimes == ["unchanged"] * 35 + ["interpolated"] * 29, f"Scout regimes {regimes}")
    expect(any("no blended band" in n for n in j["notes"]), "note on the hard step")
    # Llama-3.1's 1 / 4 through the same numpy code: the re-implementation is the reference one.
    want31, medium31 = hf_llama3_f32(128, 500000.0, 8.0, 1.0, 4.0, 8192)
    j31 = json.loads(run("rope", "--hf-config", os.path.join(CONFIGS, "llama-3.1-8b.json"), "--format", "json").stdout)
    np.testing.assert_allclose(j31["inv_freq"], want31, rtol=1e-6)
    expect(int(medium31.sum()) == 6, "Llama-3.1 blends 6 pairs")

    # check rope on YaRN and LongRoPE configs: the attention factor is divided out of rope-norm,
    # so the default identity set holds (it exited 1 on every such config before).
    # (DeepSeek-V3's mscale = mscale_all_dim = 1 gives factor 1: nothing to divide out.)
    for name, scaled in (("qwen2.5-7b-yarn.json", True), ("phi-3.5-mini.json", True), ("deepseek-r1.json", False)):
        r = run("check", "rope", "--hf-config", os.path.join(CONFIGS, name), "--format", "json")
        expect(r.returncode == 0, f"check rope --hf-config {name}: exit {r.returncode}; {r.stdout[-400:]} {r.stderr!r}")
        norm = [i for i in json.loads(r.stdout)["identities"] if i["name"] == "rope-norm"][0]
        expect(norm["holds"] and ("attention factor s =" in norm["note"]) == scaled, f"{name}: rope-norm {norm}")
    print("ok")


if __name__ == "__main__":
    main()
