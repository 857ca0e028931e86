"""The evaluator modules' docstring examples run as tests (pytest's testpaths holds only tests/)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import controller.evaluators

MODULES = sorted(m.name for m in pkgutil.iter_modules(controller.evaluators.__path__, "controller.evaluators."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
