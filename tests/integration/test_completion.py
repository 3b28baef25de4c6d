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
expect("--quiet" in bash_complete(["posenc", "model", "--qu"]), "bash: --quiet offered in a command")
cmaps = help_choices(["generate"], "--cmap")  # generate's option, accepted after the scheme too
expect(cmaps and bash_complete(["posenc", "generate", "sinusoidal", "--len", "8", "--cmap", ""]) == cmaps,
       "bash: a value after --len is skipped and --cmap offers the colormaps")
expect(bash_complete(["posenc", "generate", "sinusoidal", "--len", ""]) == [], "bash: no words offered for a number")
files_dir = tempfile.mkdtemp()
open(os.path.join(files_dir, "table.npy"), "w").close()
expect(bash_complete(["posenc", "generate", "--input", "ta"], cwd=files_dir) == ["table.npy"],
       "bash: --input completes file names")
expect(bash_complete(["posenc", "rope", "d"]) == ["diff"], "bash: posenc rope d -> diff")

# Issue 26 item 13: path options and positionals complete file names, a flag takes no value, and a
# comma list completes its items.
open(os.path.join(files_dir, "config.json"), "w").close()
expect(bash_complete(["posenc", "model", "co"], cwd=files_dir) == ["config.json"], "bash: posenc model co -> config.json")
expect(bash_complete(["posenc", "rope", "--hf-config", "co"], cwd=files_dir) == ["config.json"],
       "bash: rope --hf-config co -> config.json")
expect(bash_complete(["posenc", "rope", "engines", "--gguf", "co"], cwd=files_dir) == ["config.json"],
       "bash: rope engines --gguf co -> config.json")
expect(bash_complete(["posenc", "decay", "--log-x", "si"]) == sorted(s for s in schemes if s.startswith("si")),
       "bash: a flag (--log-x) takes no value: the next word is a scheme")
expect(bash_complete(["posenc", "--help", "ro"]) == ["rope"], "bash: --help takes no value")
methods_help = re.search(r"RoPE methods to compare, comma-separated \('' = none\): ([a-z0-9, ]+);",
                         run("extrapolate", "--help", text=True).stdout)
methods = sorted(methods_help.group(1).split(", ")) if methods_help else None
expect(methods and bash_complete(["posenc", "extrapolate", "--methods", ""]) == methods,
       f"bash: --methods <TAB> -> the methods of --help ({methods})")
expect(bash_complete(["posenc", "extrapolate", "--methods", "none,ya"]) == ["none,yarn"],
       "bash: --methods none,ya -> none,yarn")

if shutil.which("fish"):
    def fish_complete(line):
        r = subprocess.run(["fish", "-c", f"source {scripts['fish']}; complete -C '{line}'"], capture_output=True, text=True)
        return sorted(w.split("\t")[0] for w in r.stdout.split("\n") if w)
    expect(fish_complete("posenc ro") == ["rope"], "fish: posenc ro -> rope")
    expect("sinusoidal" in fish_complete("posenc generate si"), "fish: posenc generate si -> sinusoidal")
    expect(fish_complete("posenc rope --convention ") == conventions, "fish: --convention choices")
    os.chdir(files_dir)
    expect("config.json" in fish_complete("posenc model co"), "fish: posenc model co -> config.json")
    expect("config.json" in fish_complete("posenc rope --hf-config co"), "fish: rope --hf-config co -> config.json")
    expect(fish_complete("posenc decay --log-x si") == sorted(s for s in schemes if s.startswith("si")),
           "fish: a flag takes no value")
    expect(fish_complete("posenc extrapolate --methods none,ya") == ["none,yarn"], "fish: --methods none,ya")
else:
    print("fish not installed: fish completion not exercised")
if shutil.which("zsh"):
    r = subprocess.run(["zsh", "-n", scripts["zsh"]], capture_output=True, text=True)
    expect(r.returncode == 0, f"zsh -n accepts the script ({r.stderr.strip()})")
    r = subprocess.run(["zsh", "-c", f"autoload -U compinit; compinit -u -D; source {scripts['zsh']}; "
                        "_posenc_subcommands ''; _posenc_values rope --convention"], capture_output=True, text=True)
    expect("rope" in r.stdout.split() and sorted(r.stdout.split("\n")[1].split()[1:]) == conventions,
           f"zsh: the tables answer ({r.stdout!r} {r.stderr!r})")
    def zsh_complete(words, cwd=None):
        """What _posenc hands to compadd and _files for `words` (the last one is being completed):
        zsh completes only in its line editor, so compadd, compset and _files are stood in for."""
        arr = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
        stubs = ("compdef() { :; }; "
                 "compadd() { local a; for a in \"$@\"; do [[ $a == -S || $a == '' || $a == -- ]] && continue; "
                 "[[ $a == ${PREFIX}* ]] && print -r -- \"$a\"; done }; "
                 "compset() { if [[ $PREFIX == *,* ]]; then IPREFIX=${PREFIX%,*},; PREFIX=${PREFIX##*,}; fi }; "
                 "_files() { local f; for f in ${words[CURRENT]}*(N); do print -r -- \"FILE:$f\"; done }")
        script = f"{stubs}; source {scripts['zsh']}; words=({arr}); CURRENT={len(words)}; PREFIX=${{words[CURRENT]}}; _posenc"
        r = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True, cwd=cwd)
        expect(r.returncode == 0 or r.stdout, f"zsh completion of {words} runs ({r.stderr.strip()})")
        return sorted(w for w in r.stdout.split("\n") if w and w != "-S")
    expect(zsh_complete(["posenc", "ro"]) == ["rope"], "zsh: posenc ro -> rope")
    expect(zsh_complete(["posenc", "rope", "--convention", ""]) == conventions, "zsh: --convention choices")
    expect("FILE:config.json" in zsh_complete(["posenc", "model", "co"], cwd=files_dir), "zsh: posenc model co -> files")
    expect(zsh_complete(["posenc", "rope", "--hf-config", "co"], cwd=files_dir) == ["FILE:config.json"],
           "zsh: rope --hf-config co -> files")
    expect("sinusoidal" in zsh_complete(["posenc", "decay", "--log-x", "si"]), "zsh: a flag takes no value")
    expect(methods and zsh_complete(["posenc", "extrapolate", "--methods", "none,"]) == methods,
           "zsh: --methods none,<TAB> -> the items after the comma")
else:
    print("zsh not installed: zsh completion not exercised")

finish()
