# `cmake --install` puts the module into Python's module folder under the prefix; a fresh
# interpreter imports it from there (no PYTHONPATH into the build) and answers.
import glob
import os
import subprocess
import sys

import pytest

from conftest import CONFIGS


def test_installed_module_imports_in_a_fresh_interpreter(tmp_path):
    build = os.environ.get("POSENC_BUILD_DIR")
    if not build:
        pytest.skip("POSENC_BUILD_DIR is not set: run through ctest")
    prefix = tmp_path / "prefix"
    # cmake itself without the sanitizer build's preloaded ASan runtime (it hangs under it).
    plain = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
    subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], check=True, capture_output=True, env=plain,
                   timeout=120)
    found = glob.glob(str(prefix / "lib" / "python3*" / "*-packages" / "posenc" / "__init__.py"))
    assert len(found) == 1, sorted(glob.glob(str(prefix / "**"), recursive=True))
    site = os.path.dirname(os.path.dirname(found[0]))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = site
    code = ("import posenc, sys; assert posenc.__file__.startswith(sys.argv[2]), posenc.__file__; "
            "print(posenc.rope(hf_config=sys.argv[1])['inv_freq'][:4])")
    r = subprocess.run([sys.executable, "-c", code, os.path.join(CONFIGS, "llama-2-7b-chat.json"), site], env=env,
                       capture_output=True, text=True, check=False, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("[1.") and len(r.stdout.split()) == 4, r.stdout
