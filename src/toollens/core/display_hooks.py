"""How a core record is displayed in a notebook, without core importing a renderer.

A record that notebooks show (``Report``) keeps ``_repr_mimebundle_`` and asks this
registry for its bundle; ``toollens.render`` registers the function that renders each
record type when it is imported, so the dependency points one way (render -> core).
``toollens/__init__`` sets the loader that imports ``toollens.render`` the first time a
record is displayed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

_T = TypeVar("_T")

Bundle = dict[str, str]

_renderers: dict[type | str, Callable[[Any], Bundle]] = {}
_loader: list[Callable[[], None]] = []


def register_renderer(kind: type[_T] | str, render: Callable[[_T], Bundle]) -> None:
    """Display every ``kind`` with ``render(value) -> {mime type: text}``.

    ``kind`` is a class, or its ``"module.QualName"``: registering by name lets a renderer
    be registered without importing the (possibly heavy) module that defines the class.
    """
    _renderers[kind] = render


def _renderer(value: object) -> Callable[[Any], Bundle] | None:
    kind = type(value)
    return _renderers.get(kind) or _renderers.get(f"{kind.__module__}.{kind.__qualname__}")


def set_loader(load: Callable[[], None]) -> None:
    """Call ``load()`` (once) when a record is displayed before any renderer registered."""
    _loader[:] = [load]


def mimebundle(
    value: object, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
) -> Bundle:
    """The display bundle of ``value``, filtered as IPython asks (``include``/``exclude``)."""
    render = _renderer(value)
    if render is None and _loader:
        _loader.pop()()
        render = _renderer(value)
    if render is None:
        return {"text/plain": repr(value)}
    bundle = render(value)
    if include is not None:
        wanted = set(include)
        bundle = {k: v for k, v in bundle.items() if k in wanted}
    if exclude is not None:
        unwanted = set(exclude)
        bundle = {k: v for k, v in bundle.items() if k not in unwanted}
    return bundle
