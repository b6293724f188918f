"""Send a view's HTML as patches against a base the front end already holds.

A keystroke in a 240-parameter tool changes a line or two of views that are hundreds of
kilobytes long. Each view therefore has a *base* (its HTML as last sent whole) and a *patch*
(the edits that turn the base into the HTML now). Both are synced state, so a view opened
later (a second display, a page reload) rebuilds the same HTML from the state alone. The
patch is always against the base, never against the previous patch, so nothing depends on
having seen every message; when the patch grows past a budget (a toggle that rewrites
everything), the HTML becomes the new base and the patch is empty.

Ops are ``[start, end, text]``: replace ``base[start:end]`` (offsets in UTF-16 code units,
as JavaScript strings count them) by ``text``; sorted, never overlapping.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
from dataclasses import dataclass

__all__ = ["PATCH_BUDGET", "PanelPatcher", "PanelSync", "PatchOp", "Published", "apply_ops"]

PatchOp = tuple[int, int, str]

#: Past this many bytes of ops, the view is sent whole and becomes the new base.
PATCH_BUDGET = 48_000

# Where the HTML is cut into units to compare: after the closing tag of a JSON line, a table
# row or a list item (and any other div), so one changed line is one changed unit. A newline
# ends a unit too, and a JSON line starts one: the lines of a document are lines of one <pre>.
_UNIT_END = re.compile(r"(?<=</div>)|(?<=</tr>)|(?<=</li>)|(?<=\n)|(?=<span class=\"tl-line)")
# Past this many units on both sides of the changed middle, the middle is sent as one op.
_MATCH_LIMIT = 4_000_000


def _units(html: str) -> list[str]:
    return [unit for unit in _UNIT_END.split(html) if unit]


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Base:
    html: str
    units: list[str]
    starts: list[int]  # UTF-16 offset of each unit, and the total length last
    chars: list[int]  # the same in characters (Python's offsets)


def _base(html: str) -> _Base:
    units = _units(html)
    starts, chars = [0], [0]
    for unit in units:
        starts.append(starts[-1] + _utf16(unit))
        chars.append(chars[-1] + len(unit))
    return _Base(html, units, starts, chars)


def _common_prefix(a: str, b: str, limit: int) -> int:
    """Length of the common prefix of ``a`` and ``b`` (at most ``limit``), by halving:
    string comparisons run in C, a character loop over a 1 MB view would not."""
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if a[low:mid] == b[low:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid : len(a) - low] == b[len(b) - mid : len(b) - low]:
            low = mid
        else:
            high = mid - 1
    return low


def _changed_units(base: _Base, html: str) -> tuple[int, int, list[str]]:
    """The base's units ``[first, last)`` that differ from ``html``, and what replaces them.

    Only the region between the first and the last changed character is cut into units, so
    an edit costs what it changed, not the size of the view.
    """
    old = base.html
    prefix = _common_prefix(old, html, min(len(old), len(html)))
    suffix = _common_suffix(old, html, min(len(old), len(html)) - prefix)
    first = bisect.bisect_right(base.chars, prefix) - 1
    last = bisect.bisect_left(base.chars, len(old) - suffix)
    tail = len(old) - base.chars[last]
    return first, last, _units(html[base.chars[first] : len(html) - tail])


def _unit_ops(old: list[str], new: list[str]) -> list[tuple[int, int, int, int]]:
    """Unit ranges ``(old_start, old_end, new_start, new_end)`` that differ."""
    if not old and not new:
        return []
    if len(old) * len(new) > _MATCH_LIMIT:
        return [(0, len(old), 0, len(new))]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


class PanelPatcher:
    """One view's base and the ops that turn it into the HTML now."""

    def __init__(self, budget: int = PATCH_BUDGET) -> None:
        self._budget = budget
        self._base: _Base | None = None

    @property
    def base(self) -> str | None:
        return None if self._base is None else self._base.html

    def update(self, html: str) -> tuple[str | None, list[PatchOp]]:
        """The new base (``None``: unchanged) and the ops from the base to ``html``."""
        base = self._base
        if base is None or not html or not base.html:
            return self._rebase(html)
        if html == base.html:
            return None, []
        first, last, new = _changed_units(base, html)
        ops: list[PatchOp] = []
        size = 0
        for o1, o2, n1, n2 in _unit_ops(base.units[first:last], new):
            text = "".join(new[n1:n2])
            ops.append((base.starts[first + o1], base.starts[first + o2], text))
            size += len(text.encode()) + 16
            if size > self._budget:
                return self._rebase(html)
        return None, ops

    def update_base(self, html: str) -> None:
        """Make ``html`` the base (sent whole elsewhere)."""
        self._rebase(html)

    def _rebase(self, html: str) -> tuple[str, list[PatchOp]]:
        self._base = _base(html)
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
