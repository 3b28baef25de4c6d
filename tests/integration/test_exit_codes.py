"""The real binary: exit codes, one-line errors, and output files that are
written whole or not at all."""
import os
import tempfile

from harness import expect, finish, run





def main():
    with tempfile.TemporaryDirectory() as tmp:
        keep = os.path.join(tmp, "keep.csv")
        with open(keep, "wb") as f:
            f.write(b"precious\n")
        bad_invocations = [
            ["generate", "integer", "--len", "0", "-o", keep],
            ["generate", "integer", "--len", "abc", "-o", keep],
            ["generate", "integr", "-o", keep],
            ["generate", "integer", "--format", "xlsx", "-o", keep],
            ["generate", "--input", os.path.join(tmp, "missing.npy"), "-o", keep],
            ["generate", "integer", "--bogus", "-o", keep],
            # Analysis options that would otherwise be ignored or contradict each other.
            ["decay", "alibi", "--metric", "cosine", "-o", keep],
            ["decay", "sinusoidal", "--qk", "random", "-o", keep],
            ["decay", "sinusoidal", "--len", "10", "--max-offset", "100", "-o", keep],
            ["decay", "sinusoidal", "--base", "100,1000", "--dim", "8,16", "-o", keep],
            ["decay", "sinusoidal", "--base", "100,1000", "--vary", "dim=8,16", "-o", keep],
            ["generate", "t5", "--causal", "--bidirectional", "-o", keep],
        ]
        for argv in bad_invocations:
            r = run(*argv)
            err = r.stderr.decode()
            expect(r.returncode == 2, f"{argv}: exit {r.returncode}, want 2")
            expect(err.count("\n") == 1 and err.startswith("posenc: error:"), f"{argv}: stderr {err!r}")
            expect(r.stdout == b"", f"{argv}: stdout not empty")
            with open(keep, "rb") as f:
                expect(f.read() == b"precious\n", f"{argv}: existing output changed")
        expect(sorted(os.listdir(tmp)) == ["keep.csv"], f"stray files: {os.listdir(tmp)}")

        # Unwritable folder: exit 2 naming -o.
        r = run("generate", "integer", "-o", os.path.join(tmp, "no", "such", "dir", "x.csv"))
        expect(r.returncode == 2 and b"-o" in r.stderr, f"unwritable path: {r.returncode} {r.stderr!r}")

        # Success replaces the file whole.
        r = run("generate", "integer", "--len", "2", "--dim", "1", "-o", keep)
        expect(r.returncode == 0, f"good run exit {r.returncode}: {r.stderr!r}")
        with open(keep, "rb") as f:
            expect(f.read() == b"position,dim0\n0,0\n1,1\n", "good run content")
        r = run("--help")
        expect(r.returncode == 0 and b"generate" in r.stdout, "--help")
    finish()


if __name__ == "__main__":
    main()
