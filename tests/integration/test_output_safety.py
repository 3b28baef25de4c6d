"""Output files are whole or absent: SIGINT/SIGTERM during a long write and a full disk
(`ulimit -f`) leave no temporary file and the old output byte-identical."""
import glob
import os
import resource
import signal
import subprocess
import stat
import tempfile
import threading
import time

from harness import POSENC, expect, finish, run

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
    expect(r.returncode == 3, f"{name}: exit {r.returncode}, want 3 (output failed) ({err!r})")
    expect(err.count("\n") == 1 and "cannot write" in err and name in err, f"{name}: stderr {err!r}")
    expect(glob.glob(os.path.join(tmp, f".{name}.*")) == [], f"{name}: temporary file left")
    with open(out, "rb") as f:
        expect(f.read() == OLD, f"{name}: old output changed")


def full_disk_stops_early(tmp):
    """A write past `ulimit -f` stops the run at once: about 60 GB of CSV to compute, 1 MiB allowed."""
    out = os.path.join(tmp, "early.csv")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    start = time.time()
    try:
        r = subprocess.run([POSENC, "generate", "sinusoidal", "--len", "100000000", "--dim", "64", "-o", out],
                           capture_output=True, preexec_fn=limit, timeout=60)
    except subprocess.TimeoutExpired:
        expect(False, "early.csv: still computing 60 s after the disk was full")
        return
    took = time.time() - start
    err = r.stderr.decode()
    expect(r.returncode == 3 and "-o '" in err and "File too large" in err, f"early.csv: exit {r.returncode} {err!r}")
    expect(took < 15, f"early.csv: took {took:.1f} s after the disk was full")
    expect(not os.path.exists(out) and glob.glob(os.path.join(tmp, ".early.csv.*")) == [], "early.csv: files left")


STDOUT_RUNS = [
    ["generate", "sinusoidal", "--len", "100000", "--dim", "64", "--format", "csv"],
    ["generate", "integer", "--len", "3"],
    ["list"],
    ["list", "--format", "json"],
    ["--help"],
    ["generate", "--help"],
    ["rope", "--dim", "64"],
    ["check", "sinusoidal", "--len", "16", "--dim", "8"],
]


def stdout_full():
    """Every write to stdout is checked: > /dev/full is an error, never exit 0."""
    for args in STDOUT_RUNS:
        with open("/dev/full", "wb") as full:  # redirection only: posenc never opens the device
            r = subprocess.run([POSENC, *args], stdout=full, stderr=subprocess.PIPE, timeout=60)
        err = r.stderr.decode()
        expect(r.returncode == 3 and err == "posenc: error: cannot write to stdout: No space left on device\n",
               f"{args} > /dev/full: exit {r.returncode} {err!r}")


def closed_pipe():
    """With SIGPIPE ignored, a reader that goes away (`| head`) stops the run at once with a message."""
    def ignore_pipe():
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    start = time.time()
    p = subprocess.Popen([POSENC, "generate", "sinusoidal", "--len", "100000000", "--dim", "64", "--format", "csv"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ignore_pipe)
    p.stdout.read(100)
    p.stdout.close()
    try:
        err = p.stderr.read().decode()
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        err = ""
    expect(p.returncode == 3 and err == "posenc: error: cannot write to stdout: Broken pipe\n",
           f"closed pipe: exit {p.returncode} {err!r}")
    expect(time.time() - start < 15, "closed pipe: did not stop at once")


def special_files(tmp):
    """-o through a symbolic link replaces the target and keeps the link; a FIFO and
    /dev/stdout are written straight through, never replaced by a regular file."""
    real = os.path.join(tmp, "real.csv")
    link = os.path.join(tmp, "link.csv")
    with open(real, "wb") as f:
        f.write(OLD)
    os.symlink("real.csv", link)
    r = run("generate", "integer", "--len", "2", "--dim", "1", "-o", link)
    expect(r.returncode == 0 and os.path.islink(link) and os.readlink(link) == "real.csv", "link: not kept")
    with open(real, "rb") as f:
        expect(f.read() == b"position,dim0\n0,0\n1,1\n", "link: target not replaced")
    os.unlink(link)
    os.unlink(real)

    fifo = os.path.join(tmp, "fifo.csv")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    r = run("generate", "integer", "--len", "2", "--dim", "1", "-o", fifo)
    reader.join(timeout=30)
    expect(r.returncode == 0 and got == [b"position,dim0\n0,0\n1,1\n"], f"fifo: exit {r.returncode} {got!r}")
    expect(stat.S_ISFIFO(os.lstat(fifo).st_mode), "fifo: replaced by a regular file")
    os.unlink(fifo)

    r = run("generate", "integer", "--len", "2", "--dim", "1", "--format", "csv", "-o", "/dev/stdout")
    expect(r.returncode == 0 and r.stdout == b"position,dim0\n0,0\n1,1\n", f"/dev/stdout: {r!r}")
    long_name = os.path.join(tmp, "n" * 246 + ".csv")  # 250 bytes: valid, its temporary name must be too
    r = run("generate", "integer", "--len", "2", "--dim", "1", "-o", long_name)
    expect(r.returncode == 0 and os.path.getsize(long_name) > 0, f"long name: {r.stderr!r}")
    os.unlink(long_name)
    rfd, wfd = os.pipe()  # like bash's >(cat): /dev/fd/N
    r = subprocess.run([POSENC, "generate", "integer", "--len", "2", "--dim", "1", "--format", "csv",
                        "-o", f"/dev/fd/{wfd}"], pass_fds=[wfd], capture_output=True)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as f:
        expect(r.returncode == 0 and f.read() == b"position,dim0\n0,0\n1,1\n", f"/dev/fd: {r!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        interrupted(tmp, signal.SIGTERM, "term.csv")
        interrupted(tmp, signal.SIGINT, "int.csv")
        interrupted(tmp, signal.SIGHUP, "hup.csv")
        full_disk(tmp, "full.csv", [])
        full_disk(tmp, "full.npy", [])
        full_disk(tmp, "full.json", [])
        full_disk_stops_early(tmp)
        stdout_full()
        closed_pipe()
        special_files(tmp)
        expect(sorted(os.listdir(tmp)) == ["full.csv", "full.json", "full.npy", "hup.csv", "int.csv", "term.csv"],
               f"stray files: {sorted(os.listdir(tmp))}")
    finish()


if __name__ == "__main__":
    main()
