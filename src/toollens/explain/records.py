"""What reading an error text gives: the places it names (:class:`ErrorPlace`), the shapes
that read them (:class:`ErrorShape`), and the error when none is found."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from toollens.core.choices import ProviderId
from toollens.core.errors import ToolLensError

__all__ = ["ErrorPlace", "ErrorShape", "Part", "PathToken", "UnreadableError"]

Part = Literal["parameters", "name", "tool"]
"""What part of a tool an error is about: its parameters schema, its name, or the whole."""

PathToken = str | int
"""One step into a schema. An ``int`` right after ``"properties"`` is a position: Gemini
counts the properties as a list (``properties[12].value``), in the order they were sent."""


class UnreadableError(ToolLensError):
    """An error text in which no provider or client error shape was found."""


@dataclass(frozen=True)
class ErrorPlace:
    """One place an error text names.

    Attributes:
        author: who wrote the error: ``openai``, ``anthropic``, ``gemini``, or a client that
            refused the tool itself (``vscode-copilot``, ``cursor``, ``gemini-cli``).
        provider: the provider whose rules judge the place (``openai-chat``, ...), or
            ``None`` when a client's own check wrote it.
        client: the client that sent the request, when the text says (Claude Code prints
            ``API Error: 400 ...``); its tool names are renamed and its index counts its own
            tools too.
        index: the tool's position in the request's tool list, when the text gives one.
        name: the tool's name as the request spelled it, when the text gives one.
        path: the steps into the tool's parameters schema (``None``: the text does not say).
        part: the part of the tool the error is about.
        keyword: the schema keyword or field at fault, when the text names one.
        reason: the error's own words for this place.
    """

    author: str
    provider: ProviderId | None
    reason: str
    part: Part = "parameters"
    client: str | None = None
    index: int | None = None
    name: str | None = None
    path: tuple[PathToken, ...] | None = None
    keyword: str | None = None


@dataclass(frozen=True)
class ErrorShape:
    """One error shape: its id, its pattern, and how a match becomes a place."""

    id: str
    pattern: re.Pattern[str]
    place: Callable[[re.Match[str], str], ErrorPlace]
