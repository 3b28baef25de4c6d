# posenc.decay, posenc.project and their figures against the command line (the same arguments,
# its JSON and PNG) and against numpy re-derivations of the formulas.
import warnings

import numpy as np
import pytest

import posenc
from conftest import cli_error, cli_json, run_cli
from test_posenc import assert_same


def test_decay_sinusoidal_is_the_cli_and_the_closed_form():
    d = posenc.decay("sinusoidal", dim=64, max_offset=40)
    assert_same(d, cli_json("decay", "sinusoidal", "--dim", 64, "--max-offset", 40))
    # PE_0 . PE_delta = sum_k sin(0)sin(w_k delta) + cos(0)cos(w_k delta), w_k = 10000^(-2k/64)
    # (Vaswani et al. 2017, 3.5); printed as float32.
    delta = np.arange(41)
    w = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    np.testing.assert_array_equal(d["offset"], delta)
    (series,) = d["series"]
    np.testing.assert_allclose(series["values"], np.cos(np.outer(delta, w)).sum(axis=1), rtol=1e-6, atol=1e-5)
    assert d["from"] == 0 and d["metric"] == "dot"


def test_decay_alibi_and_rope_options():
    a = posenc.decay("alibi", heads=4, max_offset=5, symmetric=True, dtype="float64")
    assert_same(a, cli_json("decay", "alibi", "--heads", 4, "--max-offset", 5, "--symmetric", "--dtype", "float64"))
    # Press et al. 2022: head h of n has slope 2^(-8(h+1)/n); bias -m_h |delta|, both directions.
    delta = np.arange(-5, 6)
    assert a["metric"] is None and a["from"] == 5
    for h, s in enumerate(a["series"]):
        np.testing.assert_allclose(s["values"], -(2.0 ** (-8 * (h + 1) / 4)) * np.abs(delta), rtol=0, atol=1e-15)
    r = posenc.decay("rope", dim=32, qk="random", metric="cosine", seed=3, max_offset=20, from_=7)
    assert_same(r, cli_json("decay", "rope", "--dim", 32, "--qk", "random", "--metric", "cosine", "--seed", 3,
                            "--max-offset", 20, "--from", 7))
    assert r["qk"] == {"vectors": "random", "seed": 3} and r["from"] == 7
    with pytest.raises(posenc.Error) as e:
        posenc.decay("alibi", metric="cosine")
    assert str(e.value) == cli_error("decay", "alibi", "--metric", "cosine")
    with pytest.raises(posenc.Error, match="did you mean 'max_offset'"):
        posenc.decay("sinusoidal", max_ofset=3)


def test_project_is_the_cli_and_numpy_pca():
    p = posenc.project("sinusoidal", len=200, dim=64, pca=3, dtype="float64")
    want = cli_json("project", "sinusoidal", "--len", 200, "--dim", 64, "--pca", 3, "--dtype", "float64")
    assert list(p) == list(want) and p["columns"] == ["pc1", "pc2", "pc3"]
    np.testing.assert_array_equal(p["data"], np.array(want["data"]))
    np.testing.assert_array_equal(p["results"]["explained_variance_ratio"], want["results"]["explained_variance_ratio"])
    # numpy: centred rows, SVD; components up to sign.
    pe = posenc.generate("sinusoidal", len=200, dim=64, dtype="float64")
    x = pe - pe.mean(axis=0)
    u, s, vt = np.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose(p["results"]["explained_variance_ratio"], (s**2 / (s**2).sum())[:3], rtol=1e-9)
    ref = x @ vt[:3].T
    for c in range(3):
        sign = np.sign(ref[:, c] @ p["data"][:, c])
        np.testing.assert_allclose(p["data"][:, c], sign * ref[:, c], rtol=0, atol=1e-9)
    q = posenc.project("sinusoidal", len=50, dim=16, dims=[0, 1, 3], dtype="float64")
    np.testing.assert_array_equal(q["data"], posenc.generate("sinusoidal", len=50, dim=16, dtype="float64")[:, [0, 1, 3]])
    np.testing.assert_array_equal(q["params"]["dims"], [0, 1, 3])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        posenc.project("sinusoidal", len=2, dim=8)
    assert [str(x.message) for x in w] == ["the positions vary along 1 direction only (8 columns): pc2 is zero"]
    with pytest.raises(posenc.Error) as e:
        posenc.project("alibi")
    assert str(e.value) == cli_error("project", "alibi")
    with pytest.raises(posenc.Error, match="give either --dims or --pca"):
        posenc.project("sinusoidal", dims=[0, 1], pca=2)


def test_decay_and_project_figures_are_the_cli_figures(tmp_path):
    out = tmp_path / "decay.png"
    run_cli("decay", "sinusoidal", "--dim", 128, "--max-offset", 30, "-o", out)
    assert posenc.figure("decay", "sinusoidal", dim=128, max_offset=30).png() == out.read_bytes()
    out = tmp_path / "loop.svg"
    run_cli("project", "sine", "--dim", 3, "--len", 200, "-o", out)
    assert posenc.figure("project", "sine", dim=3, len=200).svg() == out.read_bytes()


