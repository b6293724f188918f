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


def _base(html: str) -> _Base:
    units = _units(html)
    starts = [0]
    for unit in units:
        starts.append(starts[-1] + _utf16(unit))
    return _Base(html, units, starts)


def _unit_ops(old: list[str], new: list[str]) -> list[tuple[int, int, int, int]]:
    """Unit ranges ``(old_start, old_end, new_start, new_end)`` that differ."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    if not old_mid and not new_mid:
        return []
    if len(old_mid) * len(new_mid) > _MATCH_LIMIT:
        return [(head, len(old) - tail, head, len(new) - tail)]
    matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    return [
        (head + i1, head + i2, head + j1, head + j2)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


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
        new = _units(html)
        ops: list[PatchOp] = []
        size = 0
        for o1, o2, n1, n2 in _unit_ops(base.units, new):
            text = "".join(new[n1:n2])
            ops.append((base.starts[o1], base.starts[o2], text))
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
