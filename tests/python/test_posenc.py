# `import posenc` against the command line (the same arguments, its JSON and .npy) and against
# numpy re-derivations of the formulas; errors; arrays without copies; the GIL released.
import gc
import io
import os
import sys
import threading
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import posenc
from conftest import CONFIGS, cli_error, cli_json, run_cli

LLAMA31 = os.path.join(CONFIGS, "llama-3.1-8b.json")
LLAMA2 = os.path.join(CONFIGS, "llama-2-7b-chat.json")  # a 4096-token context: rope()'s bounds scan is short
# Llama 3.1's rope_scaling (tests/data/configs/llama-3.1-8b.json) as flags: without
# max_position_embeddings rope() skips the min-base scan up to 131072 positions (3 s under ASan).
LLAMA3_FLAGS = dict(dim=128, base=500000.0, scaling="llama3", factor=8.0, original_max_position_embeddings=8192,
                    low_freq_factor=1.0, high_freq_factor=4.0)
LLAMA3_CLI = ["--dim", 128, "--base", 500000, "--scaling", "llama3", "--factor", 8, "--original-max-position-embeddings",
              8192, "--low-freq-factor", 1, "--high-freq-factor", 4]


def numbers(v):
    return isinstance(v, list) and v and all(x is None or (isinstance(x, (int, float)) and not isinstance(x, bool)) for x in v)


