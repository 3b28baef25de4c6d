"""What the integration tests share: the binary under test (argv[1]), running it, and
counting checks. Each test script calls expect() per check and ends with finish()."""
import os
import subprocess
import sys

POSENC = os.path.abspath(sys.argv[1])
failures = []
_passed = 0


def run(*args, text=False, env=None, cwd=None):
    """Runs posenc with `args`, capturing stdout and stderr (str with text=True)."""
    return subprocess.run([POSENC, *args], capture_output=True, text=text, env=env, cwd=cwd)


def expect(cond, what):
    """Counts a check; a failing one is printed at once and remembered."""
    global _passed
    if cond:
        _passed += 1
    else:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def finish():
    """Prints the counts and exits 1 when any check failed."""
    print(f"{_passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


def run_npy(*args):
    """Runs posenc with `args` and `--format npy -o -`: (the array, stderr) on success, else
    (None, stderr)."""
    import io

    import numpy as np

    r = run(*args, "--format", "npy", "-o", "-")
    if r.returncode != 0:
        return None, r.stderr.decode()
    return np.load(io.BytesIO(r.stdout)), r.stderr.decode()


def memory_capped(megabytes):
    """(preexec_fn, env) that run posenc under an address-space cap of `megabytes`: RLIMIT_AS for a
    plain build, ASan's own mmap limit (with a small quarantine) for a sanitized one, which cannot
    reserve its shadow memory under RLIMIT_AS."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    with open(POSENC, "rb") as f:
        sanitized = b"__asan_init" in f.read()
    env = dict(os.environ)
    if not sanitized:
        return cap, env
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + f":mmap_limit_mb={megabytes}:quarantine_size_mb=16"
    return None, env
