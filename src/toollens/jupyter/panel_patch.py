"""Send a view's HTML as patches against a base the front end already holds.

A keystroke in a 240-parameter tool changes a line or two of views that are hundreds of
kilobytes long. Each view therefore has a *base* (its HTML as last sent whole) and a *patch*
(the edits that turn the base into the HTML now). Both are synced state, so a view opened
later (a second display, a page reload) rebuilds the same HTML from the state alone. The
patch is always against the base, never against the previous patch, so nothing depends on
having seen every message; when the patch grows past a budget (a toggle that rewrites
everything), the HTML becomes the new base and the patch is empty.

Ops are ``[start, end, text]``: replace ``base[start:end]`` (offsets in UTF-16 code units,
as JavaScript strings count them) by ``text``; sorted, never overlapping. The changed
regions are found by comparing strings (in C): the common prefix and suffix, and a long
region in between split at a line found on both sides, each half narrowed again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = ["PATCH_BUDGET", "PanelPatcher", "PanelSync", "PatchOp", "Published", "apply_ops"]

PatchOp = tuple[int, int, str]

#: Past this many bytes of ops, the view is sent whole and becomes the new base.
PATCH_BUDGET = 48_000

# A changed region longer than this (characters, on either side) is split at an anchor and
# each half narrowed again, so two edits far apart in one view are two small ops.
_SPLIT_AT = 2_048
_ANCHOR = 160  # characters of the old text looked for in the new one
_MAX_DEPTH = 24


def _common_prefix(a: str, a0: int, b: str, b0: int, limit: int) -> int:
    """Length of the common prefix of ``a[a0:]`` and ``b[b0:]`` (at most ``limit``), by
    halving: string comparisons run in C, a character loop over a 1 MB view would not."""
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if a[a0 + low : a0 + mid] == b[b0 + low : b0 + mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, a1: int, b: str, b1: int, limit: int) -> int:
    """Length of the common suffix of ``a[:a1]`` and ``b[:b1]`` (at most ``limit``)."""
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if a[a1 - mid : a1 - low] == b[b1 - mid : b1 - low]:
            low = mid
        else:
            high = mid - 1
    return low


Region = tuple[int, int, int, int]  # old[o0:o1] becomes new[n0:n1]


def _anchor(old: str, o0: int, o1: int, new: str, n0: int, n1: int) -> tuple[int, int] | None:
    """A point in each side to split a long changed region at: text from the middle of the
    old side, found in the new side nearest where it would sit. Any split keeps the ops
    correct; a good one keeps them small."""
    at = old.find("<", (o0 + o1) // 2, o1 - _ANCHOR)  # start on a tag: a line, a row
    if at < 0:
        return None
    chunk = old[at : at + _ANCHOR]
    expected = n0 + (at - o0)
    after = new.find(chunk, max(n0, expected), n1)
    before = new.rfind(chunk, n0, min(n1, expected + len(chunk)))
    found = [j for j in (after, before) if j >= 0]
    if not found:
        return None
    return at, min(found, key=lambda j: abs(j - expected))


def _regions(old: str, new: str, region: Region, out: list[Region], depth: int = 0) -> None:
    """The regions where ``old`` and ``new`` differ inside ``region``, in order."""
    o0, o1, n0, n1 = region
    head = _common_prefix(old, o0, new, n0, min(o1 - o0, n1 - n0))
    o0, n0 = o0 + head, n0 + head
    tail = _common_suffix(old, o1, new, n1, min(o1 - o0, n1 - n0))
    o1, n1 = o1 - tail, n1 - tail
    if o0 == o1 and n0 == n1:
        return
    split = None
    if depth < _MAX_DEPTH and min(o1 - o0, n1 - n0) > _SPLIT_AT:
        split = _anchor(old, o0, o1, new, n0, n1)
    if split is None:
        out.append((o0, o1, n0, n1))
        return
    _regions(old, new, (o0, split[0], n0, split[1]), out, depth + 1)
    _regions(old, new, (split[0], o1, split[1], n1), out, depth + 1)


class PanelPatcher:
    """One view's base and the ops that turn it into the HTML now."""

    def __init__(self, budget: int = PATCH_BUDGET) -> None:
        self._budget = budget
        self._base: str | None = None
        self._ascii = True  # offsets in characters are then UTF-16 offsets too

    @property
    def base(self) -> str | None:
        return self._base

    def update(self, html: str) -> tuple[str | None, list[PatchOp]]:
        """The new base (``None``: unchanged) and the ops from the base to ``html``."""
        base = self._base
        if base is None or not html or not base:
            return self._rebase(html)
        if html == base:
            return None, []
        regions: list[Region] = []
        _regions(base, html, (0, len(base), 0, len(html)), regions)
        ops: list[PatchOp] = []
        size = 0
        for o0, o1, n0, n1 in regions:
            text = html[n0:n1]
            ops.append((self._utf16(o0), self._utf16(o1), text))
            size += len(text.encode()) + 16
            if size > self._budget:
                return self._rebase(html)
        return None, ops

    def _utf16(self, offset: int) -> int:
        if self._ascii or self._base is None:
            return offset
        return len(self._base[:offset].encode("utf-16-le")) // 2

    def update_base(self, html: str) -> None:
        """Make ``html`` the base (sent whole elsewhere)."""
        self._rebase(html)

    def _rebase(self, html: str) -> tuple[str, list[PatchOp]]:
        self._base, self._ascii = html, html.isascii()
        return html, []