def assert_same(got, want, where="$"):
    """The command's JSON `want` as posenc's dict must hold it: the same keys in the same order,
    the same values, numpy arrays for lists of numbers (null: NaN)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), where
        for k in want:
            assert_same(got[k], want[k], f"{where}.{k}")
    elif numbers(want):
        assert isinstance(got, np.ndarray), where
        np.testing.assert_array_equal(got, np.array([np.nan if x is None else x for x in want], dtype=float), err_msg=where)
    elif isinstance(want, list) and want and all(numbers(x) for x in want) and isinstance(got, np.ndarray):
        np.testing.assert_array_equal(got, np.array(want, dtype=float), err_msg=where)  # a matrix
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{where}[{i}]")
    else:
        assert got == want, where


def test_generate_sinusoidal_formula():
    # Vaswani et al. 2017, section 3.5: PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...).
    t = posenc.generate("sinusoidal", len=50, dim=128, dtype="float64")
    p = np.arange(50)[:, None]
    w = 10000.0 ** (-np.arange(0, 128, 2) / 128)
    assert t.shape == (50, 128) and t.dtype == np.float64
    np.testing.assert_allclose(t[:, 0::2], np.sin(p * w), rtol=0, atol=1e-12)
    np.testing.assert_allclose(t[:, 1::2], np.cos(p * w), rtol=0, atol=1e-12)
    t32 = posenc.generate("sinusoidal", len=50, dim=128)
    assert t32.dtype == np.float32
    np.testing.assert_allclose(t32, t, rtol=0, atol=2e-6)  # float32's fast path: within 1e-6 + rounding


def test_generate_matches_cli_npy(tmp_path):
    cases = [
        ("sinusoidal", {"len": 64, "dim": 32, "base": 500.0}, ["--len", 64, "--dim", 32, "--base", 500]),
        ("alibi", {"len": 16, "heads": 4}, ["--len", 16, "--heads", 4]),
        ("rope", {"len": 8, "hf_config": LLAMA31}, ["--len", 8, "--hf-config", LLAMA31]),
    ]
    for scheme, kw, flags in cases:
        out = tmp_path / f"{scheme}.npy"
        run_cli("generate", scheme, *flags, "-o", out)
        want = np.load(out)
        got = posenc.generate(scheme, **kw)
        assert got.shape == want.shape and got.dtype == want.dtype, scheme
        assert np.array_equal(got, want), scheme  # the same library, the same bytes


def test_generate_model_decides():
    # generate(hf_config=) without a scheme: BLOOM uses ALiBi (heads from n_head = 32).
    t = posenc.generate(hf_config=os.path.join(CONFIGS, "models", "bloom-3b.json"), len=4)
    assert t.shape == (32, 4, 4)
    # BLOOM's build_alibi_tensor (transformers modeling_bloom.py): slopes 2^(-8k/H), k = 1..H, times
    # the key position j (softmax-equivalent to -m (i - j)); future keys masked.
    m = 2.0 ** (-8.0 * np.arange(1, 33) / 32)
    j = np.arange(4)
    want = np.where(j[None, :] <= j[:, None], m[:, None, None] * j[None, None, :], -np.inf)
    np.testing.assert_allclose(t, want, rtol=1e-6)


def test_rope_against_cli_and_transformers_formula():
    r = posenc.rope(**LLAMA3_FLAGS)
    assert_same(r, cli_json("rope", *LLAMA3_CLI))
    assert_same(posenc.rope(hf_config=LLAMA2), cli_json("rope", "--hf-config", LLAMA2))
    # transformers' _compute_llama3_parameters (modeling_rope_utils.py), re-derived in float64.
    d, base, factor, lo, hi, old = 128, 500000.0, 8.0, 1.0, 4.0, 8192
    inv = 1.0 / base ** (np.arange(0, d, 2) / d)
    wavelen = 2 * np.pi / inv
    scaled = np.where(wavelen > old / lo, inv / factor, inv)
    smooth = (old / wavelen - lo) / (hi - lo)
    medium = ~(wavelen < old / hi) & ~(wavelen > old / lo)
    scaled = np.where(medium, (1 - smooth) * scaled / factor + smooth * scaled, scaled)
    # transformers computes in float32 (as posenc's hf convention): within a few float32 ulps (6e-8 each).
    np.testing.assert_allclose(r["inv_freq"], scaled, rtol=5e-7)
    np.testing.assert_allclose(r["inv_freq_original"], inv, rtol=5e-7)


def test_rope_engines_and_extrapolate_and_model_match_cli():
    got = posenc.rope_engines(hf_config=LLAMA31, len=64)
    want = cli_json("rope", "engines", "--hf-config", LLAMA31, "--len", 64)
    assert_same(got, want)
    got = posenc.extrapolate(train_len=512, target_len=2048, methods=["none", "yarn"], schemes="alibi", samples=2)
    want = cli_json("extrapolate", "--train-len", 512, "--target-len", 2048, "--methods", "none,yarn", "--schemes",
                    "alibi", "--samples", 2)
    assert_same(got, want)
    got = posenc.model(LLAMA31)
    want = cli_json("model", LLAMA31)
    assert_same(got, want)


def test_errors_are_value_errors_with_the_cli_message():
    assert issubclass(posenc.Error, ValueError)
    with pytest.raises(posenc.Error, match=r"unknown keyword 'bse' for generate sinusoidal, did you mean 'base'\?"):
        posenc.generate("sinusoidal", len=4, bse=10)
    with pytest.raises(posenc.Error, match=r"^dim=0: must be an integer in 1\.\.65536$"):
        posenc.generate("sinusoidal", len=4, dim=0)
    with pytest.raises(posenc.Error, match=r"^len=2\.5: must be an integer"):
        posenc.generate("sinusoidal", len=2.5)
    with pytest.raises(posenc.Error, match=r"^scaling='yran': choose one of: .*, did you mean 'yarn'\?$"):
        posenc.rope(scaling="yran")
    with pytest.raises(posenc.Error, match=r"extrapolate needs train_len="):
        posenc.extrapolate(target_len=10)
    # Errors of the library itself carry the command line's line word for word.
    missing = os.path.join(CONFIGS, "no-such-config.json")
    with pytest.raises(posenc.Error) as e:
        posenc.rope(hf_config=missing)
    assert str(e.value) == cli_error("rope", "--hf-config", missing)
    with pytest.raises(posenc.Error) as e:
        posenc.generate("sinusodial", len=4)
    assert str(e.value) == cli_error("generate", "sinusodial", "--len", "4")
    assert "did you mean 'sinusoidal'?" in str(e.value)


def test_arrays_are_not_copies_and_outlive_their_owner():
    # generate(): numpy allocates the array and the library writes into its buffer (no other
    # buffer of the table's size exists: numpy's allocations are traced by tracemalloc).
    import tracemalloc
    tracemalloc.start()
    t = posenc.generate("sinusoidal", len=1000, dim=64)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert t.flags.owndata and t.base is None and t.flags.c_contiguous and t.flags.writeable
    assert t.nbytes <= peak < 1.5 * t.nbytes
    # The other arrays are the library's buffers, owned by a capsule that outlives the dict.
    s = posenc.similarity("sinusoidal", len=30, dim=16)["data"]
    assert not s.flags.owndata and type(s.base).__name__ == "PyCapsule"
    view = s[10:20]
    expected = view.copy()
    del s
    gc.collect()
    assert np.array_equal(view, expected)  # the capsule keeps the buffer while a view lives
    assert sys.getrefcount(view.base) >= 2


def test_long_calls_release_the_gil():
    # While a long generate runs on one thread, the main thread keeps running Python: with the GIL
    # held it could not take a single step between the call's start and end.
    n = 4000 if os.environ.get("POSENC_SANITIZED") else 30000
    window = {}

    def work():
        window["start"] = time.perf_counter()
        posenc.generate("sinusoidal", len=n, dim=1024, dtype="float64")
        window["end"] = time.perf_counter()

    steps = []
    th = threading.Thread(target=work)
    th.start()
    while th.is_alive():
        steps.append(time.perf_counter())
    th.join()
    start, end = window["start"], window["end"]
    inside = [s for s in steps if start + 0.2 * (end - start) < s < end - 0.2 * (end - start)]
    assert end - start > 0.02, "the call is too short to tell"
    assert len(inside) > 20, (len(inside), end - start)


def test_figures_are_the_cli_figures(tmp_path):
    f = posenc.figure("generate", "sinusoidal", len=50, dim=128)
    png = f.png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and f._repr_png_() == png
    out = tmp_path / "pe.png"
    run_cli("generate", "sinusoidal", "--len", 50, "--dim", 128, "-o", out)
    assert png == out.read_bytes()  # byte for byte what `posenc generate ... -o pe.png` writes
    svg = f._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    f.save(tmp_path / "pe.svg")
    assert (tmp_path / "pe.svg").read_bytes() == svg.encode()
    r = posenc.figure("rope", hf_config=LLAMA2, width=640)
    assert r.size[0] == 640 and r.png()[:4] == b"\x89PNG"
    out = tmp_path / "rope.svg"
    run_cli("rope", "--hf-config", LLAMA2, "--width", 640, "-o", out)
    assert r.svg() == out.read_bytes()
    with pytest.raises(posenc.Error, match="must end in .png or .svg"):
        f.save(tmp_path / "pe.jpg")
    with pytest.raises(posenc.Error, match="choose one of: generate, rope"):
        posenc.figure("genrate")


def test_open_safetensors_and_gguf(tmp_path):
    # A safetensors file written by hand (the format: u64 header length, JSON header, data).
    import json
    import struct
    a = np.arange(6, dtype=np.float32).reshape(2, 3) / 7
    b16 = (np.array([1.0, -2.5, 3.140625], dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)  # exact in bf16
    header = {"a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
              "b": {"dtype": "BF16", "shape": [3], "data_offsets": [24, 30]},
              "__metadata__": {"format": "pt"}}
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", len(h)) + h + a.tobytes() + b16.tobytes())
    with posenc.open(path) as f:
        assert f.keys() == ["a", "b"] and f.metadata() == {"format": "pt"}
        ta, tb = f.get_tensor("a"), f.get_tensor("b")
    assert ta.shape == (2, 3) and ta.dtype == np.float32 and ta.stored_dtype == "F32"
    assert np.array_equal(ta, a) and not ta.flags.writeable
    assert tb.stored_dtype == "BF16" and np.array_equal(tb, [1.0, -2.5, 3.140625])
    with pytest.raises(posenc.Error, match=r"no tensor 'c'"):
        f.get_tensor("c")
    gguf_dir = os.path.join(os.environ.get("POSENC_SOURCE_DIR", "."), "..", "shared", "data", "gguf", "generated")
    files = sorted(p for p in os.listdir(gguf_dir) if p.endswith(".gguf")) if os.path.isdir(gguf_dir) else []
    if files:
        g = posenc.open(os.path.join(gguf_dir, files[0]))
        assert g.format == "gguf" and isinstance(g.metadata(), dict)


def test_open_maps_f32_and_f16_without_copies(tmp_path):
    # A safetensors file whose data section starts at byte 8 + N = 2 (mod 4): F16 'h' is aligned
    # (a view), F32 'u' is not (a copy, said so), F32 'a' is again (a view); U8 'pad' is decoded.
    import json
    import struct
    h16 = np.array([1.0, -2.0, 0.5, 65504.0], dtype=np.float16)
    u = np.array([1.5, 2.25, -3.0], dtype=np.float32)
    a = (np.arange(6, dtype=np.float32) / 7).reshape(2, 3)
    header = {"h": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]},
              "u": {"dtype": "F32", "shape": [3], "data_offsets": [8, 20]},
              "pad": {"dtype": "U8", "shape": [2], "data_offsets": [20, 22]},
              "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [22, 46]}}
    hj = json.dumps(header).encode()
    hj += b" " * ((2 - 8 - len(hj)) % 4)
    data = 8 + len(hj)
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", len(hj)) + hj + h16.tobytes() + u.tobytes() + b"\0\0" + a.tobytes())
    f = posenc.open(path)
    th, tu, ta, tp = (f.get_tensor(n) for n in ("h", "u", "a", "pad"))
    for t, dtype, off, shape in ((th, np.float16, data, (4,)), (ta, np.float32, data + 22, (2, 3))):
        assert t.is_view and t.copy_reason is None and t.dtype == dtype and not t.flags.owndata
        base = t
        while isinstance(base, np.ndarray):
            base = base.base
        assert "posenc.MappedFile" in repr(base)  # the chain ends at the mapping's capsule
        np.testing.assert_array_equal(t, np.memmap(path, dtype=dtype, mode="r", offset=off, shape=shape))
        assert not t.flags.writeable
        with pytest.raises(ValueError):
            t[0] = 1
        with pytest.raises(ValueError):
            t.setflags(write=True)  # numpy refuses: the mapping is read-only
    assert not tu.is_view and tu.dtype == np.float32 and np.array_equal(tu, u)
    assert tu.copy_reason == f"copy: byte {data + 8} of {path} is not a multiple of 4 (the float32's size)"
    assert tp.copy_reason == "copy: U8 decoded to float32" and tp.stored_dtype == "U8" and tp.dtype == np.float32
    # Lifetime: the arrays outlive the checkpoint object, and the file's name.
    del f
    gc.collect()
    os.remove(path)
    assert np.array_equal(ta, a) and np.array_equal(th, h16)
    gguf_dir = os.path.join(os.environ.get("POSENC_SOURCE_DIR", "."), "..", "shared", "data", "gguf", "generated")
    le, be = (os.path.join(gguf_dir, n) for n in ("llama3-rope-freqs.gguf", "llama3-rope-freqs-be.gguf"))
    if not (os.path.exists(le) and os.path.exists(be)):
        pytest.skip("../shared/data/gguf is absent")
    # The same rope_freqs stored in either byte order: views with '<f4' and '>f4', equal values.
    tl, tb = posenc.open(le).get_tensor("rope_freqs.weight"), posenc.open(be).get_tensor("rope_freqs.weight")
    assert tl.is_view and tb.is_view and tl.dtype.str == "<f4" and tb.dtype.str == ">f4"
    assert tl.shape == tb.shape == (64,) and np.array_equal(tl, tb)


def test_similarity_closed_form_and_cli(tmp_path):
    s = posenc.similarity("sinusoidal", len=40, dim=16, dtype="float64")
    out = tmp_path / "s.npy"
    run_cli("similarity", "sinusoidal", "--len", 40, "--dim", 16, "--dtype", "float64", "-o", out)
    assert np.array_equal(s["data"], np.load(out))
    want = cli_json("similarity", "sinusoidal", "--len", 3, "--dim", 16)
    got = posenc.similarity("sinusoidal", len=3, dim=16)
    assert [k for k in want if k != "data"] == [k for k in got if k != "data"]
    # Interleaved sin/cos: PE_i . PE_j = sum_k cos((j - i) w_k) and |PE|^2 = D/2, so the cosine is
    # the mean over the D/2 frequencies of cos((j - i) w_k).
    w = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    delta = np.arange(40)[None, :] - np.arange(40)[:, None]
    np.testing.assert_allclose(s["data"], np.cos(delta[..., None] * w).mean(-1), rtol=0, atol=1e-12)


def test_check_result():
    r = posenc.check("sinusoidal", len=64, dim=32)
    want = cli_json("check", "sinusoidal", "--len", 64, "--dim", 32)
    assert r.holds is True and r.holds == want["all_hold"] and bool(r)
    assert [i["name"] for i in r["identities"]] == [i["name"] for i in want["identities"]]
    for got, exp in zip(r["identities"], want["identities"]):
        assert list(got) == list(exp)
        assert got["holds"] == exp["holds"] and got["tolerance"] == exp["tolerance"] and got["worst"] == exp["worst"]
        assert got["max_error"] == exp["max_error"]  # the same library: the same double, printed round-trip
    assert r.errors == {i["name"]: i["max_error"] for i in want["identities"]}
    assert set(r.tolerances) == set(r.errors)
    with pytest.raises(posenc.Error, match=r"identity='unqiue': choose from: .*did you mean 'unique'\?"):
        posenc.check("sinusoidal", len=8, identity="unqiue")


def test_model_figure_and_report_are_the_cli(tmp_path):
    # The figure of `posenc model PATH -o x.png`, byte for byte, and with --weights-figure; model()
    # holds what the command's JSON holds for a folder with trained tables (the weights' statistics).
    source = os.environ.get("POSENC_SOURCE_DIR", ".")
    opt = os.path.join(source, "tests", "data", "weights", "opt-demo")
    out = tmp_path / "m.png"
    run_cli("model", LLAMA31, "-o", out)
    assert posenc.figure("model", LLAMA31).png() == out.read_bytes()
    out = tmp_path / "w.svg"
    run_cli("model", opt, "--weights-figure", "norm", "--width", 640, "-o", out)
    assert posenc.figure("model", opt, weights_figure="norm", width=640).svg() == out.read_bytes()
    assert_same(posenc.model(opt), cli_json("model", opt))
    with pytest.raises(posenc.Error, match="did you mean 'weights_figure'"):
        posenc.figure("model", opt, weights_figur="norm")
