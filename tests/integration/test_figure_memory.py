"""Figures stream the rows of a similarity matrix into the reducer whatever the memory limit
(issue 15, item 10): `similarity learned --len 30000 -o s.png` held all N² values (7 GB).
Here the address space is capped at 256 MiB (RLIMIT_AS) while --max-memory allows far more:
holding the 6500² doubles (322 MiB) cannot fit, streaming them can. The picture is
compared with the one drawn when the rows are streamed because of a low --max-memory.
Under AddressSanitizer (which reserves terabytes of shadow address space, so RLIMIT_AS cannot
apply) the cap is ASan's own: at most 256 MiB mapped by the program (mmap_limit_mb), with ASan's
quarantine of freed blocks kept to 16 MiB (its default 256 MiB alone would fill the cap)."""
import os
import subprocess
import tempfile

from harness import POSENC, expect, finish, memory_capped

ARGS = ["similarity", "learned", "--len", "6500", "--max-len", "6500", "--dim", "8", "--threads", "2"]


def main():
    tmp = tempfile.mkdtemp(prefix="posenc-figmem-")
    capped, low = os.path.join(tmp, "capped.png"), os.path.join(tmp, "low.png")

    pre, env = memory_capped(256)
    r = subprocess.run([POSENC, *ARGS, "--max-memory", "64G", "-o", capped], capture_output=True, text=True,
                       preexec_fn=pre, env=env, timeout=600)
    expect(r.returncode == 0 and r.stderr == "", f"capped address space: exit {r.returncode} {r.stderr!r}")
    r = subprocess.run([POSENC, *ARGS, "--max-memory", "16M", "-o", low], capture_output=True, text=True, timeout=600)
    expect(r.returncode == 0, f"--max-memory 16M: exit {r.returncode} {r.stderr!r}")
    if os.path.exists(capped) and os.path.exists(low):
        with open(capped, "rb") as a, open(low, "rb") as b:
            expect(a.read() == b.read(), "the streamed figures differ")
    finish()


main()
