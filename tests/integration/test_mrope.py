"""`posenc generate mrope` and `check mrope` against numpy re-derivations of transformers'
code: get_rope_index of Qwen2-VL (@00b676f8), Qwen2.5-VL and Qwen3-VL (@68a7b7e2) run over a
token list (text, <|image_pad|> or <|video_pad|> tokens, text), then the rotary embedding of
each model: float32 inv_freq, float32 angles, cat(freqs, freqs), and
apply_multimodal_rotary_pos_emb's split by mrope_section*2 (sectioned) or Qwen3-VL's
apply_interleaved_mrope. Tolerance 1e-6 relative (float32)."""
import io
import json

import numpy as np

from harness import expect, finish, run

TEXT, PAD = 0, 1


def get_rope_index(tokens, grids, merge, rule, spg=1.0, tps=2):
    """Position ids (3 x N) and rope_delta for a token list with one vision block of pads per grid,
    as the models' get_rope_index loops over the input ids."""
    ids, st = [], 0
    last_max = -1
    for (t, h, w) in grids:
        ed = tokens.index(PAD, st)
        gt, gh, gw = t, h // merge, w // merge
        text_len = ed - st
        st_idx = last_max + 1
        for i in range(text_len):
            ids.append((st_idx + i,) * 3)
        if rule == "qwen2.5-vl":
            t_index = [int(np.float32(np.float32(f) * np.float32(spg)) * np.float32(tps)) for f in range(gt)]
        else:
            t_index = list(range(gt))
        block = []
        for f in range(gt):
            for r in range(gh):
                for c in range(gw):
                    block.append((t_index[f] + text_len + st_idx, r + text_len + st_idx, c + text_len + st_idx))
        ids += block
        last_max = max(max(b) for b in block)
        st = ed + gt * gh * gw
    if st < len(tokens):
        st_idx = last_max + 1
        for i in range(len(tokens) - st):
            ids.append((st_idx + i,) * 3)
    ids = np.array(ids, dtype=np.int64).T
    return ids, int(ids.max()) + 1 - len(tokens)


def sequence(before, grid, after, merge, rule, frame_text=2):
    """Token list and grids; Qwen3-VL splits a video into one grid per frame, with text between."""
    t, h, w = grid
    per_frame = (h // merge) * (w // merge)
    if rule == "qwen3-vl":
        tokens, grids = [TEXT] * before, []
        for f in range(t):
            if f:
                tokens += [TEXT] * frame_text
            tokens += [PAD] * per_frame
            grids.append((1, h, w))
        return tokens + [TEXT] * after, grids
    return [TEXT] * before + [PAD] * (t * per_frame) + [TEXT] * after, [grid]


def hf_cos_sin(ids, d, base, sections, layout):
    inv = (1.0 / (np.float32(base) ** (np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / np.float32(d)))).astype(np.float32)
    freqs = ids.astype(np.float32)[:, :, None] * inv[None, None, :]  # 3 x N x d/2, float32
    if layout == "sectioned":
        emb = np.concatenate([freqs, freqs], axis=-1)
        parts, start = [], 0
        for i, s in enumerate(list(sections) * 2):
            parts.append(emb[i % 3, :, start:start + s])
            start += s
        emb = np.concatenate(parts, axis=-1)
    else:
        ft = freqs[0].copy()
        for dim, offset in ((1, 1), (2, 2)):
            ft[:, offset:sections[dim] * 3:3] = freqs[dim][:, offset:sections[dim] * 3:3]
        emb = np.concatenate([ft, ft], axis=-1)
    return np.cos(emb.astype(np.float64)).astype(np.float32), np.sin(emb.astype(np.float64)).astype(np.float32)


def posenc_table(*args):
    r = run("generate", "mrope", *args, "--format", "json", text=True)
    expect(r.returncode == 0, f"generate mrope {args}: {r.stderr}")
    j = json.loads(r.stdout)
    return np.array(j["data"], dtype=np.float64), j


CASES = [
    # preset, grid, before, after, extra flags
    ("qwen2-vl", (1, 8, 12), 5, 3, []),
    ("qwen2-vl", (3, 4, 6), 2, 4, []),
    ("qwen2.5-vl", (4, 4, 4), 3, 2, []),
    ("qwen2.5-vl", (5, 4, 4), 3, 2, ["--seconds-per-grid", "0.3"]),
    ("qwen3-vl", (1, 6, 4), 4, 4, []),
    ("qwen3-vl", (3, 4, 4), 1, 2, ["--frame-text", "5"]),
]
PRESETS = {"qwen2-vl": (1e6, (16, 24, 24), "sectioned"), "qwen2.5-vl": (1e6, (16, 24, 24), "sectioned"),
           "qwen3-vl": (5e6, (24, 20, 20), "interleaved")}

for preset, grid, before, after, extra in CASES:
    args = ["--preset", preset, "--grid", ",".join(map(str, grid)), "--text-before", str(before),
            "--text-after", str(after), *extra]
    frame_text = int(extra[1]) if extra[:1] == ["--frame-text"] else 2
    spg = float(extra[1]) if extra[:1] == ["--seconds-per-grid"] else 1.0
    tokens, grids = sequence(before, grid, after, 2, preset, frame_text)
    ids, delta = get_rope_index(tokens, grids, 2, preset, spg=spg)
    pos, j = posenc_table(*args, "--table", "positions")
    expect(pos.shape == (len(tokens), 3), f"{preset} {grid}: shape {pos.shape}, want {(len(tokens), 3)}")
    expect(pos.shape == (len(tokens), 3) and np.array_equal(pos.T, ids), f"{preset} {grid}: position ids differ")
    expect(j["results"]["rope_delta"] == delta, f"{preset} {grid}: rope_delta {j['results']['rope_delta']} != {delta}")
    base, sections, layout = PRESETS[preset]
    cos, sin = hf_cos_sin(ids, 128, base, sections, layout)
    for table, want in (("cos", cos), ("sin", sin)):
        got, _ = posenc_table(*args, "--table", table, "--dtype", "float32")
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=1e-6)
        expect(ok, f"{preset} {grid} {table}: max diff "
                   f"{np.abs(got - want).max() if got.shape == want.shape else got.shape}")