def ops_bytes(ops: list[PatchOp]) -> int:
    """What sending ``ops`` costs, as JSON."""
    return len(json.dumps(ops, ensure_ascii=False).encode())


def apply_ops(base: str, ops: list[PatchOp]) -> str:
    """``base`` with ``ops`` applied (what the front end does; for tests and the static copy)."""
    encoded = base.encode("utf-16-le")
    out: list[bytes] = []
    position = 0
    for start, end, text in ops:
        out.append(encoded[2 * position : 2 * start])
        out.append(text.encode("utf-16-le"))
        position = end
    out.append(encoded[2 * position :])
    return b"".join(out).decode("utf-16-le")


@dataclass(frozen=True)
class Published:
    """What one publish changed: the views updated, the state to sync, the bytes it costs.

    ``bases`` is ``None`` when no view was sent whole (only ``patches`` is synced then).
    """

    updated: tuple[str, ...]
    bases: dict[str, str] | None
    patches: dict[str, list[PatchOp]]
    bytes_sent: int


class PanelSync:
    """Every view's base and patch: what the explorer syncs to its front end.

    When one view has to be sent whole, every view is: the bases travel as one synced value,
    and starting all patches afresh keeps the following edits small.
    """

    def __init__(self, budget: int = PATCH_BUDGET) -> None:
        self._budget = budget
        self._patchers: dict[str, PanelPatcher] = {}
        self.current: dict[str, str] = {}
        self._patches: dict[str, list[PatchOp]] = {}

    def publish(self, fresh: dict[str, str]) -> Published:
        """Take the views' HTML now (keys not given keep theirs); what to sync."""
        updated = tuple(key for key, html in fresh.items() if self.current.get(key) != html)
        if not updated:
            return Published((), None, self._patches, 0)
        self.current.update({key: fresh[key] for key in updated})
        patches = dict(self._patches)
        for key in updated:
            patcher = self._patchers.setdefault(key, PanelPatcher(self._budget))
            base, ops = patcher.update(self.current[key])
            if base is not None:
                return self._rebase_all()
            patches[key] = ops
        self._patches = {key: ops for key, ops in patches.items() if ops}
        sent = len(json.dumps(self._patches, ensure_ascii=False).encode())  # synced whole
        return Published(updated, None, self._patches, sent)

    def _rebase_all(self) -> Published:
        for key, html in self.current.items():
            self._patchers.setdefault(key, PanelPatcher(self._budget)).update_base(html)
        self._patches = {}
        bases = dict(self.current)
        sent = sum(len(html.encode()) for html in bases.values())
        return Published(tuple(bases), bases, {}, sent)
