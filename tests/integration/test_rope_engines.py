"""Serving-engine conventions (vllm, vllm-0.6, sglang, trtllm, mlx) through the real binary,
against each engine's formulas re-derived here in numpy from its source (docs/engines.md names
the files and commits): config defaults, float32 inverse frequencies, attention factor, logit
scale, cache rows, LongRoPE list and dynamic-NTK base at the given lengths. Each disagreement
with transformers named in issue 18 is checked both ways: the engine's value matches the
numpy model of the engine, and differs from transformers' value (so computing the engine like
transformers would fail the test). Tolerances: inv_freq 1e-6 relative (a few float32 ulp:
numpy's and the C++ libm's powf/exp2f may round differently), factors 1e-12 relative (double)."""
import ctypes
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish, run  # noqa: E402

CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs")
f32 = np.float32


def cfg(name):
    return os.path.join(CONFIGS, name + ".json")


def report(config, convention, *extra):
    p = run("rope", "--hf-config", cfg(config), "--convention", convention, "--format", "json", *extra, text=True)
    expect(p.returncode == 0, f"rope {config} {convention} {extra} exits 0 (got {p.returncode}: {p.stderr.strip()})")
    return json.loads(p.stdout) if p.returncode == 0 else None


def close(a, b, rtol):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= rtol * np.maximum(np.abs(a), np.abs(b))))


def check_inv(r, expected, what, rtol=1e-6):
    if r is None:
        return
    got = np.array(r["inv_freq"], dtype=np.float64)
    worst = float(np.max(np.abs(got - expected) / np.abs(expected))) if got.shape == expected.shape else math.inf
    expect(close(got, expected, rtol), f"{what}: inv_freq within {rtol} relative of the numpy model (worst {worst:.3g})")


def check(r, key, expected, what, rtol=1e-12):
    if r is None:
        return
    got = r[key]
    ok = got == expected if expected is None or isinstance(expected, (str, int)) and not isinstance(expected, bool) \
        else abs(got - expected) <= rtol * abs(expected)
    expect(ok, f"{what}: {key} {got} == {expected}")


# ---- the engines' formulas, from their source ------------------------------------------------

_libm = ctypes.CDLL("libm.so.6")
_libm.powf.restype, _libm.powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]


def powf(base, exponents):
    """float32 power as C's powf (glibc: correctly rounded); numpy's float32 power is not."""
    return np.array([_libm.powf(float(base), float(e)) for e in np.atleast_1d(exponents)], dtype=f32)

def torch_inv(base, d):
    """vLLM/SGLang/transformers: 1.0 / (base ** (torch.arange(0, d, 2, dtype=float) / d)), float32."""
    return (f32(1) / powf(f32(base), np.arange(0, d, 2, dtype=f32) / f32(d))).astype(f32)


def numpy_inv(base, d, scale=1.0):
    """TensorRT-LLM: scale / (theta ** (np.arange(0, dim, 2) / dim)).astype(float32)."""
    return (f32(scale) / (base ** (np.arange(0, d, 2) / d)).astype(f32)).astype(f32)


def mlx_kernel_inv(base, d):
    """MLX fast.rope with a base: exp2(-(i / (d/2)) * log2(base)) in float32."""
    half = d // 2
    return np.exp2(-(np.arange(half, dtype=f32) / f32(half)) * np.log2(f32(base))).astype(f32)


def corr_dim(n_rot, d, base, length):
    return d * math.log(length / (n_rot * 2 * math.pi)) / (2 * math.log(base))


def yarn_range(d, base, length, bf=32.0, bs=1.0, truncate=True):
    lo, hi = corr_dim(bf, d, base, length), corr_dim(bs, d, base, length)
    if truncate:
        lo, hi = math.floor(lo), math.ceil(hi)
    lo, hi = max(lo, 0), min(hi, d - 1)
    if lo == hi:
        hi += 0.001
    return lo, hi


