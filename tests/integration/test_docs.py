"""The docs show what the tool makes: every local link and image in README.md and
docs/ points at a file that exists, every figure in docs/img is drawn by
scripts/gallery.sh --docs (so it can be redrawn), and every `posenc ...` command
shown under a figure is accepted by the binary (run with -o into a temporary folder)."""
import os
import re
import shlex
import tempfile

from harness import expect, finish, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


pages = [os.path.join(ROOT, "README.md")]
for folder, _, files in os.walk(os.path.join(ROOT, "docs")):
    pages += [os.path.join(folder, f) for f in files if f.endswith(".md")]

# Links and images: [text](target) and <img src="target">, local targets only.
link = re.compile(r'\]\(([^)\s]+)\)|<img src="([^"]+)"')
for page in pages:
    text = open(page, encoding="utf-8").read()
    for m in link.finditer(text):
        target = (m.group(1) or m.group(2)).split("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue
        path = os.path.normpath(os.path.join(os.path.dirname(page), target))
        expect(os.path.exists(path), f"{os.path.relpath(page, ROOT)}: link to missing {target}")

# Every figure in docs/img is an entry of the gallery script (so --docs redraws it).
names = set()
script = open(os.path.join(ROOT, "scripts", "gallery.sh"), encoding="utf-8").read()
names |= set(re.findall(r'^\s*"([\w.-]+)\|', script, re.M))
for line in open(os.path.join(ROOT, "scripts", "gallery_entries.txt"), encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        names.add(line.split("|")[0])
for f in os.listdir(os.path.join(ROOT, "docs", "img")):
    expect(f.endswith(".png") and f[:-4] in names, f"docs/img/{f} is not drawn by scripts/gallery.sh --docs")

# The commands shown under figures (indented "posenc ... -o NAME.png") run.
command = re.compile(r"^(?:    |\$ )posenc (.+ -o (\S+\.png))$", re.M)
with tempfile.TemporaryDirectory() as tmp:
    for page in pages:
        for m in command.finditer(open(page, encoding="utf-8").read()):
            args = shlex.split(m.group(1))
            args[-1] = os.path.join(tmp, os.path.basename(args[-1]))
            r = run(*args, cwd=ROOT)
            expect(r.returncode == 0 and os.path.getsize(args[-1]) > 0,
                   f"{os.path.relpath(page, ROOT)}: 'posenc {m.group(1)}' failed: {r.stderr.decode().strip()}")

finish()
