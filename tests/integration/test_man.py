"""Man pages: the build writes posenc.1 and posenc-COMMAND.1 (build/man); `man -l` renders
each, and every option that `posenc COMMAND --help` shows appears in its page (the pages are
written from the same command-line model, so a new option cannot be missing)."""
import os
import re
import shutil
import subprocess

from harness import POSENC, expect, finish, run

man_dir = os.path.join(os.path.dirname(POSENC), "man")
if not shutil.which("man") or not os.path.isdir(man_dir):
    print(f"man or {man_dir} missing: skipped")
    finish()


def render(page):
    env = dict(os.environ, MANWIDTH="120", LANG="C", LC_ALL="C", MANPAGER="cat", PAGER="cat")
    r = subprocess.run(["man", "-l", os.path.join(man_dir, page)], capture_output=True, text=True, env=env)
    expect(r.returncode == 0 and "NAME" in r.stdout, f"man -l {page} renders ({r.stderr.strip()[:200]})")
    return r.stdout


def options_of(args):
    text = run(*args, "--help", text=True).stdout
    return set(re.findall(r"^\s+(?:-\w,)?(--[\w-]+)", text, re.M))


top = run("--help", text=True).stdout
commands = re.findall(r"^  (\w[\w-]*)\s", top.split("Subcommands:", 1)[1], re.M)
root = render("posenc.1")
for name in commands:
    expect(f"posenc-{name}(1)" in root, f"posenc(1) names posenc-{name}(1)")
for opt in options_of([]):
    expect(opt in root, f"posenc(1) shows {opt}")
for name in commands:
    page = render(f"posenc-{name}.1")
    expect("EXIT STATUS" in page, f"posenc-{name}(1) has EXIT STATUS")
    for opt in options_of([name]):
        expect(opt in page, f"posenc-{name}(1) shows {opt}")
    sub_text = run(name, "--help", text=True).stdout
    # The subcommands are the block after "Subcommands:" up to the first blank line (the footer follows).
    block = sub_text.split("Subcommands:", 1)[1].split("\n\n", 1)[0] if "Subcommands:" in sub_text else ""
    subs = re.findall(r"^  (\w[\w-]*)\s", block, re.M)
    for sub in subs:
        expect(f"posenc {name} {sub}" in page, f"posenc-{name}(1) has a section for {sub}")
        for opt in options_of([name, sub]):
            expect(opt in page, f"posenc-{name}(1) shows {opt} of {sub}")
    if "examples" in sub_text:
        expect("EXAMPLES" in page, f"posenc-{name}(1) keeps the examples of --help")

finish()
