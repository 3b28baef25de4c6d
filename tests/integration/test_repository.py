"""The repository itself: no tracked symlink (a symlink to a machine's build directory, such as
the `build-clean` -> /tmp/clean/build once committed at the root, dangles in every other clone;
nothing in the build, the tests or the docs uses one). Skipped (77) outside a git checkout."""
import os
import subprocess
import sys

from harness import expect, finish

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    try:
        r = subprocess.run(["git", "-C", ROOT, "ls-files", "-s"], capture_output=True, text=True)
    except OSError:
        sys.exit(77)
    if r.returncode != 0:
        sys.exit(77)  # a source tarball, not a clone
    links = [line.split("\t", 1)[1] for line in r.stdout.splitlines() if line.startswith("120000 ")]
    expect(links == [], f"tracked symlinks: {links}")
    finish()


if __name__ == "__main__":
    main()
