"""docs/models.md lists every family of the library's families table (src/models/families.cpp): the
table between its markers is what tools/families/models_table.py writes from that file (run
`tools/families/models_table.py --write` after adding a family). No posenc run."""
import os
import subprocess
import sys

from harness import expect, finish

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "families", "models_table.py")

r = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True)
expect(r.returncode == 0, f"docs/models.md's families table is models_table.py's output ({r.stderr.strip()})")
r = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True)
rows = [line for line in r.stdout.splitlines() if line.startswith("| `")]
expect(r.returncode == 0 and len(rows) >= 49, f"one row per family of families.cpp ({len(rows)} rows)")
expect(any(row.startswith("| `llama` |") for row in rows) and any(row.startswith("| `whisper` |") for row in rows),
       "the first and the last family of families.cpp are rows")
finish()
