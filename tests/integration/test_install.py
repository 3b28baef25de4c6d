"""`cmake --install BUILD --prefix P` gives a working posenc, its man pages (rendered by man -l)
and the bash, zsh and fish completion files where those shells look for them."""
import os
import shutil
import subprocess
import tempfile

from harness import POSENC, expect, finish

build = os.path.dirname(POSENC)
if not shutil.which("cmake") or not os.path.exists(os.path.join(build, "cmake_install.cmake")):
    print("no cmake or no cmake_install.cmake beside the binary: skipped")
    finish()

prefix = tempfile.mkdtemp()
r = subprocess.run(["cmake", "--install", build, "--prefix", prefix], capture_output=True, text=True)
expect(r.returncode == 0, f"cmake --install exits 0 ({r.stderr.strip()[:300]})")
posenc = os.path.join(prefix, "bin", "posenc")
r = subprocess.run([posenc, "generate", "sinusoidal", "--len", "2", "--dim", "2"], capture_output=True, text=True)
expect(r.returncode == 0 and r.stdout.splitlines()[1] == "0,0,1", f"installed posenc runs ({r.stdout!r})")
man1 = os.path.join(prefix, "share", "man", "man1")
for page in ("posenc.1", "posenc-rope.1", "posenc-generate.1", "posenc-completion.1"):
    path = os.path.join(man1, page)
    expect(os.path.exists(path), f"{page} installed")
    if shutil.which("man") and os.path.exists(path):
        env = dict(os.environ, LANG="C", LC_ALL="C", MANPAGER="cat", PAGER="cat")
        m = subprocess.run(["man", "-l", path], capture_output=True, text=True, env=env)
        expect(m.returncode == 0 and "SYNOPSIS" in m.stdout, f"man -l {page} renders")
for rel in ("share/bash-completion/completions/posenc", "share/zsh/vendor-completions/_posenc",
            "share/fish/vendor_completions.d/posenc.fish", "share/doc/posenc/README.md", "share/doc/posenc/cli.md"):
    expect(os.path.exists(os.path.join(prefix, rel)), f"{rel} installed")
bash_file = os.path.join(prefix, "share/bash-completion/completions/posenc")
if os.path.exists(bash_file):
    r = subprocess.run(["bash", "-c", f"source {bash_file}; COMP_WORDS=(posenc ro); COMP_CWORD=1; _posenc; echo ${{COMPREPLY[@]}}"],
                       capture_output=True, text=True)
    expect(r.stdout.strip() == "rope", f"installed bash completion completes 'posenc ro' ({r.stdout!r})")
shutil.rmtree(prefix)
finish()
