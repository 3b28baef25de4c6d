"""`cmake --install BUILD --prefix P` gives a working posenc, its man pages (rendered by man -l)
and the bash, zsh and fish completion files where those shells look for them."""
import os
import re
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


def deb_depends_cover_needed():
    """Every shared library posenc needs (its ELF NEEDED entries; the sanitizer runtimes of a
    test build aside) belongs to a Debian package the .deb depends on (CPackConfig.cmake)."""
    config = os.path.join(build, "CPackConfig.cmake")
    if not shutil.which("dpkg") or not shutil.which("readelf") or not os.path.exists(config):
        print("no dpkg, readelf or CPackConfig.cmake: .deb dependencies not checked")
        return
    line = next(l for l in open(config) if l.startswith("set(CPACK_DEBIAN_PACKAGE_DEPENDS "))
    depends = {d.split()[0] for d in line.split('"')[1].split(",")}
    needed = [l.split("[")[1].rstrip("]\n") for l in subprocess.run(["readelf", "-d", POSENC], capture_output=True,
                                                                      text=True).stdout.splitlines() if "(NEEDED)" in l]
    where = {}
    for l in subprocess.run(["ldd", POSENC], capture_output=True, text=True).stdout.splitlines():
        parts = l.split()
        if len(parts) >= 3 and parts[1] == "=>":
            where[parts[0]] = parts[2]
    for soname in needed:
        if soname.startswith(("libasan", "libubsan", "ld-linux")):
            continue
        path = os.path.realpath(where.get(soname, soname))
        owner = ""
        for candidate in (path, path.replace("/usr/lib/", "/lib/", 1)):  # usrmerge: dpkg may list /lib
            r = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
            if r.returncode == 0:
                owner = r.stdout.split(":")[0]
                break
        expect(owner in depends, f"{soname} ({path}, package {owner or '?'}) is in the .deb's Depends: {sorted(depends)}")
    # libc6's version: at least the newest GLIBC_ symbol version the binary asks for.
    libc = re.search(r"libc6 \(>= ([0-9.]+)\)", line)
    expect(libc is not None, f"the .deb's Depends gives libc6 a version: {line.strip()}")
    if libc and shutil.which("objdump"):
        versions = set(re.findall(r"GLIBC_([0-9]+\.[0-9]+)", subprocess.run(["objdump", "-T", POSENC], capture_output=True,
                                                                          text=True).stdout))
        newest = max(versions, key=lambda v: tuple(map(int, v.split("."))), default="0.0")
        expect(tuple(map(int, newest.split("."))) <= tuple(map(int, libc.group(1).split("."))),
               f"libc6 (>= {libc.group(1)}) covers GLIBC_{newest}, the newest symbol version posenc asks for")


deb_depends_cover_needed()
finish()
