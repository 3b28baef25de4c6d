"""posenc extrapolate against numpy: each method's frequencies from transformers'
modeling_rope_utils.py formulas re-derived (float32 as torch), the angle ranges and their
classes, the attention entropy of the seeded random q, k (learned's generator re-implemented),
the resolution, ALiBi's bias range, T5's saturation from the bucket formula, a learned table's
missing rows; bad options give one line, exit 2 and no output file."""
import json
import math
import os
import tempfile

import numpy as np

from harness import expect, finish, run
from learned_reference import learned_row

L, T, DIM, BASE = 4096, 16384, 64, 10000.0
S = T / L


def normal_row(seed, t, d):
    # docs/encodings/learned.md "Exact algorithm" with std 1: the q and k of sample s are rows 2s, 2s+1.
    return learned_row(seed, t, d, std=1.0)


# transformers modeling_rope_utils.py (v4.57): _compute_default_rope_parameters and the methods.
def default_inv_freq(base, d):
    exponent = np.arange(0, d, 2).astype(np.float32) / np.float32(d)
    return (np.float32(1.0) / (np.float32(base) ** exponent)).astype(np.float32)


def linear(d):
    return default_inv_freq(BASE, d) / np.float32(S)


def ntk(d):  # static NTK-aware base change b·s^(d/(d-2)) (x-transformers, rotary-embedding-torch)
    return default_inv_freq(BASE * S ** (d / (d - 2)), d)


def dynamic(d):  # _compute_dynamic_ntk_parameters at seq_len T, max_position_embeddings L
    return default_inv_freq(BASE * ((S * T / L) - (S - 1)) ** (d / (d - 2)), d)


def yarn(d, beta_fast=32.0, beta_slow=1.0):  # _compute_yarn_parameters, truncate (default true)
    pos_freqs = np.float32(BASE) ** (np.arange(0, d, 2).astype(np.float32) / np.float32(d))
    extrapolation = np.float32(1.0) / pos_freqs
    interpolation = np.float32(1.0) / (np.float32(S) * pos_freqs)

    def corr_dim(rot):
        return (d * math.log(L / (rot * 2 * math.pi))) / (2 * math.log(BASE))

    low = max(math.floor(corr_dim(beta_fast)), 0)
    high = min(math.ceil(corr_dim(beta_slow)), d - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float32) - np.float32(low)) / np.float32(high - low), 0, 1)
    extrapolation_factor = np.float32(1) - ramp.astype(np.float32)
    return (interpolation * (np.float32(1) - extrapolation_factor) + extrapolation * extrapolation_factor).astype(
        np.float32), 0.1 * math.log(S) + 1.0


def llama3(d, low_freq_factor=1.0, high_freq_factor=4.0, base=BASE, L=L, S=S):  # _compute_llama3_parameters
    inv_freq = default_inv_freq(base, d)
    low_wavelen, high_wavelen = L / low_freq_factor, L / high_freq_factor
    wavelen = np.float32(2 * math.pi) / inv_freq
    out = np.where(wavelen > low_wavelen, inv_freq / np.float32(S), inv_freq).astype(np.float32)
    smooth = (np.float32(L) / wavelen - np.float32(low_freq_factor)) / np.float32(high_freq_factor - low_freq_factor)
    smoothed = (np.float32(1) - smooth) * out / np.float32(S) + smooth * out
    medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
    return np.where(medium, smoothed, out).astype(np.float32)


def rel_err(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))


def entropy(theta, seed, samples, lengths, scale):
    d = 2 * len(theta)
    out = []
    rows = [(normal_row(seed, 2 * s, d), normal_row(seed, 2 * s + 1, d)) for s in range(samples)]
    deltas = np.arange(max(lengths))
    hs = np.zeros(len(lengths))
    for q, k in rows:
        c = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
        x = scale * np.real(np.exp(1j * np.outer(deltas, theta)) @ c)
        for i, n in enumerate(lengths):
            p = np.exp(x[:n] - x[:n].max())
            p /= p.sum()
            hs[i] += -np.sum(p * np.log(p))
    return hs / samples


def distance(theta, delta):
    return math.sqrt(2.0 / len(theta) * np.sum(1.0 - np.cos(delta * theta)))


def resolution(theta, threshold):
    k = 1
    while distance(theta, k) < threshold:
        k += 1
    lo, hi = k - 1.0, float(k)
    while hi - lo > 1e-10:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if distance(theta, mid) >= threshold else (mid, hi)
    return hi


