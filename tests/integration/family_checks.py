"""What the family tests (test_hybrid_families.py, test_rope_families.py) share: the real configs of
tests/data/configs/families, minimal configs written to a temporary folder, posenc's model and rope
reports as JSON, and transformers' default inverse frequencies re-derived in numpy (at decba1d2)."""
import json
import os
import tempfile

import numpy as np

from harness import expect, run

FAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs", "families")


def family(name):
    """(path, parsed config) of tests/data/configs/families/NAME."""
    path = os.path.join(FAM, name)
    with open(path) as f:
        return path, json.load(f)


def config_writer(prefix):
    """write(name, cfg): cfg as JSON in a temporary folder of its own (`prefix`...), its path returned."""
    tmp = tempfile.mkdtemp(prefix=prefix)

    def write(name, cfg):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            json.dump(cfg, f)
        return path
    return write


def default_inv_freq(base, dim):
    """compute_default_rope_parameters, in torch's float32 as transformers runs it:
    1 / base ** (arange(0, dim, 2) / dim)."""
    exps = np.arange(0, dim, 2, dtype=np.int64).astype(np.float32) / np.float32(dim)
    return (np.float32(1.0) / (np.float32(base) ** exps)).astype(np.float64)


def close(got, want, rtol=2e-7):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    return got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=0)


def model(path):
    """posenc model PATH --format json, parsed (None, counted as a failure, when it does not exit 0)."""
    r = run("model", path, "--format", "json", text=True)
    expect(r.returncode == 0, f"{os.path.basename(path)}: posenc model exits 0 ({r.stderr.strip()[:300]})")
    return json.loads(r.stdout) if r.returncode == 0 else None


def rope_json(*args):
    """(posenc rope ARGS --format json parsed, or {} when it does not exit 0; the completed process)."""
    r = run("rope", *args, "--format", "json", text=True)
    return (json.loads(r.stdout) if r.returncode == 0 else {}), r


def by_kind(report, kind):
    return [m for m in report["mechanisms"] if m["kind"] == kind]


def ropes(report):
    """The report's ropes by layer type."""
    return {m["layer_type"]: m for m in by_kind(report, "rope")}


def every_layer_once(name, report):
    """Every layer has exactly one mechanism of the per-layer kinds."""
    seen = {}
    for m in report["mechanisms"]:
        if m["kind"] in ("rope", "nope", "mixer", "none"):
            for i in m["layers"] or range(report["num_layers"] or 0):
                seen[i] = seen.get(i, 0) + 1
    n = report["num_layers"]
    expect(n and sorted(seen) == list(range(n)) and set(seen.values()) == {1},
           f"{name}: each of the {n} layers has exactly one mechanism ({sorted(k for k, v in seen.items() if v != 1)[:8]})")
