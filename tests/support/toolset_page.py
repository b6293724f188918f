"""Reading a ``toollens report --html`` page back: its table model and each tool's views.

The page stores its table as JSON and the tools' views deflated in chunks (see
:mod:`toollens.render.toolset_page`); tests read both as the page's script does.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

_DATA = re.compile(r'<script type="application/json" class="tl-ts-data">(.*?)</script>', re.S)
_VIEWS = re.compile(
    r'<script type="application/x-toollens-deflate" class="tl-ts-views" data-first="(\d+)"'
    r' data-count="(\d+)">([^<]*)</script>'
)


@dataclass(frozen=True)
class PageContents:
    table: dict[str, Any]  # the table model's JSON (columns, rows, groups, levels)
    views: list[str]  # each tool's views HTML, in toolset order


def inflate(text: str) -> Any:
    """A blob's JSON value (base64 of deflated UTF-8 JSON)."""
    return json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8"))


def read_page(page: str) -> PageContents:
    match = _DATA.search(page)
    assert match is not None, "the page has no table data"
    views: list[str] = []
    for first, count, blob in _VIEWS.findall(page):
        assert int(first) == len(views), "chunks out of order"
        chunk = inflate(blob)
        assert len(chunk) == int(count)
        views.extend(chunk)
    return PageContents(json.loads(match.group(1)), views)