def t5_bucket(rp, num_buckets, max_distance, bidirectional):  # T5Attention._relative_position_bucket, float32
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        bucket += num_buckets if rp > 0 else 0
        n = abs(rp)
    else:
        n = max(-rp, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return bucket + n
    large = np.float32(np.log(np.float32(n) / np.float32(max_exact)) / np.float32(math.log(max_distance / max_exact))
                       * np.float32(num_buckets - max_exact))
    return bucket + min(max_exact + int(large), num_buckets - 1)


def saturation(sign, num_buckets, max_distance, bidirectional):
    buckets = [t5_bucket(sign * n, num_buckets, max_distance, bidirectional) for n in range(4 * max_distance)]
    last = buckets[-1]
    n = len(buckets) - 1
    while n > 0 and buckets[n - 1] == last:
        n -= 1
    return n


def check_json(tmp):
    seed, samples = 7, 3
    r = run("extrapolate", "--train-len", str(L), "--target-len", str(T), "--dim", str(DIM), "--methods",
            "none,linear,ntk,dynamic,yarn,llama3", "--schemes", "alibi,t5,learned", "--samples", str(samples),
            "--seed", str(seed), "--format", "json", text=True)
    expect(r.returncode == 0, f"json run: exit {r.returncode} ({r.stderr!r})")
    if r.returncode != 0:
        return
    j = json.loads(r.stdout)
    expect(j["train_len"] == L and j["target_len"] == T and j["seed"] == seed and j["samples"] == samples,
           "json: lengths, seed and samples echoed")
    expect(j["methods"] == ["none", "linear", "ntk", "dynamic", "yarn", "llama3"], f"methods echoed {j['methods']}")
    expect(j["schemes"] == ["alibi", "t5", "learned"], f"schemes echoed {j['schemes']}")
    expect(j["rope_settings"] == {"dim": str(DIM)}, f"rope settings echoed {j['rope_settings']}")
    want_lengths = sorted({*[2 ** k for k in range(4, 20) if 2 ** k < T], L, T})
    expect(j["lengths"] == want_lengths, f"json lengths {j['lengths']}")
    original = default_inv_freq(BASE, DIM)
    yarn_theta, yarn_attention = yarn(DIM)
    expected = {"none": (original, 1.0), "linear": (linear(DIM), 1.0), "ntk": (ntk(DIM), 1.0),
                "dynamic": (dynamic(DIM), 1.0), "yarn": (yarn_theta, yarn_attention), "llama3": (llama3(DIM), 1.0)}
    methods = {m["method"]: m for m in j["rope"]}
    expect(sorted(methods) == sorted(expected), f"methods {sorted(methods)}")
    for name, (theta, attention) in expected.items():
        m = methods.get(name)
        if m is None:
            continue
        expect(rel_err(m["inv_freq_original"], original) <= 1e-6, f"{name}: inv_freq_original")
        expect(rel_err(m["inv_freq"], theta) <= 1e-6, f"{name}: inv_freq, rel err {rel_err(m['inv_freq'], theta):.2e}")
        expect(abs(m["attention_factor"] - attention) <= 1e-12, f"{name}: attention factor {m['attention_factor']}")
        expect(abs(m["logit_scale"] - attention ** 2) <= 1e-12, f"{name}: logit scale = attention factor squared")
        train = L * original.astype(np.float64)
        target = T * theta.astype(np.float64)
        expect(rel_err(m["angle_train"], train) <= 1e-6, f"{name}: angle_train = L·θ")
        expect(rel_err(m["angle_target"], target) <= 1e-6, f"{name}: angle_target = L'·θ'")
        reach = ["covered" if a >= 2 * math.pi else "within" if b <= a * (1 + 1e-6) else "beyond"
                 for a, b in zip(train, target)]
        expect(m["reach"] == reach, f"{name}: reach {m['reach']} != {reach}")
        expect([m["covered"], m["within"], m["beyond"]] == [reach.count(c) for c in ("covered", "within", "beyond")],
               f"{name}: counts")
        # Entropy with posenc's θ' (checked above), so the comparison is of the softmax alone.
        th = np.asarray(m["inv_freq"])
        scale = 1.0 / math.sqrt(DIM)
        h_without = entropy(th, seed, samples, want_lengths, scale)
        h_with = entropy(th, seed, samples, want_lengths, scale * attention ** 2)
        expect(rel_err(m["entropy_without_factor"], h_without) <= 1e-13,
               f"{name}: entropy without factor, rel err {rel_err(m['entropy_without_factor'], h_without):.2e}")
        expect(rel_err(m["entropy"], h_with) <= 1e-13, f"{name}: entropy, rel err {rel_err(m['entropy'], h_with):.2e}")
        thr = distance(np.asarray(m["inv_freq_original"]), 1.0)
        expect(abs(m["neighbour_distance_train"] - thr) <= 1e-12, f"{name}: D(1)")
        expect(abs(m["neighbour_distance"] - distance(th, 1.0)) <= 1e-12, f"{name}: D'(1)")
        expect(abs(m["resolution"] - resolution(th, thr)) <= 2e-9, f"{name}: resolution {m['resolution']}")
    if "none" in methods and "linear" in methods:
        expect(methods["none"]["resolution"] == 1, "none: resolution exactly 1")
        expect(abs(methods["linear"]["resolution"] - S) <= 1e-6, "linear: resolution s (θ/s: D'(s) = D(1))")
        # YaRN's factor sharpens: lower entropy with it at every length.
        expect(all(a < b for a, b in zip(methods["yarn"]["entropy"], methods["yarn"]["entropy_without_factor"])),
               "yarn: entropy lower with the attention factor")
    a = j["alibi"]
    slopes = [2.0 ** (-8.0 * (h + 1) / 8) for h in range(8)]
    expect(a is not None and a["heads"] == 8 and rel_err(a["slopes"], slopes) == 0, "alibi slopes 2^(-8(h+1)/8)")
    expect(a is not None and rel_err(a["min_bias_target"], [-m * (T - 1) for m in slopes]) <= 1e-15,
           "alibi: min bias at L' is -m(L'-1)")
    expect(a is not None and rel_err(a["min_bias_train"], [-m * (L - 1) for m in slopes]) <= 1e-15,
           "alibi: min bias within L is -m(L-1)")
    t = j["t5"]
    expect(t is not None and t["mode"] == "bidirectional" and len(t["directions"]) == 2, "t5 directions")
    for d in (t or {}).get("directions", []):
        sign = 1 if d["direction"] == "future" else -1
        expect(d["saturation"] == saturation(sign, 32, 128, True), f"t5 {d['direction']}: saturation {d['saturation']}")
        seen = {t5_bucket(sign * n, 32, 128, True) for n in range(1 if sign > 0 else 0, L)}
        expect(d["buckets_train"] == len(seen), f"t5 {d['direction']}: buckets within L")
        expect(d["bucket_target"] == t5_bucket(sign * (T - 1), 32, 128, True), f"t5 {d['direction']}: bucket at L'-1")
    expect(j["learned"] == {"rows": L, "first_missing": L, "last_missing": T - 1, "missing": T - L},
           f"learned: {j['learned']}")
    # Causal T5: one direction, saturation from the formula.
    r = run("extrapolate", "--train-len", "64", "--target-len", "1024", "--methods", "", "--schemes", "t5", "--mode",
            "causal", "--buckets", "16", "--max-distance", "300", "--format", "json", text=True)
    expect(r.returncode == 0, f"causal t5: exit {r.returncode} ({r.stderr!r})")
    if r.returncode == 0:
        d = json.loads(r.stdout)["t5"]["directions"]
        expect(len(d) == 1 and d[0]["saturation"] == saturation(-1, 16, 300, False), f"causal t5 saturation {d}")


def check_biases():
    # KERPLE (chijames/KERPLE ParallelKerpleLog/Power: -p·ln(1 + a·n), -a·n^p) and Sandwich
    # (NeMo: (Σ_{k=1}^{d/2} cos(n·10000^(-2k/d)) - d/2) / (8h/H)) over offsets 0..L-1 and 0..L'-1.
    L2, T2, d, H = 1000, 5000, 32, 4
    r = run("extrapolate", "--train-len", str(L2), "--target-len", str(T2), "--methods", "", "--schemes",
            "kerple,sandwich", "--p", "1,2", "--a", "0.5,1", "--dim", str(d), "--heads", str(H), "--format", "json",
            text=True)
    expect(r.returncode == 0, f"biases: exit {r.returncode} ({r.stderr!r})")
    if r.returncode != 0:
        return
    b = {x["scheme"]: x for x in json.loads(r.stdout)["biases"]}
    n = np.arange(T2, dtype=np.float64)
    for h, (p, a) in enumerate([(1.0, 0.5), (2.0, 1.0)]):
        bias = -p * np.log1p(a * n)
        expect(abs(b["kerple"]["min_bias_train"][h] - bias[:L2].min()) <= 1e-12 * abs(bias[:L2].min()),
               f"kerple head {h}: min within L")
        expect(abs(b["kerple"]["min_bias_target"][h] - bias.min()) <= 1e-12 * abs(bias.min()),
               f"kerple head {h}: min at L'")
    k = np.arange(1, d // 2 + 1, dtype=np.float64)
    numerator = np.cos(np.outer(n, 10000.0 ** (-2 * k / d))).sum(axis=1) - d / 2
    for h in range(1, H + 1):
        bias = numerator / (8.0 * h / H)
        for key, want in (("min_bias_train", bias[:L2].min()), ("max_bias_train", bias[:L2].max()),
                          ("min_bias_target", bias.min()), ("max_bias_target", bias.max())):
            got = b["sandwich"][key][h - 1]
            expect(abs(got - want) <= 1e-9 * max(1.0, abs(want)), f"sandwich head {h}: {key} {got} != {want}")


def check_figure(tmp):
    for ext, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml")):
        out = os.path.join(tmp, f"ex.{ext}")
        r = run("extrapolate", "--train-len", "256", "--target-len", "1024", "--samples", "2", "--schemes",
                "alibi,t5,kerple,sandwich,learned", "-o", out)
        expect(r.returncode == 0, f"{ext}: exit {r.returncode} ({r.stderr!r})")
        if r.returncode == 0:
            with open(out, "rb") as f:
                head = f.read(64)
            expect(head.startswith(magic) or (ext == "svg" and b"<svg" in head), f"{ext}: starts with {head[:8]!r}")


def check_hf_config():
    # Llama-3.1-8B's config (tests/data/configs, its _source): base 500000, head_dim 128, llama3
    # low/high frequency factors 1 and 4 from the file; the factor is L'/L = 8, not the file's.
    cfg = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs", "llama-3.1-8b.json")
    r = run("extrapolate", "--hf-config", cfg, "--train-len", "8192", "--target-len", "65536", "--methods",
            "none,llama3", "--schemes", "", "--samples", "1", "--format", "json", text=True)
    expect(r.returncode == 0, f"hf-config: exit {r.returncode} ({r.stderr!r})")
    expect("is ignored" not in r.stderr, f"hf-config: no warning about the model's llama3 settings ({r.stderr!r})")
    if r.returncode != 0:
        return
    j = json.loads(r.stdout)
    m = {x["method"]: x for x in j["rope"]}
    expect(rel_err(m["none"]["inv_freq"], default_inv_freq(500000.0, 128)) <= 1e-6, "hf-config: base 500000, d 128")
    want = llama3(128, 1.0, 4.0, base=500000.0, L=8192, S=8.0)
    expect(m["llama3"]["factor"] == 8 and rel_err(m["llama3"]["inv_freq"], want) <= 1e-6,
           f"hf-config: llama3 at factor 8, rel err {rel_err(m['llama3']['inv_freq'], want):.2e}")
    expect(j["rope_settings"].get("hf-config") == cfg, f"hf-config echoed: {j['rope_settings']}")
    # weights.md §5.4/§5.5, computed from the formulas: Llama-3-8B's critical dimension at 8192 is 70;
    # the smallest base for 65536 positions at d = 128 is 2.21e6 (a 200-per-decade grid: 3 digits)
    expect(m["none"]["critical_dimension"] == 70, f"critical dimension 70 ({m['none']['critical_dimension']})")
    expect(m["none"]["min_base"] is not None and abs(m["none"]["min_base"] / 2.21e6 - 1) < 0.003,
           f"min base 2.21e6 for 65536 ({m['none']['min_base']})")


def check_text():
    r = run("extrapolate", "--train-len", "1024", "--target-len", "4096", "--samples", "2", text=True)
    expect(r.returncode == 0, f"text: exit {r.returncode} ({r.stderr!r})")
    for word in ("resolution", "attention entropy", "alibi:", "t5:", "llama3"):
        expect(word in r.stdout, f"text output names {word!r}")


def check_bad_options(tmp):
    out = os.path.join(tmp, "x.json")
    old = os.path.join(tmp, "old.json")
    with open(old, "w") as f:
        f.write("old")
    cases = [
        (["--train-len", "4096", "--target-len", "2048"], "--target-len"),
        (["--train-len", "64", "--target-len", "128", "--methods", "none,lineer"], "--methods"),
        (["--train-len", "64", "--target-len", "128", "--schemes", "alibi,t6"], "--schemes"),
        (["--train-len", "64", "--target-len", "128", "--methods", "longrope"], "short-factor"),
        (["--train-len", "64", "--target-len", "128", "--methods", "", "--schemes", ""], "--methods"),
        (["--train-len", "64", "--target-len", "128", "--methods", "none,none"], "twice"),
        (["--train-len", "64", "--target-len", "128", "--samples", "0"], "--samples"),
        (["--target-len", "128"], "--train-len"),
        (["--train-len", "64", "--target-len", "128", "--format", "csv"], "--format"),
    ]
    for args, word in cases:
        for target in (out, old):
            r = run("extrapolate", *args, "-o", target, text=True)
            lines = r.stderr.strip().splitlines()
            expect(r.returncode == 2, f"{args}: exit {r.returncode}, want 2")
            expect(len(lines) == 1 and lines[0].startswith("posenc: error:") and word in lines[0],
                   f"{args}: stderr {r.stderr!r} should be one line naming {word}")
        expect(not os.path.exists(out), f"{args}: output file created")
        with open(old) as f:
            expect(f.read() == "old", f"{args}: existing output changed")
    expect([n for n in os.listdir(tmp) if n.endswith(".tmp")] == [], "no temporary file left")


def check_layer_types():
    """Issue 26 item 16: a model whose layer types rotate differently gets one section per type.
    Gemma 3 4B (tests/data/configs/models/gemma-3-4b.json, its _source): transformers'
    Gemma3TextConfig makes layer i full attention when (i + 1) % sliding_window_pattern (6) == 0,
    the others sliding; full layers rotate with rope_theta 1e6, sliding ones with
    rope_local_base_freq 10000; head_dim 256."""
    cfg = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs", "models", "gemma-3-4b.json")
    r = run("extrapolate", "--hf-config", cfg, "--train-len", "8192", "--target-len", "32768", "--methods",
            "none", "--schemes", "", "--samples", "1", "--format", "json", text=True)
    expect(r.returncode == 0, f"layer types: exit {r.returncode} ({r.stderr!r})")
    if r.returncode != 0:
        return
    ropes = {x["layer_type"]: x for x in json.loads(r.stdout)["rope"]}
    n = 34
    full = [i for i in range(n) if (i + 1) % 6 == 0]
    sliding = [i for i in range(n) if (i + 1) % 6 != 0]
    expect(sorted(ropes) == ["full_attention", "sliding_attention"], f"layer types: both sections ({sorted(ropes)})")
    if sorted(ropes) != ["full_attention", "sliding_attention"]:
        return
    expect(ropes["full_attention"]["layers"] == full and ropes["sliding_attention"]["layers"] == sliding,
           "layer types: the layers of each type, every layer covered")
    expect(rel_err(ropes["full_attention"]["inv_freq"], default_inv_freq(1e6, 256)) <= 1e-6, "full layers: base 1e6")
    expect(rel_err(ropes["sliding_attention"]["inv_freq"], default_inv_freq(10000.0, 256)) <= 1e-6,
           "sliding layers: rope_local_base_freq 10000")
    r = run("extrapolate", "--hf-config", cfg, "--train-len", "8192", "--target-len", "32768", "--methods", "none",
            "--schemes", "", "--samples", "1", "--layer-type", "sliding_attention", "--format", "json", text=True)
    got = [x["layer_type"] for x in json.loads(r.stdout)["rope"]] if r.returncode == 0 else None
    expect(got == ["sliding_attention"], f"--layer-type picks one ({got}, {r.stderr!r})")
    r = run("extrapolate", "--hf-config", cfg, "--train-len", "8192", "--target-len", "32768", "--methods", "none",
            "--schemes", "", "--samples", "1", text=True)
    expect(r.stdout.count("rope of the") == 2 and "rope of the sliding_attention layers (0-4, 6-10" in r.stdout,
           "text: one section per layer type, naming its layers")
    # a flags-only request and a one-rope model keep one section, "layer_type": null
    r = run("extrapolate", "--train-len", "64", "--target-len", "128", "--methods", "none", "--schemes", "",
            "--samples", "1", "--format", "json", text=True)
    expect(r.returncode == 0 and [x["layer_type"] for x in json.loads(r.stdout)["rope"]] == [None],
           "flags only: one rope, layer_type null")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_json(tmp)
        check_text()
        check_biases()
        check_hf_config()
        check_layer_types()
        check_figure(tmp)
        check_bad_options(tmp)
    finish()


if __name__ == "__main__":
    main()
