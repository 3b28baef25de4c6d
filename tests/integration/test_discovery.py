"""Every Catch2 test case is a ctest test. catch_discover_tests hands CMake the names as a list,
and an unbalanced '[' in a name (a half-open interval "[a, b)") makes CMake swallow every later
name into one: 82 test cases were silently not run that way. Compares the binary's own list
with what ctest runs."""
import os
import subprocess

from harness import POSENC, expect, finish

build = os.path.dirname(POSENC)
tests = os.path.join(build, "tests", "posenc_tests")
if not os.path.exists(tests):
    print("no tests/posenc_tests beside the binary: skipped")
    finish()
names = [n for n in subprocess.run([tests, "--list-test-names-only"], capture_output=True, text=True).stdout.split("\n") if n]
listed = subprocess.run(["ctest", "--test-dir", build, "-N"], capture_output=True, text=True).stdout
catch_tests = [l for l in listed.split("\n") if "Test #" in l and "integration." not in l]
expect(len(catch_tests) > 100, f"ctest lists the Catch2 cases ({len(catch_tests)})")
expect(len(names) > 100, f"the test binary lists its cases ({len(names)})")
# Known gap (see the issue notes): names holding ';' are split by CMake's list handling and some
# others are not discovered; only the unbalanced-bracket cause is guarded here so far.
for n in names:
    expect(n.count("[") == n.count("]"), f"test name has balanced brackets: {n!r}")
finish()
