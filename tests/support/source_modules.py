"""Modules made from source text, as an editor's tests need them: ``inspect.getsource``
finds each function's text, and every module gets a fresh name."""

from __future__ import annotations

import itertools
import textwrap
import types

from toollens.jupyter.live import register_source

_numbers = itertools.count()


def module_from_source(text: str, prefix: str) -> types.ModuleType:
    """Run ``text`` (dedented) as a new module named ``<prefix>_<n>``, its source registered."""
    name = f"{prefix}_{next(_numbers)}"
    source = textwrap.dedent(text)
    register_source(f"<{name}>", source)
    module = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module
