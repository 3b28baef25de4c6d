# pytest for `import posenc` (python/), run by ctest (python/CMakeLists.txt) with PYTHONPATH at
# the build's python/ folder and POSENC naming the command line built beside it.
import json
import os
import subprocess

import pytest

SOURCE = os.environ.get("POSENC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CONFIGS = os.path.join(SOURCE, "tests", "data", "configs")


def run_cli(*args, binary=False):
    """Runs the command line; returns its stdout (bytes or text)."""
    exe = os.environ.get("POSENC")
    if not exe:
        pytest.skip("POSENC (the posenc binary) is not set: run through ctest")
    r = subprocess.run([exe, *map(str, args)], capture_output=True, check=False)
    if r.returncode not in (0, 1):
        raise AssertionError(f"posenc {' '.join(map(str, args))}: exit {r.returncode}: {r.stderr.decode()}")
    return r.stdout if binary else r.stdout.decode()


def cli_json(*args):
    return json.loads(run_cli(*args, "--format", "json"))


def cli_error(*args):
    """The one line the command line prints for a refused command (without 'posenc: error: ')."""
    exe = os.environ["POSENC"]
    r = subprocess.run([exe, *map(str, args)], capture_output=True, text=True, check=False)
    assert r.returncode == 2, r
    line = r.stderr.strip().splitlines()[-1]
    return line.removeprefix("posenc: error: ")
