"""The helpers' names from before they moved into ``support``: ``import hostile`` still works.

Test modules written against the old flat layout import ``hostile``, ``provider_corpus``,
``framework_functions``, ``corpus_callables`` and the fake adapters by their bare names.
:func:`install` makes each such name an alias of ``support.<name>`` (the same module
object, imported on first use, so importing conftest stays cheap). New code imports
``support.<name>``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

MOVED = frozenset({
    "hostile", "provider_corpus", "framework_functions", "corpus_callables",
    "fake_framework_adapter", "fake_warning_adapter",
})  # fmt: skip


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self) -> None:
        self.specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(f"{__package__}.{spec.name}")
        self.specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system gave the module the alias' spec: give it its own back.
        module.__spec__ = self.specs[module.__name__]


def install() -> None:
    """Put the alias finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())
