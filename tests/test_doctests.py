"""Every example in the package's docstrings runs and prints what it says."""

import doctest
import importlib
import pkgutil

import pytest

import explorer

MODULES = sorted(m.name for m in pkgutil.walk_packages(explorer.__path__, "explorer.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", ["explorer", *MODULES])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0
