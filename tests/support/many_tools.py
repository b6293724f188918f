"""Many generated MCP-style tools of varied shapes: the big-page tests and its benchmark.

``payload(n)`` is a ``tools/list`` result of ``n`` tools (the same for a seed) with one to
eight parameters each, of mixed kinds: plain strings (the commonest), bounded integers with
defaults, enums, booleans, formats, arrays of strings, patterns, nested objects and arrays
of objects, with descriptions of varied length.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["payload"]

WORDS = [
    *[
        "account",
        "invoice",
        "customer",
        "order",
        "shipment",
        "parcel",
        "address",
        "ticket",
        "comment",
        "repository",
    ],
    *[
        "branch",
        "commit",
        "issue",
        "label",
        "project",
        "member",
        "permission",
        "file",
        "folder",
        "record",
        "report",
    ],
    *["metric", "alert"],
]


def _property(rng: random.Random, depth: int) -> dict[str, Any]:
    word = rng.choice(WORDS)
    kind = rng.randrange(14 if depth == 0 else 7)
    text = f"The {word} to use; see the {rng.choice(WORDS)} documentation for the accepted values."
    if kind == 0:
        return {"type": "string", "description": text}
    if kind == 1:
        return {"type": "integer", "minimum": 1, "maximum": 100, "default": 30, "description": text}
    if kind == 2:
        return {"type": "string", "enum": rng.sample(WORDS, 4), "description": text}
    if kind == 3:
        return {"type": "boolean", "default": False}
    if kind == 4:
        return {"type": "string", "format": "date-time", "description": text}
    if kind == 5:
        return {"type": "array", "items": {"type": "string"}, "description": text}
    if kind == 6:
        return {"type": "string", "pattern": "^[a-z0-9-]+$", "description": text}
    if kind == 7:
        return {"type": "array", "items": _object(rng, depth + 1, 3), "description": text}
    if kind == 8:
        return _object(rng, depth + 1, 3)
    return {"type": "string", "description": text}  # the commonest parameter, most often


def _object(rng: random.Random, depth: int, most: int) -> dict[str, Any]:
    count = rng.randint(1, most)
    names = rng.sample(WORDS, count)
    props = {f"{name}_{i}": _property(rng, depth) for i, name in enumerate(names)}
    required = [n for n in props if rng.random() < 0.5]
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return schema


def payload(count: int, seed: int = 42) -> dict[str, Any]:
    """An MCP ``tools/list`` result of ``count`` generated tools (the same for a seed)."""
    rng = random.Random(seed)
    tools = []
    for i in range(count):
        verb, noun = rng.choice(("get", "list", "create", "update", "delete")), rng.choice(WORDS)
        tools.append(
            {
                "name": f"{verb}_{noun}_{i}",
                "description": f"{verb.title()} a {noun} of the workspace. "
                + " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 40))),
                "inputSchema": _object(rng, 0, 8),
            }
        )
    return {"tools": tools}
