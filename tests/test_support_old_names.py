"""Test modules written for the flat layout still import the helpers by their old names."""

from __future__ import annotations

import importlib

import pytest

import support.hostile
from support.moved import MOVED


def test_an_old_name_is_the_moved_module_itself() -> None:
    import hostile
    from hostile import time_limit  # the old spelling

    assert hostile is support.hostile
    assert time_limit is support.hostile.time_limit
    assert hostile.__spec__ is not None
    assert hostile.__spec__.name == "support.hostile"  # its own spec, not the alias'


@pytest.mark.parametrize("name", sorted(MOVED))
def test_every_old_name_imports(name: str) -> None:
    assert importlib.import_module(name) is importlib.import_module(f"support.{name}")


def test_other_names_are_not_aliased() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("goldens")  # only the helpers that moved have old names
