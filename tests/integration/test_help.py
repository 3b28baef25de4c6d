"""Every --help (each command, and each command with each scheme) shows defaults the option
would accept: a numeric default inside the option's stated range ('INT in 0..1073741824
(default: -1)' was a sentinel value shown as if it were the default), and every command
and scheme has help that exits 0."""
import json
import re

from harness import expect, finish, run

commands = [[]]
top = run("--help", text=True)
expect(top.returncode == 0, "posenc --help exits 0")
section = top.stdout.split("Subcommands:", 1)[1]
commands += [[m] for m in re.findall(r"^  (\w+)\s", section, re.M)]
commands += [["rope", "diff"], ["rope", "permutation"]]
schemes = [s["name"] for s in json.loads(run("list", "--format", "json", text=True).stdout)["schemes"]]
expect(len(schemes) >= 10, f"list names the schemes ({len(schemes)})")

integer = re.compile(r"(--[\w-]+) INT in (-?\d+)\.\.(-?\d+) \(default: (-?[\d.]+)\)")
number_range = re.compile(r"(--[\w-]+) NUMBER in (-?[\d.e+-]+)\.\.(-?[\d.e+-]+) \(default: (-?[\d.e+-]+)\)")
number_bound = re.compile(r"(--[\w-]+) NUMBER (>=|>) (-?[\d.e+-]+) \(default: (-?[\d.e+-]+)\)")

helps = 0
for cmd in commands:
    for scheme in [None] + (schemes if cmd and cmd[0] in ("generate", "decay", "similarity", "project", "check") else []):
        args = cmd + ([scheme] if scheme else []) + ["--help"]
        r = run(*args, text=True)
        expect(r.returncode == 0 and r.stdout, f"posenc {' '.join(args)} exits 0 with help")
        helps += 1
        where = f"posenc {' '.join(args)}"
        for opt, lo, hi, default in integer.findall(r.stdout):
            expect(int(lo) <= float(default) <= int(hi), f"{where}: {opt} default {default} outside {lo}..{hi}")
        for opt, lo, hi, default in number_range.findall(r.stdout):
            expect(float(lo) <= float(default) <= float(hi), f"{where}: {opt} default {default} outside {lo}..{hi}")
        for opt, op, bound, default in number_bound.findall(r.stdout):
            ok = float(default) >= float(bound) if op == ">=" else float(default) > float(bound)
            expect(ok, f"{where}: {opt} default {default} not {op} {bound}")

expect(helps > 50, f"help pages read ({helps})")
finish()
