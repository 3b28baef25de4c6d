# docs/python.md's examples run as a doctest, from the repository's root (its paths are relative
# to it): the page shows what the module prints.
import doctest
import os

from conftest import SOURCE


def test_docs_python_md(monkeypatch):
    monkeypatch.chdir(SOURCE)
    failures, tried = doctest.testfile(os.path.join(SOURCE, "docs", "python.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert tried >= 15 and failures == 0, f"{failures} of {tried} examples in docs/python.md failed (see above)"
