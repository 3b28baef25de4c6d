"""`generate`, `decay`, `similarity` and `check` with --hf-config for the schemes of models
without RoPE (issue 16 step 4): ALiBi (BLOOM, MPT, Falcon-RW), T5 buckets per stack (T5,
Flan-T5, mT5), sinusoidal tables (Marian, M2M100, Whisper encoder) and learned tables (OPT,
RoBERTa, XLM-R, GPT-2, BERT, Whisper decoder). Every expected value is re-derived here in numpy
from the model classes' own code in transformers (build_alibi_tensor, gen_slopes/
build_alibi_bias, _relative_position_bucket, MarianSinusoidalPositionalEmbedding._init_weight,
M2M100SinusoidalPositionalEmbedding.get_embedding, Whisper's sinusoids, the learned embeddings'
sizes and offsets), never from posenc's output. The configs are read from
tests/data/configs/models by model_type, so the expectations follow whatever those files say."""
import glob
import json
import math
import os
import tempfile

import numpy as np

from harness import run_npy, expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = sorted(glob.glob(os.path.join(HERE, "..", "data", "configs", "models", "*.json")))
F32 = np.float32


def configs_of(*types, alibi=None):
    out = []
    for path in MODELS:
        cfg = json.load(open(path))
        if cfg.get("model_type") in types and (alibi is None or bool(cfg.get("alibi")) == alibi):
            out.append((path, cfg))
    return out


npy = run_npy


def bf16(x):
    """torch's .bfloat16(): round to nearest even on the upper 16 bits of the float32."""
    b = np.asarray(x, dtype=F32).view(np.uint32)
    b = ((b + np.uint32(0x7FFF) + ((b >> 16) & 1)) & np.uint32(0xFFFF0000)).astype(np.uint32)
    return b.view(F32)


# --- ALiBi -------------------------------------------------------------------------------
def pow32(base, powers):
    """torch.pow(float32 base, int32 powers): the float32 nearest base^k (the power of the float32
    base evaluated in double, rounded once; torch's float32 pow kernels, glibc powf and SLEEF's
    u10, are within 1 ulp of it). numpy's float32 power is not always that: it is checked to be
    within 1 ulp."""
    exact = np.array([np.float32(float(base) ** int(k)) for k in powers], dtype=F32)
    numpy = np.power(base, np.asarray(powers).astype(F32))
    expect(np.all(np.abs(numpy - exact) <= np.spacing(exact)), f"numpy's float32 power within 1 ulp of base^k")
    return exact


def bloom_slopes(n):
    """modeling_bloom.build_alibi_tensor (Falcon's is the same before .bfloat16())."""
    cp = 2 ** math.floor(math.log2(n))
    base = F32(2 ** (-(2 ** -(math.log2(cp) - 3))))
    sl = pow32(base, np.arange(1, 1 + cp))
    if cp != n:
        extra = F32(2 ** (-(2 ** -(math.log2(2 * cp) - 3))))
        rem = min(cp, n - cp)
        sl = np.concatenate([sl, pow32(extra, np.arange(1, 1 + 2 * rem, 2))])
    return sl.astype(F32)


def mpt_slopes(n, bias_max):
    """modeling_mpt.gen_slopes."""
    p = 2 ** math.ceil(math.log2(n))
    m = np.arange(1, p + 1, dtype=F32) * F32(bias_max / p)
    sl = F32(1.0) / np.power(F32(2.0), m)
    if p != n:
        sl = np.concatenate([sl[1::2], sl[::2]])[:n]
    return sl.astype(F32)


