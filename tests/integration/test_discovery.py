"""Every Catch2 test case runs under ctest. ctest has one entry per test file
(`posenc_tests -# --warn NoTests "[#FILE]"`, tests/CMakeLists.txt): Catch2 tags each case with
the name of its file, and an entry that selects no case fails. Compares the binary's own list of
cases with the union of what the ctest entries select, so a case outside every entry (a file
missed by the glob, a tag spelled differently) fails here."""
import os
import re
import subprocess

from harness import POSENC, expect, finish

build = os.path.dirname(POSENC)
tests = os.path.join(build, "tests", "posenc_tests")
if not os.path.exists(tests):
    print("no tests/posenc_tests beside the binary: skipped")
    finish()


def case_names(*filters):
    out = subprocess.run([tests, "-#", "--list-test-names-only", *filters], capture_output=True, text=True)
    return [n for n in out.stdout.split("\n") if n]


every = case_names()
expect(len(every) > 100, f"the test binary lists its cases ({len(every)})")
listed = subprocess.run(["ctest", "--test-dir", build, "-N", "-V"], capture_output=True, text=True).stdout
tags = re.findall(r'posenc_tests"? "-#" "--warn" "NoTests" "(\[#[A-Za-z0-9_]+\])"', listed)
expect(len(tags) > 50, f"ctest has one entry per test file ({len(tags)})")
expect(len(tags) == len(set(tags)), "no two ctest entries select the same file")
selected = []
for tag in tags:
    names = case_names(tag)
    expect(len(names) > 0, f"ctest entry {tag} selects some case")
    selected += names
expect(sorted(selected) == sorted(every),
       f"the ctest entries select every case once ({len(selected)} selected, {len(every)} in the binary; "
       f"missing: {sorted(set(every) - set(selected))[:5]})")
finish()
