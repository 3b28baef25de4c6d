"""`decay rope` as CSV is computed and written in parts of 65536 offsets (issue 26 item 12):
`--max-offset 16777216` held the whole curve (402 MB) before writing a line. Here the address
space is capped at 256 MiB (RLIMIT_AS) for 16777216 offsets, whose offsets and values alone
take 268 MB when held; the streamed values across the part boundaries equal the JSON's (one
piece) to the bit and numpy's 2 sum_i cos(delta theta_i) and 2 sum_j |S_j| (RoFormer's bound
on |q.k|). Under AddressSanitizer the cap is ASan's own mmap_limit_mb (as test_figure_memory)."""
import io
import json
import os
import subprocess

import numpy as np

from harness import POSENC, expect, finish, memory_capped, run


def main():
    # Correctness across the part boundaries 65536 and 131072.
    args = ["decay", "rope", "--dim", "128", "--precision", "f64", "--max-offset", "140000", "--dtype", "float64"]
    csv = run(*args, "--format", "csv", text=True)
    js = run(*args, "--format", "json", text=True)
    expect(csv.returncode == 0 and js.returncode == 0, f"decay rope: {csv.stderr} {js.stderr}")
    if csv.returncode == 0 and js.returncode == 0:
        table = np.loadtxt(io.StringIO(csv.stdout), delimiter=",", skiprows=1)
        j = json.loads(js.stdout)
        expect(csv.stdout.splitlines()[0] == "offset,roformer bound on |q.k|,q=k=ones", csv.stdout.splitlines()[0])
        expect(table.shape == (140001, 3), f"shape {table.shape}")
        expect(np.array_equal(table[:, 0], np.arange(140001)), "offsets 0..140000 in order")
        for col, series in ((1, 0), (2, 1)):
            expect(np.array_equal(table[:, col], np.array(j["series"][series]["values"])),
                   f"streamed CSV column {col} differs from the JSON")
        at = np.array([0, 1, 65535, 65536, 65537, 131071, 131072, 140000])
        theta = 10000.0 ** (-np.arange(64) / 64)
        angle = np.outer(at, theta)
        ones = 2 * np.cos(angle).sum(axis=1)
        bound = 2 * np.abs(np.cumsum(np.exp(1j * angle), axis=1)).sum(axis=1)
        expect(np.allclose(table[at, 2], ones, rtol=0, atol=1e-9), f"q=k=ones {table[at, 2]} vs {ones}")
        expect(np.allclose(table[at, 1], bound, rtol=0, atol=1e-8), f"bound {table[at, 1]} vs {bound}")

    # 16777216 offsets under a 256 MiB address space.
    pre, env = memory_capped(256)
    p = subprocess.Popen([POSENC, "decay", "rope", "--dim", "128", "--max-offset", "16777215", "--no-extras",
                          "--threads", "2", "-o", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=pre, env=env)
    lines, tail = 0, b""
    while True:  # counted as it comes: the 300 MB of text are not kept here either
        block = p.stdout.read(1 << 20)
        if not block:
            break
        lines += block.count(b"\n")
        tail = (tail + block)[-200:]
    err = p.stderr.read()
    code = p.wait(timeout=900)
    expect(code == 0 and err == b"", f"capped address space: exit {code} {err!r}")
    expect(lines == 16777217, f"{lines} lines, not the header and 16777216 offsets")
    last = (tail.decode().strip().splitlines() or [""])[-1]
    want = 2 * np.cos(16777215 * 10000.0 ** (-np.arange(64) / 64)).sum()
    expect(last.startswith("16777215,") and abs(float(last.split(",")[1]) - want) < 1e-4 * 128,
           f"last row {last!r}, 2 sum cos = {want}")
    finish()


main()