def alibi_expected(cfg, n):
    mt = cfg["model_type"]
    heads = cfg.get("n_head") or cfg.get("num_attention_heads") or cfg.get("n_heads")
    j = np.arange(n)
    mask = j[None, :] > j[:, None]  # the causal mask: future keys
    if mt == "mpt":  # build_alibi_bias: arange(1 - L, 1) * slopes, float32; the last L of max_seq_len
        sl = mpt_slopes(heads, cfg.get("attn_config", {}).get("alibi_bias_max", 8))
        b = sl[:, None] * (j - (n - 1)).astype(F32)[None, :]
    elif mt == "falcon":  # slopes[..., None].bfloat16() * arange_tensor: bfloat16 positions and product
        sl = bf16(bloom_slopes(heads))
        b = bf16(sl[:, None] * bf16(j.astype(F32))[None, :])
    else:  # bloom: float32 slopes times the arange, float32
        sl = bloom_slopes(heads)
        b = sl[:, None] * j.astype(F32)[None, :]
    out = np.broadcast_to(b[:, None, :], (heads, n, n)).astype(np.float64).copy()
    out[:, mask] = -np.inf
    return out


def check_alibi():
    cases = configs_of("bloom", "mpt") + configs_of("falcon", alibi=True)
    kinds = {c["model_type"] for _, c in cases}
    expect({"bloom", "mpt", "falcon"} <= kinds, f"alibi configs of bloom, mpt and falcon-rw in the collection ({kinds})")
    n = 300  # past 256, where Falcon's bfloat16 positions start to step by 2
    for path, cfg in cases:
        name = os.path.basename(path)
        want = alibi_expected(cfg, n)
        for args in (["generate", "--hf-config", path], ["generate", "alibi", "--hf-config", path]):
            got, err = npy(*args, "--len", str(n))
            expect(got is not None and got.shape == want.shape and np.array_equal(got, want),
                   f"{name}: {' '.join(args[:2])} --hf-config: the biases of the model's code, exactly ({err.strip()})")
            expect("posenc: note:" in err and "alibi" in err, f"{name}: a note names what was read ({err.strip()})")
            expect(f"--variant {cfg['model_type']}" in err, f"{name}: the note gives alibi's --variant ({err.strip()})")
    # Falcon-RW: distinct keys above 256 share a bias (bfloat16 positions), as the model's tensor does.
    for path, cfg in configs_of("falcon", alibi=True):
        got, _ = npy("generate", "--hf-config", path, "--len", "300", "--head", "0")
        expect(got is not None and got[299, 257] == got[299, 256], f"{os.path.basename(path)}: keys 256 and 257 alike")


# --- T5 ----------------------------------------------------------------------------------
def t5_buckets(n, num_buckets, max_distance, bidirectional):
    """T5Attention._relative_position_bucket on relative_position = memory - context (float32 log)."""
    rp = np.arange(n)[None, :] - np.arange(n)[:, None]
    ret = np.zeros_like(rp)
    if bidirectional:
        num_buckets //= 2
        ret += (rp > 0).astype(np.int64) * num_buckets
        rp = np.abs(rp)
    else:
        rp = -np.minimum(rp, np.zeros_like(rp))
    max_exact = num_buckets // 2
    is_small = rp < max_exact
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) where is_small picks rp itself
        large = max_exact + (np.log(rp.astype(F32) / F32(max_exact)) / F32(math.log(max_distance / max_exact))
                             * F32(num_buckets - max_exact)).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return ret + np.where(is_small, rp, large)


def check_t5():
    cases = configs_of("t5", "mt5")
    expect(len({c["model_type"] for _, c in cases}) == 2 and len(cases) >= 3, "t5, flan-t5 and mt5 configs present")
    n = 300  # past max_distance 128
    for path, cfg in cases:
        name = os.path.basename(path)
        b = cfg.get("relative_attention_num_buckets", 32)  # T5Config defaults
        d = cfg.get("relative_attention_max_distance", 128)
        for args, bidir, stack in ((["generate", "--hf-config", path], True, "encoder"),
                                   (["generate", "t5", "--hf-config", path], True, "encoder"),
                                   (["generate", "t5", "--hf-config", path, "--causal"], False, "decoder"),
                                   (["generate", "t5", "--mode", "causal", "--hf-config", path], False, "decoder")):
            got, err = npy(*args, "--len", str(n))
            want = t5_buckets(n, b, d, bidir)
            expect(got is not None and np.array_equal(got, want), f"{name}: {stack} buckets {' '.join(args[1:])} ({err})")
            expect(stack in err, f"{name}: the note names the {stack} stack ({err.strip()})")
        r = run("decay", "--hf-config", path, text=True)
        expect(r.returncode == 0 and r.stdout.count("\n") > 10, f"{name}: decay --hf-config just works ({r.stderr})")


