"""--help and docs/cli.md say the same thing (issue 15 item 25: they disagreed on the formats
decay, similarity and project offer, on decay's --dtype, on rope's --rotary-dim range and on
what --max-memory reads): the formats and --dtype of each analysis command, the range and
default of --rotary-dim, and the SIZE forms of --max-memory are read from both and compared,
and every SIZE example the docs give is accepted by the binary."""
import os
import re

from harness import expect, finish, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
docs = open(os.path.join(ROOT, "docs", "cli.md"), encoding="utf-8").read()
FORMATS = {"text", "csv", "json", "npy", "png", "svg", "ansi"}


def section(title):
    """The text of docs/cli.md under the heading `title` up to the next heading."""
    m = re.search(r"^#+ " + re.escape(title) + r"\n(.*?)(?=^#)", docs, re.M | re.S)
    expect(m is not None, f"docs/cli.md has a section '{title}'")
    return m.group(1) if m else ""


def row(text, option):
    """The cells of the table row whose first cell starts with `option` (in backticks)."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].startswith(option):
            return cells
    expect(False, f"docs/cli.md row {option}")
    return ["", "", ""]


def help_text(*args):
    r = run(*args, "--help", text=True)
    expect(r.returncode == 0, f"posenc {' '.join(args)} --help exits 0")
    return r.stdout


for command in ("decay", "similarity", "project"):
    h = help_text(command)
    doc = section(f"posenc {command}")
    m = re.search(r"--format TEXT:\{([a-z,]+)\}", h)
    expect(m is not None, f"{command} --help lists the formats")
    offered = set(m.group(1).split(",")) if m else set()
    documented = set(re.findall(r"`([a-z0-9]+)`", row(doc, "`-o`, `--format`")[2])) & FORMATS
    expect(offered == documented, f"{command}: --help formats {sorted(offered)} == docs {sorted(documented)}")
    m = re.search(r"--dtype TEXT:\{([a-z0-9,]+)\} \(default: (\w+)\)\s+(.*)", h)
    expect(m is not None, f"{command} --help shows --dtype")
    if m:
        cells = row(doc, "`--dtype`")
        expect(cells[1] == f"`{m.group(2)}`", f"{command}: --dtype default {m.group(2)} == docs {cells[1]}")
        choices = set(re.findall(r"`(float\d\d)`", cells[2]))
        expect(choices == set(m.group(1).split(",")), f"{command}: --dtype choices {m.group(1)} == docs {choices}")
        # .npy is named in help and docs alike, or in neither.
        expect(("npy" in m.group(3)) == ("npy" in cells[2]) == ("npy" in offered),
               f"{command}: --dtype help '{m.group(3)}' and docs '{cells[2]}' agree on .npy")

# rope --rotary-dim: the range and default of --help, the docs' "0 … N" and default.
h = help_text("rope")
m = re.search(r"--rotary-dim INT in (\d+)\.\.(\d+) \(default: (\d+)\)", h)
expect(m is not None, "rope --help shows --rotary-dim's range")
cells = row(section("posenc rope"), "`--rotary-dim R`")
d = re.search(r"(\d+) … (\d+)", cells[2])
expect(m is not None and d is not None and (m.group(1), m.group(2)) == d.groups(),
       f"--rotary-dim range: --help {m.groups() if m else None} == docs {d.groups() if d else None}")
expect(m is not None and cells[1] == m.group(3), f"--rotary-dim default: --help {m.group(3) if m else None} == docs {cells[1]}")

# --max-memory: the suffixes named, and every SIZE example of the docs accepted.
h = help_text()
m = re.search(r"--max-memory SIZE\s+(.*)", h)
expect(m is not None, "posenc --help shows --max-memory")
para = re.search(r"`--max-memory SIZE`(.*?)\n\n", docs, re.S).group(1)
suffixes = lambda t: set(re.findall(r"\b([KMGT])\b", t))
expect(m is not None and suffixes(m.group(1)) == suffixes(para) == set("KMGT"),
       f"--max-memory suffixes: --help {suffixes(m.group(1)) if m else None} == docs {suffixes(para)}")
examples = set(re.findall(r"`([0-9][0-9.e]*[KMGT]?)`", para)) | set(re.findall(r"e\.g\. ([0-9][0-9.e]*[KMGT]?)", m.group(1) if m else ""))
expect(len(examples) >= 4, f"--max-memory examples found: {sorted(examples)}")
for size in sorted(examples):
    r = run("--max-memory", size, "generate", "integer", "--len", "2", "--format", "csv", text=True)
    expect(r.returncode == 0, f"--max-memory {size} (documented) is accepted: {r.stderr.strip()}")
r = run("--max-memory", "1e3", "generate", "integer", "--len", "2", "--format", "csv", text=True)
expect(r.returncode == 0 and "`1e3` is 1000 bytes" in para, "--max-memory 1e3: accepted and documented as 1000 bytes")
finish()
