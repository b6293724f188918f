"""The corpus of real rejections (``tests/rejections/cases/*.json``), read into records.

Each case is one rejection a provider or a client answered, quoted in a public thread: the
error text verbatim, its date, the thread, the tools that were sent (as a file in the layout
they were sent, or a minimal reconstruction that reproduces the error, marked as such), the
path ``check`` runs on (providers and/or clients), what ``check`` must name (tool, JSON
pointer, rule), and tools the same path accepted, which must stay ok. The format is
described in ``tests/rejections/README.md``; ``toollens explain`` reads the same files.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CASES_DIR = Path(__file__).resolve().parent.parent / "rejections" / "cases"

LAYOUTS = frozenset(
    {"chat", "responses", "anthropic", "gemini", "gemini-json", "tools/list", "schema"}
)
UNREADABLE = "toollens.unreadable"
"""The ``expect.rule`` of a tool ``check`` refuses to read (its schema is no JSON Schema):
``check`` exits 1 and names the tool and the pointer, with no rule of a provider."""

_DATE = re.compile(r"\d{4}-\d{2}(-\d{2})?")
_REQUIRED = ("id", "path", "error", "date", "source", "tools", "reconstructed", "expect")


@dataclass(frozen=True)
class Expected:
    """What ``check`` must report: the tool, the JSON pointer (into the schema, or into the
    payload for a payload field) and the rule id."""

    tool: str
    pointer: str | None
    rule: str


@dataclass(frozen=True)
class Path_:
    """How ``check`` is run: the providers and clients named, and the file's layout."""

    layout: str
    providers: tuple[str, ...] = ()
    clients: tuple[str, ...] = ()

    def argv(self) -> list[str]:
        args: list[str] = []
        for provider in self.providers:
            args += ["--provider", provider]
        for client in self.clients:
            args += ["--client", client]
        return args


@dataclass(frozen=True)
class Case:
    """One real rejection, and the tools that went through on the same path."""

    id: str
    path: Path_
    error: str
    date: str
    source: str
    tools: Any
    reconstructed: bool
    expect: tuple[Expected, ...]
    accepted: tuple[Any, ...] = ()
    ended: str | None = None
    predicted: bool = True
    note: str = ""
    file: Path | None = None


def _expected(data: dict[str, Any]) -> Expected:
    return Expected(tool=data["tool"], pointer=data.get("pointer"), rule=data["rule"])


def load_case(path: Path) -> Case:
    """One case file; a malformed one raises ``ValueError`` naming the file and the field."""
    data = json.loads(path.read_text(encoding="utf-8"))
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise ValueError(f"{path.name}: missing {', '.join(missing)}")
    where = data["path"]
    if where.get("layout") not in LAYOUTS:
        raise ValueError(f"{path.name}: path.layout must be one of {sorted(LAYOUTS)}")
    if not (where.get("providers") or where.get("clients")):
        raise ValueError(f"{path.name}: path names no provider and no client")
    if not _DATE.fullmatch(data["date"]):
        raise ValueError(f"{path.name}: date {data['date']!r} is not YYYY-MM or YYYY-MM-DD")
    if not str(data["source"]).startswith("https://"):
        raise ValueError(f"{path.name}: source must be the thread's https address")
    if data["id"] != path.stem:
        raise ValueError(f"{path.name}: id {data['id']!r} is not the file's name")
    return Case(
        id=data["id"],
        path=Path_(
            layout=where["layout"],
            providers=tuple(where.get("providers", ())),
            clients=tuple(where.get("clients", ())),
        ),
        error=data["error"],
        date=data["date"],
        source=data["source"],
        tools=data["tools"],
        reconstructed=bool(data["reconstructed"]),
        expect=tuple(_expected(e) for e in data["expect"]),
        accepted=tuple(data.get("accepted", ())),
        ended=data.get("ended"),
        predicted=bool(data.get("predicted", True)),
        note=data.get("note", ""),
        file=path,
    )


def load_cases(directory: Path = CASES_DIR) -> list[Case]:
    """Every case, by file name."""
    return [load_case(path) for path in sorted(directory.glob("*.json"))]