# --- sinusoidal --------------------------------------------------------------------------
def marian_table(n_pos, dim):
    """MarianSinusoidalPositionalEmbedding._init_weight: float64 numpy, stored as float32."""
    pe = np.array([[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)])
    out = np.empty((n_pos, dim), dtype=F32)
    sentinel = dim // 2 if dim % 2 == 0 else dim // 2 + 1
    out[:, :sentinel] = np.sin(pe[:, 0::2])
    out[:, sentinel:] = np.cos(pe[:, 1::2])
    return out


def torch32_table(positions, dim):
    """M2M100 get_embedding and Whisper sinusoids in float32: w = exp(k * -(ln 10000 / (half - 1))),
    angle = position * w, [sin | cos]. exp, sin and cos rounded once from double (torch's float32
    kernels are within 1 ulp of that)."""
    half = dim // 2
    step = F32(-(math.log(10000) / (half - 1)))
    w = np.exp((np.arange(half, dtype=F32) * step).astype(np.float64)).astype(F32)
    ang = positions.astype(F32)[:, None] * w[None, :]
    s = np.sin(ang.astype(np.float64)).astype(F32)
    c = np.cos(ang.astype(np.float64)).astype(F32)
    return np.concatenate([s, c], axis=1), w


def check_sinusoidal():
    for path, cfg in configs_of("marian"):
        name = os.path.basename(path)
        rows, dim = cfg.get("max_position_embeddings", 1024), cfg["d_model"]
        want = marian_table(rows, dim).astype(np.float64)
        # float32 output takes sinusoidal's fast sin/cos (within 1.6e-7); the doubles round to Marian's weights.
        got, err = npy("generate", "--hf-config", path, "--dtype", "float64")
        expect(got is not None and got.shape == want.shape, f"{name}: {rows}x{dim} table ({err.strip()})")
        # posenc computes in double; the model stores float32: within half a float32 ulp of 1.
        expect(got is not None and float(np.max(np.abs(got - want))) <= 2 ** -24,
               f"{name}: Marian's table within 2^-24 ({None if got is None else np.max(np.abs(got - want))})")
        if got is not None:  # rounded to float32, posenc's doubles are Marian's weights but where two doubles
            # a few ulps apart straddle a float32 rounding boundary (pos / 10000^x against pos * 10000^-x)
            differ = int(np.sum(got.astype(F32) != want.astype(F32)))
            expect(differ <= got.size // 100000, f"{name}: {differ} of {got.size} float32 values differ from Marian's")
    kinds = set()
    for path, cfg in configs_of("m2m_100", "whisper"):
        name = os.path.basename(path)
        kinds.add(cfg["model_type"])
        dim = cfg["d_model"]
        if cfg["model_type"] == "m2m_100":  # positions from padding_idx + 1 (create_position_ids_from_input_ids)
            pad = cfg.get("pad_token_id", 1)
            positions = np.arange(pad + 1, pad + 1 + cfg.get("max_position_embeddings", 1024))
        else:  # WhisperEncoder: embed_positions = sinusoids(max_source_positions, d_model), positions from 0
            positions = np.arange(cfg.get("max_source_positions", 1500))
        want, w = torch32_table(positions, dim)
        w_numpy = np.exp(np.arange(dim // 2, dtype=F32) * F32(-(math.log(10000) / (dim // 2 - 1))))
        print(f"{name}: numpy's float32 exp differs from the once-rounded exp in {int(np.sum(w_numpy != w))} of {w.size} frequencies")
        for args in (["generate", "--hf-config", path], ["generate", "sinusoidal", "--hf-config", path]):
            got, err = npy(*args)
            expect(got is not None and got.shape == want.shape and np.array_equal(got, want.astype(np.float64)),
                   f"{name}: {' '.join(args[:2])}: the float32 table of the model's code, exactly ({err.strip()})")
    expect(kinds == {"m2m_100", "whisper"}, f"m2m_100 and whisper configs present ({kinds})")


# --- learned -----------------------------------------------------------------------------
def check_learned():
    # (model_type, rows the model indexes positions with, offset): OPTLearnedPositionalEmbedding
    # offset 2; RoBERTa/XLM-R positions from padding_idx + 1; GPT-2 wpe, BERT, Whisper decoder from 0.
    def sizes(cfg):
        mt = cfg["model_type"]
        if mt == "opt":
            return cfg.get("max_position_embeddings", 2048), cfg.get("hidden_size", 768), 2
        if mt in ("roberta", "xlm-roberta"):
            pad = cfg.get("pad_token_id", 1)
            return cfg.get("max_position_embeddings", 512) - pad - 1, cfg.get("hidden_size", 768), pad + 1
        if mt == "gpt2":
            return cfg.get("n_positions", 1024), cfg.get("n_embd", 768), 0
        if mt == "bert":
            return cfg.get("max_position_embeddings", 512), cfg.get("hidden_size", 768), 0
        return cfg.get("max_target_positions", 448), cfg["d_model"], 0  # whisper decoder

    cases = configs_of("opt", "roberta", "xlm-roberta", "gpt2", "bert")
    expect({"opt", "roberta", "xlm-roberta"} <= {c["model_type"] for _, c in cases}, "opt and roberta configs present")
    for path, cfg in cases + configs_of("whisper"):
        name = os.path.basename(path)
        rows, width, offset = sizes(cfg)
        args = ["generate", "learned", "--hf-config", path] if cfg["model_type"] == "whisper" else \
            ["generate", "--hf-config", path]
        got, err = npy(*args)
        expect(got is not None and got.shape == (rows, width), f"{name}: a {rows}x{width} table ({err.strip()})")
        if got is not None:  # initialised N(0, 0.02^2) (initializer_range / init_std): 0.5 % of 0.02 at 300k samples
            expect(abs(float(np.std(got)) - 0.02) < 0.02 * 0.01, f"{name}: init std 0.02 ({np.std(got)})")
        expect("--input" in err, f"{name}: the note says how to pass trained values ({err.strip()})")
        if offset:
            expect(f"t + {offset}" in err, f"{name}: the note gives the offset {offset} ({err.strip()})")
        r = run(*args, "--len", str(rows + 1), "-o", "-", text=True)
        expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "--max-len" in r.stderr,
               f"{name}: no rows past the table ({r.returncode}, {r.stderr.strip()})")


# --- analyses and refusals ---------------------------------------------------------------
def one_line_error(r, *words):
    return r.returncode == 2 and r.stderr.startswith("posenc: error: ") and r.stderr.count("\n") == 1 and \
        all(w in r.stderr for w in words)


def check_commands_and_errors():
    bloom = [p for p, c in configs_of("bloom")][0]
    t5 = [p for p, c in configs_of("t5")][0]
    gpt2 = [p for p, c in configs_of("gpt2")][0]
    for args in (["decay", "--hf-config", bloom], ["similarity", "--hf-config", [p for p, c in configs_of("marian")][0], "--len", "20"],
                 ["check", "--hf-config", bloom, "--len", "40"], ["check", "--hf-config", t5, "--len", "40"],
                 ["similarity", "--hf-config", gpt2, "--len", "30"]):
        r = run(*args, text=True)
        expect(r.returncode == 0, f"{' '.join(args)}: exit 0 ({r.returncode}, {r.stderr.strip()[-300:]})")
    # MPT's shifted form is causal too: decay reads offsets -K..0, where every bias is finite.
    for path, cfg in configs_of("mpt"):
        r = run("decay", "--hf-config", path, "--max-offset", "8", text=True)
        rows = [line.split(",") for line in r.stdout.strip().splitlines()[1:]]
        expect(r.returncode == 0 and len(rows) == 9 and all(int(row[0]) <= 0 for row in rows) and
               all(math.isfinite(float(v)) for row in rows for v in row[1:]),
               f"{os.path.basename(path)}: decay over offsets -8..0, finite ({r.stdout[:200]} {r.stderr.strip()[-200:]})")
    r = run("check", "--hf-config", bloom, "--len", "40", "--format", "json", text=True)
    if r.returncode == 0:
        j = json.loads(r.stdout)
        expect("--hf-config" in json.dumps(j), "check's echo repeats --hf-config")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bias.png")
        open(out, "wb").write(b"keep")
        for args, words in (
                (["generate", "rope", "--hf-config", bloom], ["alibi", "posenc model"]),
                (["generate", "--hf-config", bloom, "rope"], ["alibi", "not rope", "posenc model"]),
                (["generate", "t5", "--hf-config", gpt2], ["learned", "not t5", "posenc model"]),
                (["decay", "sinusoidal", "--hf-config", bloom], ["alibi", "not sinusoidal", "posenc model"]),
                (["generate", "sine", "--hf-config", bloom], ["sine", "--hf-config", "posenc model"]),
                (["generate", "--hf-config", os.path.join(tmp, "nowhere/")], ["--hf-config"]),
                (["generate", "--hf-config", tmp], ["--hf-config", "config.json"]),
                (["generate", "--hf-config", bloom, "--input", bloom], ["--hf-config", "--input"]),
                (["generate", "alibi", "--hf-config", bloom, "--bias-max", "4"], ["--bias-max", "mpt"])):
            r = run(*args, "-o", out, text=True)
            expect(one_line_error(r, *words), f"{' '.join(args)}: one line, exit 2 ({r.returncode}, {r.stderr.strip()})")
            expect(open(out, "rb").read() == b"keep", f"{' '.join(args)}: the existing output is untouched")
        bad = os.path.join(tmp, "config.json")
        for body, words in (({"model_type": "bloom", "n_head": 0}, ["n_head"]),
                            ({"model_type": "t5", "relative_attention_num_buckets": "32"},
                             ["relative_attention_num_buckets"]),
                            ({"model_type": "mpt", "n_heads": 8, "attn_config": {"alibi_bias_max": -1}},
                             ["alibi_bias_max"])):
            json.dump(body, open(bad, "w"))
            r = run("generate", "--hf-config", tmp, "-o", out, text=True)
            expect(one_line_error(r, *words), f"{body}: one line, exit 2 ({r.returncode}, {r.stderr.strip()})")
        # bias.png as the issue writes it: the model decides, a PNG appears.
        r = run("generate", "--hf-config", bloom, "--len", "64", "-o", os.path.join(tmp, "b.png"), text=True)
        expect(r.returncode == 0 and open(os.path.join(tmp, "b.png"), "rb").read(8) == b"\x89PNG\r\n\x1a\n",
               f"generate --hf-config bloom -o b.png ({r.stderr.strip()})")
    # Flags override the model: --heads 4 with BLOOM's variant.
    got, _ = npy("generate", "--hf-config", bloom, "--heads", "4", "--len", "3")
    expect(got is not None and got.shape == (4, 3, 3) and np.array_equal(got[:, 2, 1], bloom_slopes(4).astype(np.float64)),
           "--heads overrides the model's head count, slopes as BLOOM computes them")


check_alibi()
check_t5()
check_sinusoidal()
check_learned()
check_commands_and_errors()
finish()
