"""M-RoPE of a text-only sequence (issue 26 item 20): `--grid none` has no image or video, and
transformers' get_rope_index then gives every token t = h = w = its position (the text branch:
position_ids = cumsum(attention_mask) − 1, expanded to 3 rows). Its cos/sin are those of 1-D RoPE
at that position, whatever the sections: numpy in double, θ_j = base^(−2j/d), tolerance 1e-12;
`check mrope --grid none` holds (text-reduces-to-rope over every token)."""
import io
import json

import numpy as np

from harness import expect, finish, run


def npy(*args):
    r = run("generate", "mrope", *args, "--format", "npy", "--dtype", "float64", "-o", "-")
    return (np.load(io.BytesIO(r.stdout)) if r.returncode == 0 else None), r.stderr.decode()


got, err = npy("--grid", "none", "--len", "10", "--table", "positions")
want = np.repeat(np.arange(10, dtype=np.float64)[:, None], 3, axis=1)
expect(got is not None and np.array_equal(got, want), f"--grid none: t = h = w = n: {err}")
# Without --len: --text-before + --text-after tokens, still consecutive.
got, err = npy("--grid", "none", "--text-before", "3", "--text-after", "2", "--table", "positions")
expect(got is not None and np.array_equal(got, np.repeat(np.arange(5.0)[:, None], 3, axis=1)), f"3 + 2 text: {err}")
for preset, sections in (("qwen2-vl", "4,2,2"), ("qwen3-vl", "4,2,2")):
    got, err = npy("--grid", "none", "--len", "40", "--dim", "16", "--sections", sections, "--preset", preset,
                   "--base", "10000", "--table", "cos", "--precision", "f64")
    theta = 10000.0 ** (-2.0 * np.arange(8) / 16)
    c = np.cos(np.arange(40)[:, None] * theta[None, :])
    want = np.concatenate([c, c], axis=1)
    expect(got is not None and got.shape == want.shape and np.abs(got - want).max() < 1e-12,
           f"{preset} text-only cos is 1-D RoPE's: {err}")
r = run("generate", "mrope", "--grid", "none", "--len", "4", "--format", "json", text=True)
j = json.loads(r.stdout) if r.returncode == 0 else {}
expect(r.returncode == 0 and j["params"]["grid"] == "none" and j["results"]["vision_tokens"] == 0
       and j["results"]["rope_delta"] == 0, f"JSON echo of --grid none: {r.stderr}")
r = run("check", "mrope", "--grid", "none", "--len", "64", "--format", "json", text=True)
j = json.loads(r.stdout) if r.stdout else {}
names = {i["name"]: i for i in j.get("identities", [])}
expect(r.returncode == 0 and "text-reduces-to-rope" in names, f"check mrope --grid none: {r.returncode} {r.stderr}")
r = run("generate", "mrope", "--grid", "nones", "--format", "csv", text=True)
expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "--grid" in r.stderr, f"--grid nones: {r.stderr}")

finish()
