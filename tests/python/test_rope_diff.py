# posenc.rope_diff against `posenc rope diff --format json` (the same arguments) and numpy.
import os
import subprocess
import warnings

import numpy as np
import pytest

import posenc
from conftest import CONFIGS, SOURCE, cli_error, cli_json, run_cli
from test_posenc import assert_same

LLAMA2 = os.path.join(CONFIGS, "llama-2-7b-chat.json")
QWEN_YARN = os.path.join(CONFIGS, "qwen2.5-7b-yarn.json")
QWEN_GGUF = os.path.join(SOURCE, "..", "shared", "data", "gguf", "generated", "qwen2-yarn.gguf")


def test_rope_diff_is_the_cli():
    d = posenc.rope_diff(hf_config=LLAMA2, convention_a="hf", convention_b="ggml", len=64)
    assert_same(d, cli_json("rope", "diff", "--hf-config", LLAMA2, "--convention-a", "hf", "--convention-b", "ggml",
                            "--len", 64))
    y = posenc.rope_diff(hf_config=LLAMA2, scaling_b="yarn", factor_b=4, len=100, tol=1e-3)
    assert_same(y, cli_json("rope", "diff", "--hf-config", LLAMA2, "--scaling-b", "yarn", "--factor-b", 4, "--len", 100,
                            "--tol", "1e-3"))
    assert y["a"] == "hf" and y["b"] == "hf scaling=yarn factor=4" and y["pass"] is False


def test_rope_diff_linear_factor_against_numpy():
    # Linear scaling (transformers' rope_type "linear") divides every inverse frequency by the
    # factor: relative difference 1 - 1/2 per pair; cos/sin of p·w and p·w/2 (float32 tables).
    d = posenc.rope_diff(dim=8, scaling_b="linear", factor_b=2, len=50)
    p = np.arange(50)[:, None]
    w = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    np.testing.assert_allclose(d["per_pair"]["inv_freq_rel"], [0.5] * 4, rtol=1e-7)
    assert d["cos_max_abs"] == pytest.approx(np.abs(np.cos(p * w) - np.cos(p * w / 2)).max(), abs=1e-6)
    assert d["sin_max_abs"] == pytest.approx(np.abs(np.sin(p * w) - np.sin(p * w / 2)).max(), abs=1e-6)
    assert d["pass"] is False


def test_rope_diff_gguf_side_and_errors():
    with pytest.raises(posenc.Error) as e:
        posenc.rope_diff(dim=64)
    assert str(e.value).startswith("rope diff compares two sides, and nothing differs between them")
    assert cli_error("rope", "diff", "--dim", 64).startswith("rope diff compares two sides, and nothing differs between them")
    with pytest.raises(posenc.Error, match="did you mean 'factor_b'"):
        posenc.rope_diff(dim=64, factr_b=2)
    if not os.path.exists(QWEN_GGUF):
        pytest.skip("../shared/data/gguf is absent")
    g = posenc.rope_diff(hf_config=QWEN_YARN, config_b=QWEN_GGUF)
    assert_same(g, cli_json("rope", "diff", "--hf-config", QWEN_YARN, "--config-b", QWEN_GGUF))
    assert g["b"] == "qwen2-yarn.gguf"


def test_rope_diff_figure_is_the_cli_figure(tmp_path):
    out = tmp_path / "diff.png"
    run_cli("rope", "diff", "--hf-config", LLAMA2, "--convention-b", "ggml", "--len", 512, "-o", out)
    assert posenc.figure("rope_diff", hf_config=LLAMA2, convention_b="ggml", len=512).png() == out.read_bytes()


def test_rope_diff_same_settings_warns_as_the_cli():
    # Both sides hf: nothing can differ. The command warns on stderr; Python gives the same line
    # as a UserWarning (and the comparison, which passes with zero differences).
    exe = os.environ.get("POSENC")
    if not exe:
        pytest.skip("POSENC (the posenc binary) is not set: run through ctest")
    r = subprocess.run([exe, "rope", "diff", "--dim", "8", "--convention-a", "hf", "--convention-b", "hf", "--len", "4",
                        "--format", "json"], capture_output=True, text=True, check=True)
    line = r.stderr.strip().removeprefix("posenc: warning: ")
    assert line.startswith("rope diff: both sides resolve to the same settings")
    with pytest.warns(UserWarning) as w:
        d = posenc.rope_diff(dim=8, convention_a="hf", convention_b="hf", len=4)
    assert [str(x.message) for x in w] == [line]
    assert d["pass"] is True and d["cos_max_abs"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # sides that differ: no warning
        posenc.rope_diff(dim=8, convention_a="hf", convention_b="ggml", len=4)
