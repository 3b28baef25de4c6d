"""Times posenc against its peers (bench/peers.py) on the works of issue 6.

Whole processes, start-up included; each output is deleted before each run; the best of
BENCH_REPS runs (default 3), of 10 for a work whose first run took under a second (start-up
noise), of one past 30 s: the same rule for posenc and its peer. Peak RSS of posenc comes from
wait4's rusage of the child. Usage: python3 bench.py POSENC [WORK-NAME-SUBSTRING]
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"  # Debian's, where python3-numpy/-pandas/-matplotlib live

# matplotlib's default figure is 640x480 pixels (6.4 x 4.8 in at 100 dpi): the same size for
# posenc, so that the PNGs compared hold the same figure.
SAME_FIGURE = ["--width", "640", "--height", "480"]
LLAMA31 = os.path.join(HERE, "..", "tests", "data", "configs", "llama-3.1-8b.json")


def works(posenc, tmp):
    def o(name):
        return os.path.join(tmp, name)

    peer = [PY, os.path.join(HERE, "peers.py")]
    return [
        ("sinusoidal 131072x1024 f32 -> .npy", 3,
         [[posenc, "generate", "sinusoidal", "--len", "131072", "--dim", "1024", "-o", o("pe.npy")]],
         [peer + ["sin_npy", "131072", "1024", o("pe.npy")]], [o("pe.npy")]),
        ("sinusoidal 8192x512 f32 -> .npy", 8,
         [[posenc, "generate", "sinusoidal", "--len", "8192", "--dim", "512", "-o", o("pe.npy")]],
         [peer + ["sin_npy", "8192", "512", o("pe.npy")]], [o("pe.npy")]),
        ("rope cos+sin 131072x1024 -> .npy", 3,
         [[posenc, "generate", "rope", "--len", "131072", "--dim", "1024", "--table", t, "-o", o(t + ".npy")]
          for t in ("cos", "sin")],
         [peer + ["rope_npy", "131072", "1024", o("cos.npy"), o("sin.npy")]], [o("cos.npy"), o("sin.npy")]),
        ("sinusoidal 8192x512 -> CSV (np.savetxt)", 8,
         [[posenc, "generate", "sinusoidal", "--len", "8192", "--dim", "512", "-o", o("pe.csv")]],
         [peer + ["savetxt_csv", "8192", "512", o("pe.csv")]], [o("pe.csv")]),
        ("sinusoidal 65536x1024 -> CSV (pandas)", 40,
         [[posenc, "generate", "sinusoidal", "--len", "65536", "--dim", "1024", "-o", o("pe.csv")]],
         [peer + ["pandas_csv", "65536", "1024", o("pe.csv")]], [o("pe.csv")]),
        ("heatmap 2048x512 -> PNG", 10,
         [[posenc, "generate", "sinusoidal", "--len", "2048", "--dim", "512", *SAME_FIGURE, "-o", o("pe.png")]],
         [peer + ["heatmap_png", "2048", "512", o("pe.png")]], [o("pe.png")]),
        ("heatmap 16384x1024 -> PNG", 5,
         [[posenc, "generate", "sinusoidal", "--len", "16384", "--dim", "1024", *SAME_FIGURE, "-o", o("pe.png")]],
         [peer + ["heatmap_png", "16384", "1024", o("pe.png")]], [o("pe.png")]),
        ("similarity 4096x512 -> .npy + PNG", 15,
         [[posenc, "similarity", "sinusoidal", "--len", "4096", "--dim", "512", "--metric", "dot", "-o", o("sim" + e)]
          for e in (".npy", ".png")],
         [peer + ["similarity", "4096", "512", o("sim.npy"), o("sim.png")]], [o("sim.npy"), o("sim.png")]),
        ("decay d=4096, 65536 offsets -> CSV", 10,
         [[posenc, "decay", "sinusoidal", "--dim", "4096", "--max-offset", "65535", "-o", o("decay.csv")]],
         [peer + ["decay", "4096", "65536", o("decay.csv")]], [o("decay.csv")]),
        # Issue 26 item 12: rope's q = k = ones curve on sinusoidal's kernel, streamed; no goal set.
        ("26.12 decay rope d=128, 1048576 offsets --no-extras -> CSV", None,
         [[posenc, "decay", "rope", "--dim", "128", "--max-offset", "1048575", "--no-extras", "-o", o("rdecay.csv")]],
         [peer + ["rope_decay", "128", "1048576", o("rdecay.csv")]], [o("rdecay.csv")]),
        ("26.12 decay rope d=128, 262144 offsets + RoFormer bound -> CSV", None,
         [[posenc, "decay", "rope", "--dim", "128", "--max-offset", "262143", "-o", o("rbound.csv")]],
         [peer + ["rope_decay", "128", "262144", o("rbound.csv"), "yes"]], [o("rbound.csv")]),
        # Issue 26 item 12b: every engine's cos/sin cache against transformers' over 131072 positions.
        ("26.12b rope engines Llama 3.1, 131072 positions", 3,
         [[posenc, "rope", "engines", "--hf-config", LLAMA31, "--len", "131072"]],
         [peer + ["rope_engines", LLAMA31, "131072"]], []),
        # Issue 26 item 12b: extrapolate's entropy sums over 2^20 offsets (goal: under 1 s; no ratio set).
        ("26.12b extrapolate Llama 3.1 8192 -> 1048576", None,
         [[posenc, "extrapolate", "--hf-config", LLAMA31, "--train-len", "8192", "--target-len", "1048576"]],
         [peer + ["extrapolate_entropy", LLAMA31, "8192", "1048576"]], []),
        # Issue 15 items 8-10, at sizes numpy can hold (its N x N matrices: 0.5-1.2 GB); no goal set.
        ("15.8 check sinusoidal 8192x64 (5 identities)", None,
         [[posenc, "check", "sinusoidal", "--len", "8192", "--dim", "64"]],
         [peer + ["check_sinusoidal", "8192", "64"]], []),
        ("15.9 t5 8192x8192 -> PNG", None,
         [[posenc, "generate", "t5", "--len", "8192", *SAME_FIGURE, "-o", o("t5.png")]],
         [peer + ["t5_png", "8192", o("t5.png")]], [o("t5.png")]),
        ("15.9 alibi 8 heads 4096x4096 -> PNG", None,
         [[posenc, "generate", "alibi", "--len", "4096", "--heads", "8", *SAME_FIGURE, "-o", o("alibi.png")]],
         [peer + ["alibi_png", "4096", "8", o("alibi.png")]], [o("alibi.png")]),
        ("15.9 similarity sinusoidal 8192, d=128 -> PNG", None,
         [[posenc, "similarity", "sinusoidal", "--len", "8192", "--dim", "128", *SAME_FIGURE, "-o", o("ssim.png")]],
         [peer + ["sinusoidal_similarity_png", "8192", "128", o("ssim.png")]], [o("ssim.png")]),
        ("15.10 similarity learned 12000, d=8 -> PNG", None,
         [[posenc, "similarity", "learned", "--len", "12000", "--max-len", "12000", "--dim", "8", *SAME_FIGURE,
           "-o", o("lsim.png")]],
         [peer + ["learned_similarity_png", "12000", "8", o("lsim.png")]], [o("lsim.png")]),
    ]


def run_once(cmds, outputs):
    """Seconds for the commands one after another, the largest peak RSS (KiB), output bytes."""
    for f in outputs:
        if os.path.exists(f):
            os.remove(f)
    os.sync()  # and wait for write-back already under way, which would take CPU from this run
    seconds, peak = 0.0, 0
    for cmd in cmds:
        start = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        seconds += time.perf_counter() - start
        err = p.stderr.read().decode()
        p.stderr.close()
        code = os.waitstatus_to_exitcode(status)
        if code != 0 and not (code == 1 and "engines" in cmd):  # rope engines: 1 = a row differs
            sys.exit(f"failed: {' '.join(cmd)}\n{err}")
        peak = max(peak, usage.ru_maxrss)
    return seconds, peak, sum(os.path.getsize(f) for f in outputs)


QUICK_RUNS = 10  # runs of a work whose first run took under a second (start-up noise)


def best(cmds, outputs, reps):
    """The fastest of `reps` runs (QUICK_RUNS if the first run was under a second; one run
    past 30 s), the same rule for posenc and its peer."""
    runs = [run_once(cmds, outputs)]
    n = 1 if runs[0][0] > 30 else max(reps, QUICK_RUNS) if runs[0][0] < 1 else reps
    while len(runs) < n:
        runs.append(run_once(cmds, outputs))
    return min(runs, key=lambda r: r[0])


def main():
    posenc = os.path.abspath(sys.argv[1])
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    reps = int(os.environ.get("BENCH_REPS", "3"))
    with tempfile.TemporaryDirectory(prefix="posenc-bench-") as tmp:
        rows = []
        head = f"| work | posenc s | peer s | ratio | goal | posenc peak RSS | posenc / peer bytes |"
        print(head)
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, goal, mine, theirs, outputs in works(posenc, tmp):
            if only and only not in name:
                continue
            t_mine, rss, size_mine = best(mine, outputs, reps)
            t_peer, _, size_peer = best(theirs, outputs, reps)
            ratio = t_peer / t_mine
            mark = "—" if goal is None else f">= {goal}x met" if ratio >= goal else f">= {goal}x NOT met"
            line = (f"| {name} | {t_mine:.3f} | {t_peer:.3f} | {ratio:.1f}x | {mark} | "
                    f"{rss / 1024:.1f} MiB | {size_mine / 1e6:.2f} / {size_peer / 1e6:.2f} MB |")
            print(line, flush=True)
            rows.append(line)
    print(f"\n{os.cpu_count()} cores; best of {reps} runs ({max(reps, QUICK_RUNS)} under a second, one past 30 s); "
          f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
