"""Make ``hypothesis-jsonschema`` 0.23.1 work with current Hypothesis.

hypothesis-jsonschema (the maintained JSON-Schema strategy of the python-jsonschema
organisation; 0.23.1 is its latest release) builds objects with a private Hypothesis helper,
``many``, through its old ``while elements.more():`` interface. Hypothesis has since turned
``many`` into a context manager iterated with ``for``, so drawing any object fails with
``AttributeError: 'many' object has no attribute 'more'``.

The shim gives hypothesis-jsonschema (and nothing else) an object with the old interface that
drives the new one: the same draws, spans and rejections, so generation and shrinking are
Hypothesis's own. It is installed only when the installed ``many`` lacks ``more``, so a fixed
release of either library makes it a no-op. See docs/round-trip.md for why a shim rather than
a pin.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

_installed = False


class _LegacyMany:
    """``many(data, ...)`` with ``more()`` and ``reject()``, over the context-manager form."""

    def __init__(self, data: Any, **sizes: Any) -> None:
        from hypothesis.internal.conjecture import utils as cu

        self._many = cu.many(data, **sizes)
        self._many.__enter__()
        self._elements: Iterator[None] = iter(self._many)

    def more(self) -> bool:
        for _ in self._elements:
            return True
        self._many.__exit__(None, None, None)
        return False

    def reject(self, why: str | None = None) -> None:
        self._many.reject(why)


def install() -> None:
    """Patch hypothesis-jsonschema's reference to ``many`` when the interface changed."""
    global _installed
    if _installed:
        return
    from hypothesis.internal.conjecture import utils as cu
    from hypothesis_jsonschema import _from_schema

    if not hasattr(cu.many, "more"):
        # setattr: the module attribute is typed as a module, the stand-in is a namespace
        setattr(_from_schema, "cu", types.SimpleNamespace(many=_LegacyMany))
    _installed = True