# Qwen2.5-VL with a video: t steps by second_per_grid * tokens_per_second = 2 per frame.
pos, _ = posenc_table("--preset", "qwen2.5-vl", "--grid", "3,2,2", "--merge", "2", "--text-before", "0",
                      "--text-after", "0", "--table", "positions")
expect(pos[:, 0].tolist() == [0, 2, 4], f"qwen2.5-vl t ids {pos[:, 0].tolist()}")

# check: every identity holds on the scheme's table (exit 0), in float64 and in float32.
for args in (["--preset", "qwen2-vl", "--grid", "2,6,8"], ["--preset", "qwen3-vl", "--grid", "2,6,8"],
             ["--preset", "qwen2.5-vl", "--grid", "3,4,4", "--precision", "f32"]):
    r = run("check", "mrope", *args, "--format", "json", text=True)
    j = json.loads(r.stdout) if r.stdout else {}
    names = [i["name"] for i in j.get("identities", [])]
    expect(r.returncode == 0 and j.get("all_hold") is True and
           names == ["axial-relative", "text-reduces-to-rope", "rope-norm"], f"check mrope {args}: {r.returncode} {names}")

# float32 angles at long range: a video whose t ids jump by 200000 puts the text after it near
# 200000, where float32 angles are off by up to ulp(200000)/2 = 0.0078 rad: text-reduces-to-rope
# fails against the exact ladder (exit 1); in float64 it holds (exit 0).
far = ["--preset", "qwen2.5-vl", "--grid", "2,2,2", "--tokens-per-second", "200000", "--identity",
       "text-reduces-to-rope"]
r = run("check", "mrope", *far, "--precision", "f32", text=True)
expect(r.returncode == 1 and "FAILS" in r.stdout, f"check mrope f32 far: {r.returncode} {r.stdout} {r.stderr}")
r = run("check", "mrope", *far, "--precision", "f64", text=True)
expect(r.returncode == 0, f"check mrope f64 far: {r.returncode} {r.stdout} {r.stderr}")

# Bad input: one line, exit 2.
for bad, what in ((["--sections", "16,24"], "--sections"), (["--grid", "1,5,8"], "--merge"),
                  (["--sections", "16,24,20"], "must add up"), (["--dim", "7"], "--dim")):
    r = run("generate", "mrope", *bad, "--format", "csv", text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and what in r.stderr, f"{bad}: {r.returncode} {r.stderr}")

finish()
