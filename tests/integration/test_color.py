"""Terminal conventions (issue 20, item 5): NO_COLOR and --color auto|always|never for the
ANSI preview and the messages, and the progress bar only on a terminal. Terminals are
pseudo-terminals here (os.openpty), so the checks see what a user's terminal would get."""
import os
import select
import subprocess
import time

from harness import POSENC, expect, finish, run

ESC = "\x1b"
PREVIEW = ["generate", "sinusoidal", "--len", "16", "--dim", "8", "--format", "ansi"]
# Long enough for the bar (drawn after a second of work); stopped once it was seen.
LONG = ["generate", "sinusoidal", "--len", "400000000", "--dim", "64", "--format", "csv", "-o", os.devnull]


def env_with(**kv):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    env.update(kv)
    return env


def on_pty_stderr(args, env, until=None, limit=60.0):
    """Runs posenc with stderr on a pseudo-terminal; returns what the terminal received. With
    `until`, stops the program as soon as that text has arrived (or after `limit` seconds)."""
    master, slave = os.openpty()
    p = subprocess.Popen([POSENC, *args], stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    got, end = b"", time.time() + limit
    while time.time() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                chunk = b""
            if not chunk and p.poll() is not None:
                break
            got += chunk
        elif p.poll() is not None:
            break
        if until and until.encode() in got:
            break
    if p.poll() is None:
        p.kill()
    p.wait()
    os.close(master)
    return got.decode("utf-8", "replace")


def main():
    # The preview: coloured unless NO_COLOR (non-empty) or --color never; --color always wins.
    for env, flags, coloured, what in [
        (env_with(), [], True, "auto"),
        (env_with(NO_COLOR="1"), [], False, "NO_COLOR=1"),
        (env_with(NO_COLOR=""), [], True, "NO_COLOR empty (means unset)"),
        (env_with(TERM="dumb"), [], False, "TERM=dumb"),
        (env_with(NO_COLOR="1"), ["--color", "always"], True, "NO_COLOR=1 --color always"),
        (env_with(), ["--color=never"], False, "--color=never"),
        (env_with(), ["--color", "never", "--color", "auto"], True, "the last --color wins"),
    ]:
        r = run(*flags, *PREVIEW, text=True, env=env)
        expect(r.returncode == 0, f"{what}: exit {r.returncode} {r.stderr!r}")
        expect((ESC in r.stdout) == coloured, f"{what}: escape codes {'missing' if coloured else 'present'}")
        if not coloured:
            # The same picture in glyphs: the title, one line per two table rows, the ramp as scale.
            lines = r.stdout.splitlines()
            expect(lines[0].startswith("sinusoidal"), f"{what}: title line {lines[0]!r}")
            expect(all(set(l) <= set(".:-=+*#%@ ") for l in lines[1:-1]), f"{what}: non-glyph in picture")
            strip = [c for c in lines[-1].split(" ")[1]]
            levels = [".:-=+*#%@".find(c) for c in strip]
            expect(levels[0] == 0 and levels[-1] == 8 and levels == sorted(levels), f"{what}: scale {lines[-1]!r}")
    # --color placed before the command, and as the only bad option: one line, exit 2.
    r = run("--color", "never", *PREVIEW, text=True, env=env_with())
    expect(r.returncode == 0 and ESC not in r.stdout, "--color before the command")
    r = run(*PREVIEW, "--color", "sometimes", text=True, env=env_with())
    expect(r.returncode == 2 and r.stderr == "posenc: error: --color: 'sometimes' is not one of auto, always, never\n",
           f"bad --color: {r.returncode} {r.stderr!r}")
    expect(r.stdout == "", "bad --color wrote output")

    # Messages: coloured on a terminal, plain on a pipe, never with NO_COLOR or --color never.
    bad = ["generate", "sinusoidal", "--len", "0"]
    got = on_pty_stderr(bad, env_with())
    expect(got.startswith(ESC + "[1;31mposenc: error:" + ESC + "[0m "), f"terminal: {got!r}")
    got = on_pty_stderr(bad, env_with(NO_COLOR="1"))
    expect(got.startswith("posenc: error: ") and ESC not in got, f"terminal with NO_COLOR: {got!r}")
    got = on_pty_stderr(["--color", "never", *bad], env_with())
    expect(got.startswith("posenc: error: ") and ESC not in got, f"terminal with --color never: {got!r}")
    r = run(*bad, text=True, env=env_with())
    expect(r.stderr.startswith("posenc: error: ") and ESC not in r.stderr, f"pipe: {r.stderr!r}")
    r = run("--color", "always", *bad, text=True, env=env_with())
    expect(r.stderr.startswith(ESC + "[1;31mposenc: error:"), f"pipe with --color always: {r.stderr!r}")
    # --quiet keeps errors, coloured as ever (its filter passes each line whole).
    r = run("--color", "always", "--quiet", *bad, text=True, env=env_with())
    expect(r.stderr.startswith(ESC + "[1;31mposenc: error:" + ESC + "[0m "), f"--quiet --color always: {r.stderr!r}")
    got = on_pty_stderr(["--quiet", *bad], env_with())
    expect(got.startswith(ESC + "[1;31mposenc: error:" + ESC + "[0m "), f"terminal with --quiet: {got!r}")

    # The progress bar: drawn on a terminal, never on a pipe or file.
    got = on_pty_stderr(LONG, env_with(), until="% ")
    expect("\r[" in got and "rows/s" in got, f"no progress bar on a terminal: {got[:200]!r}")
    p = subprocess.Popen([POSENC, *LONG], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env_with())
    time.sleep(3)
    p.kill()
    _, err = p.communicate()
    expect(err == b"", f"progress on a pipe: {err[:200]!r}")
    finish()


main()
