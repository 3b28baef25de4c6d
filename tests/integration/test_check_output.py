"""check -o, the output format of a device, the shift-linear hint for an --input table, and
the exit code of a failed write (issue 15, item 24)."""
import json
import os
import signal
import subprocess
import tempfile

from harness import POSENC, expect, finish, run


def main():
    tmp = tempfile.mkdtemp(prefix="posenc-check-o-")
    # check -o: the report goes to the file (format from the extension), nothing to stdout.
    rep = os.path.join(tmp, "report.json")
    r = run("check", "sinusoidal", "--len", "20", "--dim", "8", "-o", rep, text=True)
    expect(r.returncode == 0 and r.stdout == "" and r.stderr == "", f"-o report.json: {r.returncode} {r.stderr!r}")
    with open(rep) as f:
        j = json.load(f)
    expect(j["all_hold"] is True and j["scheme"] == "sinusoidal", f"report.json: {j}")
    txt = os.path.join(tmp, "report.txt")
    r = run("check", "sinusoidal", "--len", "20", "--dim", "8", "-o", txt, text=True)
    with open(txt) as f:
        expect(r.returncode == 0 and f.read().startswith("posenc check sinusoidal"), "report.txt")
    r = run("check", "sinusoidal", "--len", "20", "--dim", "8", "-o", os.path.join(tmp, "report"), text=True)
    expect(r.returncode == 2 and r.stderr.startswith("posenc: error: -o '") and ".json" in r.stderr,
           f"-o without extension: {r.returncode} {r.stderr!r}")
    # A failing check still writes its report, and exits 1.
    bad = os.path.join(tmp, "bad.txt")
    r = run("check", "sine", "--dim", "2", "--len", "1000", "--identity", "unique", "-o", bad, text=True)
    expect(r.returncode == 1 and os.path.getsize(bad) > 0, f"failing check -o: {r.returncode}")

    # -o /dev/null: a device without an extension takes stdout's default (csv, text report).
    for args in (["generate", "sinusoidal", "--len", "3", "--dim", "2"], ["check", "sinusoidal", "--len", "5"],
                 ["similarity", "sinusoidal", "--len", "4", "--dim", "4"]):
        r = run(*args, "-o", "/dev/null", text=True)
        expect(r.returncode == 0 and r.stderr == "", f"{args[0]} -o /dev/null: {r.returncode} {r.stderr!r}")

    # shift-linear's hint: --len for a scheme, the table's rows for an --input table.
    r = run("check", "learned", "--len", "5", "--dim", "8", "--identity", "shift-linear", text=True)
    expect(r.returncode == 2 and "at least 10 rows (--len 10)" in r.stderr, f"learned hint: {r.stderr!r}")
    small = os.path.join(tmp, "small.csv")
    with open(small, "w") as f:
        f.write("a,b,c,d\n1,2,3,5\n-2,7,1,0.5\n4,-1,9,2\n3,3,-8,1\n")  # 3 independent rows as X
    r = run("check", "--input", small, "--identity", "shift-linear", text=True)
    expect(r.returncode == 2 and "at least 6 rows (the --input table has 4)" in r.stderr and "--len" not in r.stderr,
           f"--input hint: {r.stderr!r}")

    # A reader that goes away with SIGPIPE ignored: an output failure, exit 3 (not 2, usage).
    p = subprocess.Popen([POSENC, "generate", "sinusoidal", "--len", "2000000", "--dim", "64"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
    p.stdout.read(100)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    expect(p.returncode == 3 and err == "posenc: error: cannot write to stdout: Broken pipe\n",
           f"closed pipe: exit {p.returncode} {err!r}")
    r = subprocess.run([POSENC, "check", "sinusoidal", "--len", "5"], stdout=open("/dev/full", "w"),
                       stderr=subprocess.PIPE, text=True)
    expect(r.returncode == 3 and "No space left on device" in r.stderr, f"check > /dev/full: {r.returncode} {r.stderr!r}")
    finish()


main()