def test_similarity_extrapolate_and_engines_figures_are_the_cli_figures(tmp_path):
    out = tmp_path / "sim.png"
    run_cli("similarity", "sinusoidal", "--len", 60, "--dim", 32, "-o", out)
    assert posenc.figure("similarity", "sinusoidal", len=60, dim=32).png() == out.read_bytes()
    out = tmp_path / "extrapolate.svg"
    run_cli("extrapolate", "--train-len", 2048, "--target-len", 8192, "--schemes", "alibi,t5", "--methods", "linear,yarn",
            "--samples", 4, "--title", "Ten ×", "-o", out)
    f = posenc.figure("extrapolate", train_len=2048, target_len=8192, schemes="alibi,t5", methods=["linear", "yarn"], samples=4,
                      title="Ten ×")
    assert f.svg() == out.read_bytes()
    out = tmp_path / "engines.png"
    run_cli("rope", "engines", "--dim", 64, "--len", 100, "-o", out)
    assert posenc.figure("rope_engines", dim=64, len=100).png() == out.read_bytes()
    with pytest.raises(posenc.Error, match="choose one of: generate, rope, decay, project, similarity"):
        posenc.figure("simlarity")


def test_decay_vary_compare_and_input_are_the_cli(tmp_path):
    # vary=: one curve per base; each the closed form sum_k cos(delta w_k), w_k = base^(-2k/64).
    v = posenc.decay("sinusoidal", dim=64, max_offset=20, vary="base=100,10000")
    assert_same(v, cli_json("decay", "sinusoidal", "--dim", 64, "--max-offset", 20, "--vary", "base=100,10000"))
    assert v["vary"] == "base=100,10000" and [s["name"] for s in v["series"]] == ["base=100: dot", "base=10000: dot"]
    delta = np.arange(21)
    for s, base in zip(v["series"], (100.0, 10000.0)):
        w = base ** (-np.arange(0, 64, 2) / 64)
        np.testing.assert_allclose(s["values"], np.cos(np.outer(delta, w)).sum(axis=1), rtol=1e-6, atol=1e-5)
    # compare=: other schemes' curves, each spec written as after `posenc decay` (a list repeats it).
    c = posenc.decay("sinusoidal", dim=16, max_offset=10, compare=["rope --dim 16 --base 100", "alibi --heads 2"])
    assert_same(c, cli_json("decay", "sinusoidal", "--dim", 16, "--max-offset", 10, "--compare", "rope --dim 16 --base 100",
                            "--compare", "alibi --heads 2"))
    assert c["compare"] == ["rope --dim 16 --base 100", "alibi --heads 2"]
    one = posenc.decay("sinusoidal", dim=16, max_offset=10, compare="alibi --heads=2")
    assert_same(one, cli_json("decay", "sinusoidal", "--dim", 16, "--max-offset", 10, "--compare", "alibi --heads=2"))
    # input=: a table of your own; the dot of row 0 with row delta (numpy).
    table = np.cos(np.outer(np.arange(30), [1.0, 0.5, 0.25]))
    path = tmp_path / "t.npy"
    np.save(path, table)
    i = posenc.decay(input=path, max_offset=6, dtype="float64")
    assert_same(i, cli_json("decay", "--input", path, "--max-offset", 6, "--dtype", "float64"))
    np.testing.assert_allclose(i["series"][0]["values"], table[:7] @ table[0], rtol=1e-15)
    cmp_in = posenc.decay("sinusoidal", dim=4, len=30, max_offset=6, compare=f"--input {path}")
    assert_same(cmp_in, cli_json("decay", "sinusoidal", "--dim", 4, "--len", 30, "--max-offset", 6, "--compare",
                                 f"--input {path}"))
    # The figure of a comparison is the command's, byte for byte.
    out = tmp_path / "c.png"
    run_cli("decay", "sinusoidal", "--dim", 16, "--max-offset", 10, "--vary", "base=100,1000", "--compare",
            "rope --dim 16", "-o", out)
    f = posenc.figure("decay", "sinusoidal", dim=16, max_offset=10, vary="base=100,1000", compare="rope --dim 16")
    assert f.png() == out.read_bytes()


def test_decay_vary_compare_input_errors():
    with pytest.raises(posenc.Error) as e:
        posenc.decay("sinusoidal", vary="bse=1,2")
    assert str(e.value) == cli_error("decay", "sinusoidal", "--vary", "bse=1,2")
    assert "did you mean 'base'" in str(e.value)
    with pytest.raises(posenc.Error, match=r"compare='lerned --dim 8': .*did you mean 'learned'"):
        posenc.decay("sinusoidal", compare="lerned --dim 8")
    with pytest.raises(posenc.Error, match=r"compare='learned --dm 8': 'dm' is not a parameter of learned, did you mean 'dim'"):
        posenc.decay("sinusoidal", compare="learned --dm 8")
    with pytest.raises(posenc.Error, match=r"compare=: a string or a list of strings \(got int\)"):
        posenc.decay("sinusoidal", compare=3)
    with pytest.raises(posenc.Error, match=r"give either a SCHEME or input=, not both"):
        posenc.decay("sinusoidal", input="t.npy")
