"""-o replaces an existing file only where the shell's `>` could write it, and keeps what `>`
keeps: the file's mode, owner and group, and its hard links (issue 15, item 7).

Root may write any file whatever its mode bits, so these checks run posenc as the unprivileged
user `nobody` (uid 65534) in a forked child (subprocess's user=/group=), in a world-writable
folder without the sticky bit, next to files owned by root. Each case is also run through
`sh -c '... > FILE'` as the same user, so the test asserts that posenc refuses exactly where
the shell does. Run as a user other than root, the cases that need another user's file are
left out; when no case can run the script exits 77 (ctest: skipped)."""
import glob
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from harness import POSENC, expect, finish

NOBODY = 65534
OLD = b"old,contents\n1,2\n"
BIN = POSENC  # replaced by a copy that the other user can run
ARGS = ["generate", "sinusoidal", "--len", "3", "--dim", "2"]


def as_user(argv, cwd):
    """Runs argv as `nobody` when we are root, else as ourselves."""
    extra = {"user": NOBODY, "group": NOBODY, "extra_groups": []} if os.geteuid() == 0 else {}
    return subprocess.run(argv, capture_output=True, cwd=cwd, timeout=60, **extra)


def make(path, mode, owner, data=OLD):
    with open(path, "wb") as f:
        f.write(data)
    os.chown(path, owner, owner)
    os.chmod(path, mode)


def shell_may_write(path, cwd):
    """Whether `>` as the same user could write `path` (into a scratch copy, not the file itself)."""
    probe = os.path.join(cwd, "probe")
    if os.path.exists(probe):
        os.remove(probe)
    shutil.copy2(path, probe)
    st = os.stat(path)
    os.chown(probe, st.st_uid, st.st_gid)
    os.chmod(probe, stat.S_IMODE(st.st_mode))
    r = as_user(["/bin/sh", "-c", "echo x > probe"], cwd)
    os.remove(probe)
    return r.returncode == 0


def no_temp_files(folder, what):
    left = glob.glob(os.path.join(folder, ".*.tmp"))
    expect(left == [], f"{what}: temporary files left: {left}")


def refused(folder, name, mode, owner, what):
    path = os.path.join(folder, name)
    make(path, mode, owner)
    before = os.stat(path)
    expect(not shell_may_write(path, folder), f"{what}: the shell's > may write it (test set-up)")
    r = as_user([BIN, *ARGS, "-o", name], folder)
    err = r.stderr.decode()
    expect(r.returncode == 2, f"{what}: exit {r.returncode}, want 2 ({err!r})")
    expect(err == f"posenc: error: -o '{name}': cannot write: Permission denied\n", f"{what}: stderr {err!r}")
    with open(path, "rb") as f:
        expect(f.read() == OLD, f"{what}: the file changed")
    after = os.stat(path)
    expect((after.st_ino, after.st_uid, after.st_mode) == (before.st_ino, before.st_uid, before.st_mode),
           f"{what}: inode/owner/mode changed: {before} -> {after}")
    no_temp_files(folder, what)


def replaced(folder, name, mode, owner, want, what, link=None):
    path = os.path.join(folder, name)
    make(path, mode, owner)
    if link:
        os.link(path, os.path.join(folder, link))
    before = os.stat(path)
    expect(shell_may_write(path, folder), f"{what}: the shell's > may not write it (test set-up)")
    r = as_user([BIN, *ARGS, "-o", name], folder)
    expect(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr.decode()!r}")
    for n in [name] + ([link] if link else []):
        with open(os.path.join(folder, n), "rb") as f:
            expect(f.read() == want, f"{what}: {n} does not hold the new table")
    after = os.stat(path)
    expect(after.st_uid == before.st_uid and after.st_gid == before.st_gid,
           f"{what}: owner {before.st_uid}:{before.st_gid} -> {after.st_uid}:{after.st_gid}")
    expect(stat.S_IMODE(after.st_mode) == mode, f"{what}: mode {oct(mode)} -> {oct(stat.S_IMODE(after.st_mode))}")
    if link:
        expect(after.st_ino == before.st_ino and after.st_nlink == 2,
               f"{what}: hard link split (inode {before.st_ino} -> {after.st_ino}, links {after.st_nlink})")
    no_temp_files(folder, what)


def main():
    root = os.geteuid() == 0
    me = NOBODY if root else os.geteuid()
    top = tempfile.mkdtemp(prefix="posenc-perm-")
    try:
        folder = os.path.join(top, "shared")
        os.mkdir(folder)
        os.chmod(top, 0o755)
        os.chmod(folder, 0o777)  # world-writable, no sticky bit: anyone may rename over anything
        binary = os.path.join(top, "posenc")  # a copy the other user can reach
        shutil.copy2(POSENC, binary)
        os.chmod(binary, 0o755)
        probe = as_user([binary, "list"], folder)
        if probe.returncode != 0:
            print(f"skipped: cannot run posenc as uid {me}: {probe.stderr.decode()!r}")
            sys.exit(77)
        ref = os.path.join(top, "ref.csv")
        subprocess.run([POSENC, *ARGS, "-o", ref], check=True)
        with open(ref, "rb") as f:
            want = f.read()
        global BIN
        BIN = binary

        # Write-protected (chmod 444), the user's own file: `>` says Permission denied.
        refused(folder, "ro.csv", 0o444, me, "own file, mode 444")
        # Replaced files keep their mode; a file with two names is written through both.
        replaced(folder, "mode.csv", 0o604, me, want, "own file, mode 604")
        replaced(folder, "linked.csv", 0o640, me, want, "own file with a hard link", link="other-name.csv")
        if root:
            # Another user's file in a folder anyone may write: not writable by us, refused;
            # writable by us (0666), written in place so that it stays theirs.
            refused(folder, "theirs.csv", 0o644, 0, "root's file, mode 644")
            replaced(folder, "theirs-rw.csv", 0o666, 0, want, "root's file, mode 666")
        else:
            print("note: not root: the cases with another user's file are left out")
    finally:
        shutil.rmtree(top, ignore_errors=True)
    finish()


main()
