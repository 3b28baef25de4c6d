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

# Issue 26 item 14. A flag takes no value (CLI11 reports a type size of 1 for flags too): the pages
# printed "-h, --help VALUE" and "--version VALUE".
for page_name in ["posenc.1"] + [f"posenc-{n}.1" for n in commands]:
    text = render(page_name)
    expect(not re.search(r"--(help|version|no-extras|log-x|log-y|symmetric|no-index)\s+VALUE", text),
           f"{page_name}: no flag is shown with a VALUE")
    # the exit codes of docs/cli.md ("Exit codes"): 3 when the output fails while being written
    status = text.split("EXIT STATUS", 1)[1].split("ENVIRONMENT", 1)[0]
    expect(re.search(r"^\s+3\s+the output failed", status, re.M), f"{page_name}: EXIT STATUS names 3")
    expect("rope engines" in " ".join(status.split()), f"{page_name}: exit 1 names rope engines")
    # the installed documentation, not the source tree: docs: docs/X.md becomes /usr/share/doc/posenc/X.md
    expect(not re.search(r"docs: docs/", text), f"{page_name}: no 'docs: docs/...' (a path of the source tree)")
    # NO_COLOR as docs/cli.md says it: a non-empty value, and TERM=dumb alike
    env = " ".join(text.split("ENVIRONMENT", 1)[1].split("SEE ALSO", 1)[0].split())
    expect("NO_COLOR set to a non-empty value" in env and "TERM dumb" in env,
           f"{page_name}: NO_COLOR and TERM=dumb as docs/cli.md words them ({env[:120]!r})")
rope_page = render("posenc-rope.1")
expect("/usr/share/doc/posenc/engines.md" in rope_page, "posenc-rope(1): rope engines' docs at the installed path")
cli_md = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "cli.md")).read()
expect("`NO_COLOR` is set to a non-empty value" in cli_md and "`dumb`" in cli_md,
       "docs/cli.md says the same of NO_COLOR and TERM")

finish()