def torch_yarn(base, d, s, length, truncate=True):
    """yarn_scaling_rope.py / yarn.py / create_sinusoidal_positions_yarn (torch float32)."""
    lo, hi = yarn_range(d, base, length, truncate=truncate)
    ramp = np.clip((np.arange(d // 2, dtype=f32) - f32(lo)) / f32(hi - lo), f32(0), f32(1)).astype(f32)
    pos = powf(f32(base), np.arange(0, d, 2, dtype=f32) / f32(d))
    extra, inter = f32(1) / pos, f32(1) / (f32(s) * pos)
    mask = f32(1) - ramp
    return (inter * (f32(1) - mask) + extra * mask).astype(f32)


def mlx_yarn(base, d, s, length):
    """mlx-lm YarnRoPE: wavelength blend of freq_inter and freq_extra; the kernel takes 1/freqs."""
    lo, hi = yarn_range(d, base, length)
    ramp = np.clip((np.arange(d // 2, dtype=f32) - f32(lo)) / f32(hi - lo), f32(0), f32(1)).astype(f32)
    extra = powf(f32(base), np.arange(0, d, 2, dtype=f32) / f32(d))
    inter = f32(s) * extra
    mask = f32(1) - ramp
    freqs = (inter * extra) / (inter * mask + extra * (f32(1) - mask))
    return (f32(1) / freqs).astype(f32)


def get_mscale(s, m=1.0):
    return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0


def llama3_f32(inv, factor, low, high, length):
    """transformers / vLLM / SGLang / TensorRT-LLM llama3 bands over a float32 inv_freq."""
    wl = f32(2 * math.pi) / inv
    smooth = (f32(length) / wl - f32(low)) / f32(high - low)
    medium = (f32(1) - smooth) * inv / f32(factor) + smooth * inv
    return np.where(wl < f32(length / high), inv, np.where(wl > f32(length / low), inv / f32(factor), medium)).astype(f32)


def mlx_llama3(base, d, factor, low, high, length):
    freqs = powf(f32(base), np.arange(0, d, 2, dtype=f32) / f32(d))
    wl = f32(2 * math.pi) * freqs
    freqs = np.where(wl > f32(length / low), freqs * f32(factor), freqs)
    medium = (wl > f32(length / high)) & (wl < f32(length / low))
    smooth = (f32(length) / wl - f32(low)) / f32(high - low)
    freqs = np.where(medium, freqs / ((f32(1) - smooth) / f32(factor) + smooth), freqs)
    return (f32(1) / freqs).astype(f32)


def longrope_inv(base, d, factors):
    pos = powf(f32(base), np.arange(0, d, 2, dtype=f32) / f32(d))
    return (f32(1) / (np.array(factors, dtype=f32) * pos)).astype(f32)


# ---- the checks ------------------------------------------------------------------------------

def llama2():
    d, b = 128, 10000.0
    for conv in ("vllm", "vllm-0.6", "sglang", "trtllm", "mlx"):
        r = report("llama-2-7b-chat", conv)
        expected = mlx_kernel_inv(b, d) if conv == "mlx" else numpy_inv(b, d) if conv == "trtllm" else torch_inv(b, d)
        check_inv(r, expected, f"llama-2 {conv}")
        check(r, "cache_len", None if conv == "mlx" else 4096, f"llama-2 {conv}")
    # linear ×2: vLLM/SGLang divide the positions (cache of 8192 rows), TRT scales inv_freq by
    # float32(1/2), MLX multiplies the positions by 1/2 in the kernel.
    for conv, expected, rows in (("vllm", torch_inv(b, d) / 2, 8192), ("sglang", torch_inv(b, d) / 2, 8192),
                                 ("trtllm", numpy_inv(b, d, 0.5), 4096), ("mlx", mlx_kernel_inv(b, d) * f32(0.5), None)):
        r = report("llama-2-7b-linear", conv)
        check_inv(r, expected.astype(np.float64), f"llama-2 linear {conv}")
        check(r, "cache_len", rows, f"llama-2 linear {conv}")
    # vLLM linear: the cache's angle at t is float32(t / 2) · θ, read through generate rope.
    p = run("generate", "rope", "--hf-config", cfg("llama-2-7b-linear"), "--convention", "vllm", "--table", "angle",
            "--len", "8", "--format", "json", text=True)
    if p.returncode == 0:
        got = np.array(json.loads(p.stdout)["data"], dtype=f32)[:, :64]  # the table is float32
        t = (np.arange(8, dtype=f32) / f32(2.0))[:, None]
        want = (t * torch_inv(b, d)[None, :]).astype(f32)
        worst = int(np.max(np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32))))
        expect(worst <= 1, f"vllm linear: angle[t] = float32(t/2)·θ (the cache's divided positions), {worst} ulp")
    else:
        expect(False, f"generate rope --convention vllm linear exits 0 ({p.stderr.strip()})")


def llama2_dynamic():
    d, b, m = 128, 10000.0, 4096
    fixed = b * (2.0 * (m * 2.0) / m - 1.0) ** (d / (d - 2))  # b·(s² − s + 1)^(d/(d−2)), s = 2
    expect(abs(fixed - 30527.7) < 0.05, f"Llama-2 dynamic fixed base {fixed} is 30527.7 (issue 18)")
    for seq in (4096, 8192):
        hf = report("llama-2-7b-dynamic", "hf", "--seq-len", str(seq))
        hf_base = b * max(1.0, 2.0 * seq / m - 1.0) ** (d / (d - 2))
        check(hf, "scaled_base", hf_base, f"hf dynamic at {seq}")
        # vLLM main: no scaling, cache of M rows while max_model_len is M·s (#41277, #55910)
        r = report("llama-2-7b-dynamic", "vllm", "--seq-len", str(seq))
        check_inv(r, torch_inv(b, d), f"vllm dynamic at {seq}")
        check(r, "cache_len", 4096, f"vllm dynamic at {seq}")
        if r and seq == 8192:
            expect(any("#55910" in x for x in r["deviations"]), "vllm dynamic names the cache of 4096 rows (#55910)")
            expect(abs(r["inv_freq"][10] / hf["inv_freq"][10] - 1) > 0.05, "vllm dynamic at 8192 differs from hf")
        # vLLM 0.6 and SGLang: the fixed base at every length, cache M·s
        for conv in ("vllm-0.6", "sglang"):
            r = report("llama-2-7b-dynamic", conv, "--seq-len", str(seq))
            check_inv(r, torch_inv(fixed, d), f"{conv} dynamic at {seq}")
            check(r, "cache_len", 8192, f"{conv} dynamic at {seq}")
            check(r, "scaled_base", fixed, f"{conv} dynamic at {seq}")
            if r and seq == 4096:
                expect(abs(r["inv_freq"][10] / hf["inv_freq"][10] - 1) > 0.05, f"{conv} dynamic at 4096 differs from hf")
        # TensorRT-LLM kernel: float32 base update above M; MLX: the transformers formula per call
        r = report("llama-2-7b-dynamic", "trtllm", "--seq-len", str(seq))
        if seq > m:
            bb = f32(2.0) * f32(seq) / f32(m) - (f32(2.0) - f32(1))
            base32 = f32(b) * powf(bb, f32(d) / f32(d - 2))[0]
        else:
            base32 = f32(b)
        trt = (f32(1) / powf(base32, np.arange(0, d, 2, dtype=f32) / f32(d))).astype(f32)
        check_inv(r, trt, f"trtllm dynamic at {seq}")
        r = report("llama-2-7b-dynamic", "mlx", "--seq-len", str(seq))
        check_inv(r, mlx_kernel_inv(hf_base, d), f"mlx dynamic at {seq}")


def llama31():
    d, b = 128, 500000.0
    hf = llama3_f32(torch_inv(b, d), 8.0, 1.0, 4.0, 8192)
    for conv in ("hf", "vllm", "vllm-0.6", "sglang"):
        check_inv(report("llama-3.1-8b", conv), hf, f"llama-3.1 {conv}")
    check_inv(report("llama-3.1-8b", "trtllm"), llama3_f32(numpy_inv(b, d), 8.0, 1.0, 4.0, 8192), "llama-3.1 trtllm")
    check_inv(report("llama-3.1-8b", "mlx"), mlx_llama3(b, d, 8.0, 1.0, 4.0, 8192), "llama-3.1 mlx")


def qwen_deepseek():
    d, b, s = 128, 1e6, 4.0
    for conv in ("vllm", "vllm-0.6", "sglang", "trtllm"):
        r = report("qwen2.5-7b-yarn", conv)
        check_inv(r, torch_yarn(b, d, s, 32768), f"qwen2.5 yarn {conv}")
        check(r, "attention_factor", get_mscale(s), f"qwen2.5 yarn {conv}")
    r = report("qwen2.5-7b-yarn", "mlx")
    check_inv(r, mlx_yarn(b, d, s, 32768), "qwen2.5 yarn mlx")
    check(r, "attention_factor", get_mscale(s), "qwen2.5 yarn mlx")
    check(report("qwen2.5-7b-yarn", "vllm"), "cache_len", 131072, "qwen2.5 yarn vllm (L·s rows)")
    check(report("qwen2.5-7b-yarn", "trtllm"), "cache_len", 32768, "qwen2.5 yarn trtllm (max_position_embeddings rows)")
    # DeepSeek-V3: attention factor 1 on cos/sin, softmax × get_mscale(40, 1)² in every engine
    logit = get_mscale(40.0, 1.0) ** 2
    for conv in ("hf", "vllm", "sglang", "trtllm", "mlx"):
        r = report("deepseek-r1", conv)
        check(r, "attention_factor", 1.0, f"deepseek-r1 {conv}")
        check(r, "logit_scale", logit, f"deepseek-r1 {conv}")
        check_inv(r, mlx_yarn(10000.0, 64, 40.0, 4096) if conv == "mlx" else torch_yarn(10000.0, 64, 40.0, 4096),
                  f"deepseek-r1 {conv}")
    check(report("deepseek-r1", "vllm"), "cache_len", 163840, "deepseek-r1 vllm")


def yarn_mscale_one():
    # Plain YaRN with mscale = mscale_all_dim = 1: transformers 1.0, vLLM 0.1 ln 40 + 1 (#48621).
    hf = report("yarn-mscale-1", "hf")
    check(hf, "attention_factor", 1.0, "yarn mscale 1 hf")
    for conv in ("vllm", "vllm-0.6"):
        r = report("yarn-mscale-1", conv)
        check(r, "attention_factor", 0.1 * math.log(40) + 1, f"yarn mscale 1 {conv}")
        if r:
            expect(abs(r["attention_factor"] - 1.369) < 5e-4, f"{conv}: 1.369 at s = 40 (issue 18)")
            expect(any("#48621" in x for x in r["deviations"]), f"{conv} names vllm-project/vllm#48621")
    for conv in ("sglang", "trtllm", "mlx"):
        check(report("yarn-mscale-1", conv), "attention_factor", 1.0, f"yarn mscale 1 {conv}")


def no_original():
    # Missing original_max_position_embeddings: transformers uses max_position_embeddings (32768),
    # SGLang max_position, TensorRT-LLM 1024, MLX-LM 4096, vLLM indexes the key.
    d, b, s = 128, 1e6, 4.0
    check_inv(report("qwen2.5-7b-yarn-no-original", "hf"), torch_yarn(b, d, s, 32768), "no original hf")
    check_inv(report("qwen2.5-7b-yarn-no-original", "sglang"), torch_yarn(b, d, s, 32768), "no original sglang")
    r = report("qwen2.5-7b-yarn-no-original", "trtllm")
    check_inv(r, torch_yarn(b, d, s, 1024), "no original trtllm (1024)")
    check(r, "original_length", 1024, "no original trtllm")
    r = report("qwen2.5-7b-yarn-no-original", "mlx")
    check_inv(r, mlx_yarn(b, d, s, 4096), "no original mlx (4096)")
    check(r, "original_length", 4096, "no original mlx")
    expect(not close(torch_yarn(b, d, s, 1024), torch_yarn(b, d, s, 32768), 1e-3), "1024 and 32768 give other ramps")
    p = run("rope", "--hf-config", cfg("qwen2.5-7b-yarn-no-original"), "--convention", "vllm", text=True)
    expect(p.returncode == 2 and "original_max_position_embeddings" in p.stderr and p.stderr.count("\n") == 1,
           f"vllm refuses a yarn config without original_max_position_embeddings in one line ({p.stderr.strip()})")


def gpt_oss():
    d, b, s = 64, 150000.0, 32.0
    unrounded, rounded = torch_yarn(b, d, s, 4096, truncate=False), torch_yarn(b, d, s, 4096, truncate=True)
    changed = np.abs(unrounded / rounded - 1) > 1e-3
    expect(changed.sum() == 9 and np.max(np.abs(unrounded / rounded - 1)) > 0.4,
           f"gpt-oss: truncate changes 9 of 32 frequencies by up to 43 % (issue reference; got {changed.sum()})")
    for conv in ("hf", "vllm", "sglang"):
        check_inv(report("gpt-oss-20b", conv), unrounded, f"gpt-oss {conv} (truncate false honoured)")
    for conv in ("vllm-0.6", "trtllm"):
        r = report("gpt-oss-20b", conv)
        check_inv(r, rounded, f"gpt-oss {conv} (range always rounded)")
        if r:
            expect(any("truncate" in x for x in r["deviations"]), f"gpt-oss {conv} names truncate")
    check_inv(report("gpt-oss-20b", "mlx"), mlx_yarn(b, d, s, 4096), "gpt-oss mlx (range always rounded)")


def phi35():
    d, b, L, M = 96, 10000.0, 4096, 131072
    cfg_json = json.load(open(cfg("phi-3.5-mini")))
    short, long_ = cfg_json["rope_scaling"]["short_factor"], cfg_json["rope_scaling"]["long_factor"]
    ratio = np.array(long_) / np.array(short)
    expect(abs(ratio.min() - 1.08) < 0.01 and abs(ratio.max() - 31.5) < 0.1,
           f"Phi-3.5: long/short factors span 1.08 .. 31.5 (issue 18; got {ratio.min():.3f} .. {ratio.max():.3f})")
    inv_s, inv_l = longrope_inv(b, d, short), longrope_inv(b, d, long_)
    att = math.sqrt(1 + math.log(M / L) / math.log(L))
    # (convention, seq_len, extra flags) -> list
    cases = [("hf", 4096, (), "short"), ("hf", 4097, (), "long"),
             ("vllm", 4096, (), "long"), ("vllm", 4096, ("--max-model-len", "4096"), "short"),
             ("vllm-0.6", 4097, (), "short"), ("vllm-0.6", 4098, (), "long"),
             ("sglang", 4096, (), "short"), ("sglang", 4097, (), "short"), ("sglang", 4098, (), "long"),
             ("trtllm", 4096, (), "long"), ("trtllm", 4096, ("--max-model-len", "4096"), "short"),
             ("trtllm", 4097, ("--max-model-len", "8192"), "long"),
             ("mlx", 100, (), "long"), ("mlx", 4097, (), "long")]
    for conv, seq, flags, lst in cases:
        r = report("phi-3.5-mini", conv, "--seq-len", str(seq), *flags)
        check(r, "longrope_list", lst, f"phi-3.5 {conv} seq {seq} {flags}")
        if conv == "trtllm":  # (1 / b^(2i/d)) / factor: a different rounding order
            pos = powf(f32(b), np.arange(0, d, 2, dtype=f32) / f32(d))
            expected = ((f32(1) / pos) / np.array(long_ if lst == "long" else short, dtype=f32)).astype(f32)
        elif conv == "mlx":
            expected = (f32(1) / (np.array(long_, dtype=f32) * powf(f32(b), np.arange(0, d, 2, dtype=f32) / f32(d)))).astype(f32)
        else:
            expected = inv_l if lst == "long" else inv_s
        check_inv(r, expected, f"phi-3.5 {conv} seq {seq} {flags}")
        check(r, "attention_factor", att, f"phi-3.5 {conv} seq {seq}")
    check(report("phi-3.5-mini", "vllm"), "cache_len", M, "phi-3.5 vllm long cache")
    # SGLang at 4097: position 4096 reads row 0 of the long cache (angle 0).
    p = run("generate", "rope", "--hf-config", cfg("phi-3.5-mini"), "--convention", "sglang", "--seq-len", "4097",
            "--table", "angle", "--len", "4097", "--format", "json", text=True)
    if p.returncode == 0:
        rows = json.loads(p.stdout)["data"]
        expect(all(v == 0 for v in rows[4096][:48]) and rows[4095][1] > 0,
               "sglang: position 4096 of a 4097-token batch gets angle 0 (long cache row 0)")
    else:
        expect(False, f"generate rope sglang phi-3.5 exits 0 ({p.stderr.strip()})")


def engines_command():
    def engines(config, *flags):
        p = run("rope", "engines", "--hf-config", cfg(config), "--format", "json", *flags, text=True)
        expect(p.returncode in (0, 1), f"rope engines {config} {flags} exits 0 or 1 ({p.stderr.strip()})")
        return p.returncode, (json.loads(p.stdout) if p.stdout else None)

    def verdict(rep, conv):
        return next(e["verdict"] for e in rep["engines"] if e["convention"] == conv)

    for config in ("llama-3.1-8b", "qwen2.5-7b-yarn", "deepseek-r1", "llama-2-7b-chat"):
        code, rep = engines(config)
        if rep:
            for conv in ("vllm", "vllm-0.6", "sglang", "trtllm", "mlx"):
                expect(verdict(rep, conv).startswith("agrees"), f"{config}: {conv} agrees ({verdict(rep, conv)})")
    code, rep = engines("phi-3.5-mini", "--len", "4096")
    expect(code == 1, "phi-3.5 at 4096: exit 1")
    if rep:
        expect("#27431" in verdict(rep, "vllm"), "phi-3.5: vllm verdict names #27431")
        expect("#707" in verdict(rep, "mlx"), "phi-3.5: mlx verdict names mlx-lm#707")
        expect("max_seq_len" in verdict(rep, "trtllm"), "phi-3.5: trtllm verdict names max_seq_len")
        expect(verdict(rep, "sglang") == "agrees bitwise", "phi-3.5 at 4096: sglang agrees")
    code, rep = engines("phi-3.5-mini", "--len", "4097")
    if rep:
        expect("positions > L" in verdict(rep, "sglang") and "row 0" in verdict(rep, "sglang"),
               "phi-3.5 at 4097: sglang stays on short factors, position 4096 reads row 0 of the long cache")
    code, rep = engines("llama-2-7b-dynamic", "--len", "8192")
    if rep:
        expect("#41236" in verdict(rep, "vllm") and "#55910" in verdict(rep, "vllm"), "dynamic: vllm names #41236, #55910")
        expect(verdict(rep, "vllm-0.6") == "agrees bitwise", "dynamic at 8192 = M·s: the fixed base is transformers'")
        expect(verdict(rep, "trtllm").startswith("agrees") and verdict(rep, "mlx").startswith("agrees"),
               "dynamic at 8192: trtllm and mlx recompute the base like transformers")
    code, rep = engines("llama-2-7b-dynamic", "--len", "4096")
    if rep:
        expect("fixed base" in verdict(rep, "sglang"), "dynamic at 4096: sglang's fixed base named")
        expect("#3488" in verdict(rep, "vllm-0.6"), "dynamic at 4096: vllm-0.6 names #3488")
    code, rep = engines("yarn-mscale-1")
    if rep:
        expect("#48621" in verdict(rep, "vllm"), "yarn mscale 1: vllm names #48621")
        expect(verdict(rep, "sglang").startswith("agrees"), "yarn mscale 1: sglang agrees")
    code, rep = engines("qwen2.5-7b-yarn-no-original")
    if rep:
        expect("1024" in verdict(rep, "trtllm"), "no original: trtllm names 1024")
        expect("4096" in verdict(rep, "mlx"), "no original: mlx names 4096")
        expect(verdict(rep, "vllm").startswith("refuses"), "no original: vllm refuses (KeyError)")
    code, rep = engines("gpt-oss-20b")
    if rep:
        for conv in ("vllm-0.6", "trtllm", "mlx"):
            expect("truncate" in verdict(rep, conv), f"gpt-oss: {conv} names truncate")
        expect(verdict(rep, "vllm").startswith("agrees"), "gpt-oss: vllm honours truncate")


def gemma3_every_rope():
    """Gemma 3 (Gemma3TextConfig: head_dim 256, rope_theta 1e6, rope_local_base_freq 1e4, layer i
    full attention when (i + 1) % 6 == 0, max_position_embeddings 131072): the full layers' rope
    is linear x8 at 1e6, the sliding layers' the default rope at 1e4 (modeling_gemma3.py
    rotary_emb_local); rope engines compares each, by the same rule, against numpy."""
    models = os.path.join(CONFIGS, "models", "gemma-3-4b.json")
    n = 2048
    p = run("rope", "engines", "--hf-config", models, "--len", str(n), "--format", "json", text=True)
    expect(p.returncode == 0, f"gemma-3-4b: rope engines exits 0 (got {p.returncode}: {p.stderr.strip()[:200]})")
    if p.returncode != 0:
        return
    rep = json.loads(p.stdout)
    full = [i for i in range(34) if (i + 1) % 6 == 0]
    sliding = [i for i in range(34) if (i + 1) % 6 != 0]
    expect(rep.get("layer_types") == ["full_attention", "sliding_attention"] and rep["within"] is True,
           f"gemma-3-4b: two ropes, full first ({rep.get('layer_types')})")
    if "rope_types" not in rep:
        return
    ropes = rep["rope_types"]
    expect(ropes["full_attention"]["layers"] == full and ropes["sliding_attention"]["layers"] == sliding,
           "gemma-3-4b: full layers 5, 11, 17, 23, 29; the 29 others sliding")
    theta = {"full_attention": 1e6, "sliding_attention": 1e4}
    factor = {"full_attention": 8.0, "sliding_attention": 1.0}
    for name, r in ropes.items():
        expect(r["rope_type"] == ("linear" if name == "full_attention" else "none") and r["len"] == n,
               f"gemma-3-4b {name}: rope_type {r['rope_type']}")
        hf = np.array(r["transformers"]["inv_freq"], dtype=f32)
        want = torch_inv(theta[name], 256) / f32(factor[name])  # transformers' linear: inv_freq / factor
        check_inv({"inv_freq": hf.astype(np.float64)}, want.astype(np.float64), f"gemma-3-4b {name} transformers")
        eng = {e["convention"]: e for e in r["engines"]}
        check(eng["vllm"], "cache_len", 131072 * int(factor[name]), f"gemma-3-4b {name} vllm")  # arange(M·s)
        mlx = eng["mlx"]
        scale = f32(1.0 / factor[name])  # nn.RoPE(scale = 1/factor) multiplies the positions
        check_inv(mlx, (mlx_kernel_inv(theta[name], 256) * scale).astype(np.float64), f"gemma-3-4b {name} mlx")
        # The tables, from the inverse frequencies just checked: transformers' float32 angle t·θ
        # against MLX's (scale·t)·θ_kernel, cos/sin of the float angle rounded to float32.
        t = np.arange(n, dtype=f32)[:, None]
        a_hf = (t * hf[None, :]).astype(f32)
        held = (np.array(mlx["inv_freq"], dtype=f32) / scale).astype(f32)
        a_mlx = ((scale * t) * held[None, :]).astype(f32)
        for fn, key in ((np.cos, "cos_max_abs"), (np.sin, "sin_max_abs")):
            want_max = float(np.max(np.abs(fn(a_hf.astype(np.float64)).astype(f32).astype(np.float64)
                                           - fn(a_mlx.astype(np.float64)).astype(f32).astype(np.float64))))
            expect(abs(mlx[key] - want_max) <= 1.2e-7,
                   f"gemma-3-4b {name} mlx: {key} {mlx[key]:.6g} = numpy's {want_max:.6g} (1.2e-7: one float32 ulp)")
        for conv in ("vllm", "vllm-0.6", "sglang", "trtllm"):
            expect(eng[conv]["verdict"] == "agrees bitwise", f"gemma-3-4b {name}: {conv} agrees bitwise ({eng[conv]['verdict']})")
    expect(rep.get("no_rope_layers") == [], "gemma-3-4b: every layer rotates")
    # Cohere2 (command-r7b): layer i is full attention when (i + 1) % 4 == 0 (sliding_window_pattern
    # 4) and its full layers have no RoPE: one rope, the 8 others named as not compared.
    p = run("rope", "engines", "--hf-config", os.path.join(CONFIGS, "models", "command-r7b.json"), "--len", "64",
            "--format", "json", text=True)
    one = json.loads(p.stdout) if p.returncode == 0 else {}
    expect(one.get("no_rope_layers") == [i for i in range(32) if (i + 1) % 4 == 0] and "engines" in one,
           f"command-r7b: one rope, layers 3, 7, ..., 31 without RoPE ({one.get('no_rope_layers')})")
    # --layer-type keeps one rope, in the one-rope document.
    p = run("rope", "engines", "--hf-config", models, "--len", "64", "--layer-type", "sliding_attention", "--format",
            "json", text=True)
    one = json.loads(p.stdout) if p.returncode == 0 else {}
    expect("rope_types" not in one and one.get("rope_type") == "none" and len(one.get("engines", [])) == 7,
           "gemma-3-4b --layer-type sliding_attention: the one-rope document of the sliding rope")
    # Text: one section per rope naming its layers.
    p = run("rope", "engines", "--hf-config", models, "--len", "64", text=True)
    expect("2 ropes: full_attention (layers 5, 11, 17, 23, 29); sliding_attention (layers 0-4, 6-10" in p.stdout
           and "== rope of the sliding_attention layers (0-4, 6-10, 12-16, 18-22, 24-28, 30-33) ==" in p.stdout
           and p.stdout.count("verdicts") == 2 and not p.stderr,
           f"gemma-3-4b text: two sections ({p.stdout[:200]!r}, {p.stderr[:200]!r})")


def main():
    gemma3_every_rope()
    llama2()
    llama2_dynamic()
    llama31()
    qwen_deepseek()
    yarn_mscale_one()
    no_original()
    gpt_oss()
    phi35()
    engines_command()
    finish()


if __name__ == "__main__":
    main()
