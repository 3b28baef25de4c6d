"""posenc completion bash|zsh|fish: the scripts complete commands, options and fixed choices
in the real shells. bash is asked through the completion function itself (COMP_WORDS /
COMPREPLY, as readline calls it); fish through `complete -C`; zsh, which completes only in an
interactive line editor, is checked for syntax and for the tables its function reads.
Expected candidates come from posenc's --help text (what a user reads), not from the script."""
import os
import re
import shutil
import subprocess
import tempfile

from harness import expect, finish, run

tmp = tempfile.mkdtemp()
scripts = {}
for shell in ("bash", "zsh", "fish"):
    r = run("completion", shell, text=True)
    expect(r.returncode == 0 and r.stdout, f"completion {shell} exits 0 with a script")
    path = os.path.join(tmp, f"posenc.{shell}")
    with open(path, "w") as f:
        f.write(r.stdout)
    scripts[shell] = path

bad = run("completion", "tcsh", text=True)
expect(bad.returncode == 2 and bad.stderr.count("\n") == 1 and "tcsh" in bad.stderr,
       f"completion tcsh: one line, exit 2 ({bad.stderr!r})")


def help_choices(args, option):
    """The {a,b,c} choices --help shows for `option` of `posenc args`."""
    text = run(*args, "--help", text=True).stdout
    m = re.search(re.escape(option) + r" TEXT:\{([^}]*)\}", text)
    return sorted(m.group(1).split(",")) if m else None


def help_commands(args):
    text = run(*args, "--help", text=True).stdout
    if "Subcommands:" not in text:
        return []
    block = text.split("Subcommands:", 1)[1].split("\n\n", 1)[0]  # the footer follows a blank line
    return re.findall(r"^  (\w[\w-]*)\s", block, re.M)


def bash_complete(words, cwd=None):
    """COMPREPLY for the command line `words` (the last word is the one being completed)."""
    arr = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    script = (f"source {scripts['bash']}; COMP_WORDS=({arr}); COMP_CWORD={len(words) - 1}; "
              f"_posenc; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=cwd)
    expect(r.returncode == 0, f"bash completion of {words} runs ({r.stderr.strip()})")
    return sorted(w for w in r.stdout.split("\n") if w)


commands = help_commands([])
expect("rope" in commands and "completion" in commands, f"--help lists the commands ({commands})")
expect(bash_complete(["posenc", "ro"]) == ["rope"], "bash: posenc ro -> rope")
expect(bash_complete(["posenc", ""]) == sorted(commands), "bash: posenc <TAB> -> every command of --help")
schemes = help_commands(["generate"])
expect(bash_complete(["posenc", "generate", "si"]) == sorted(s for s in schemes if s.startswith("si")),
       "bash: posenc generate si -> the schemes starting with si")
expect("sinusoidal" in bash_complete(["posenc", "generate", "si"]), "bash: sinusoidal offered")
conventions = help_choices(["rope"], "--convention")
expect(conventions and bash_complete(["posenc", "rope", "--convention", ""]) == conventions,
       f"bash: posenc rope --convention <TAB> -> {conventions}")
expect(bash_complete(["posenc", "rope", "--convention", "=", ""]) == conventions, "bash: --convention=<TAB>")
expect(bash_complete(["posenc", "generate", "sinusoidal", "--le"]) == ["--len"], "bash: --le -> --len")
expect("--max-memory" in bash_complete(["posenc", "decay", "--max"]), "bash: --max-memory offered in a command")
cmaps = help_choices(["generate"], "--cmap")  # generate's option, accepted after the scheme too
expect(cmaps and bash_complete(["posenc", "generate", "sinusoidal", "--len", "8", "--cmap", ""]) == cmaps,
       "bash: a value after --len is skipped and --cmap offers the colormaps")
expect(bash_complete(["posenc", "generate", "sinusoidal", "--len", ""]) == [], "bash: no words offered for a number")
files_dir = tempfile.mkdtemp()
open(os.path.join(files_dir, "table.npy"), "w").close()
expect(bash_complete(["posenc", "generate", "--input", "ta"], cwd=files_dir) == ["table.npy"],
       "bash: --input completes file names")
expect(bash_complete(["posenc", "rope", "d"]) == ["diff"], "bash: posenc rope d -> diff")

if shutil.which("fish"):
    def fish_complete(line):
        r = subprocess.run(["fish", "-c", f"source {scripts['fish']}; complete -C '{line}'"], capture_output=True, text=True)
        return sorted(w.split("\t")[0] for w in r.stdout.split("\n") if w)
    expect(fish_complete("posenc ro") == ["rope"], "fish: posenc ro -> rope")
    expect("sinusoidal" in fish_complete("posenc generate si"), "fish: posenc generate si -> sinusoidal")
    expect(fish_complete("posenc rope --convention ") == conventions, "fish: --convention choices")
else:
    print("fish not installed: fish completion not exercised")
if shutil.which("zsh"):
    r = subprocess.run(["zsh", "-n", scripts["zsh"]], capture_output=True, text=True)
    expect(r.returncode == 0, f"zsh -n accepts the script ({r.stderr.strip()})")
    r = subprocess.run(["zsh", "-c", f"autoload -U compinit; compinit -u -D; source {scripts['zsh']}; "
                        "_posenc_subcommands ''; _posenc_values rope --convention"], capture_output=True, text=True)
    expect("rope" in r.stdout.split() and sorted(r.stdout.split("\n")[1].split()[1:]) == conventions,
           f"zsh: the tables answer ({r.stdout!r} {r.stderr!r})")
else:
    print("zsh not installed: zsh completion not exercised")

finish()
