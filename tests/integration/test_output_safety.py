"""Output files are whole or absent: SIGINT/SIGTERM during a long write and a full disk
(`ulimit -f`) leave no temporary file and the old output byte-identical."""
import glob
import os
import resource
import signal
import subprocess
import tempfile
import time

from harness import POSENC, expect, finish

OLD = b"position,dim0\nold,contents\n"



def interrupted(tmp, sig, name):
    out = os.path.join(tmp, name)
    with open(out, "wb") as f:
        f.write(OLD)
    # About 60 GB of CSV: it is still writing when the signal comes.
    def default_signals():  # a background ctest may pass SIGINT/SIGHUP ignored; posenc keeps SIG_IGN
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_DFL)

    p = subprocess.Popen([POSENC, "generate", "sinusoidal", "--len", "100000000", "--dim", "64", "-o", out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals)
    pattern = os.path.join(tmp, f".{name}.*.tmp")
    deadline = time.time() + 30
    while time.time() < deadline and not glob.glob(pattern) and p.poll() is None:
        time.sleep(0.02)
    expect(bool(glob.glob(pattern)), f"{name}: no temporary file {pattern} while writing")
    time.sleep(0.3)
    p.send_signal(sig)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        expect(False, f"{name}: still running 30 s after signal {sig}")
    expect(p.returncode == -sig, f"{name}: exit {p.returncode}, want death by signal {sig}")
    expect(glob.glob(pattern) == [], f"{name}: temporary file left: {glob.glob(pattern)}")
    with open(out, "rb") as f:
        expect(f.read() == OLD, f"{name}: old output changed")


def full_disk(tmp, name, fmt_args):
    out = os.path.join(tmp, name)
    with open(out, "wb") as f:
        f.write(OLD)

    def limit():  # ulimit -f 1024 (1 MiB): writes past it fail with EFBIG, posenc ignores SIGXFSZ
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    r = subprocess.run([POSENC, "generate", "sinusoidal", "--len", "20000", "--dim", "64", "-o", out, *fmt_args],
                       capture_output=True, preexec_fn=limit, timeout=120)
    err = r.stderr.decode()
    expect(r.returncode == 2, f"{name}: exit {r.returncode}, want 2 ({err!r})")
    expect(err.count("\n") == 1 and "cannot write" in err and name in err, f"{name}: stderr {err!r}")
    expect(glob.glob(os.path.join(tmp, f".{name}.*")) == [], f"{name}: temporary file left")
    with open(out, "rb") as f:
        expect(f.read() == OLD, f"{name}: old output changed")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        interrupted(tmp, signal.SIGTERM, "term.csv")
        interrupted(tmp, signal.SIGINT, "int.csv")
        interrupted(tmp, signal.SIGHUP, "hup.csv")
        full_disk(tmp, "full.csv", [])
        full_disk(tmp, "full.npy", [])
        full_disk(tmp, "full.json", [])
        expect(sorted(os.listdir(tmp)) == ["full.csv", "full.json", "full.npy", "hup.csv", "int.csv", "term.csv"],
               f"stray files: {sorted(os.listdir(tmp))}")
    finish()


if __name__ == "__main__":
    main()
