"""GitHub Actions workflow commands: one annotation per finding or change, shown inline.

A workflow command is one line, ``::error file=F,line=N,title=T::message``. GitHub reads
``%``, carriage return and newline specially in the message, and ``:`` and ``,`` as well in
a property value, so each is percent-encoded as the runner's toolkit does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Annotation", "escape_data", "escape_property", "plain_line"]

Level = Literal["error", "warning", "notice"]

_DATA = (("%", "%25"), ("\r", "%0D"), ("\n", "%0A"))
_PROPERTY = (*_DATA, (":", "%3A"), (",", "%2C"))


def escape_data(text: str) -> str:
    """Escape a message for a workflow command (``%`` first, so nothing is escaped twice)."""
    for raw, escaped in _DATA:
        text = text.replace(raw, escaped)
    return text


def escape_property(text: str) -> str:
    """Escape a property value (``file``, ``title``): the message's rules plus ``:`` and ``,``."""
    for raw, escaped in _PROPERTY:
        text = text.replace(raw, escaped)
    return text


def plain_line(text: str) -> str:
    """A log line printed among the annotations, kept one line and never read as a command.

    A tool's name or title can hold a line break, or start with ``::``: printed as is, the
    runner would read what follows as a workflow command of its own.
    """
    text = text.replace("\r", " ").replace("\n", " ")
    head = text.lstrip()
    return ": :" + head[2:] if head.startswith("::") else text


@dataclass(frozen=True)
class Annotation:
    """One inline annotation on a pull request.

    Attributes:
        level: ``error``, ``warning`` or ``notice``.
        message: what is wrong, and what to do.
        title: a short heading (the rule or change kind).
        file: the file, relative to the repository root; ``None`` for the whole run.
        line: the line in ``file``; ``None`` for the whole file.
    """

    level: Level
    message: str
    title: str
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        props = []
        if self.file is not None:
            props.append(f"file={escape_property(self.file)}")
            if self.line is not None:
                props.append(f"line={self.line}")
        props.append(f"title={escape_property(self.title)}")
        return f"::{self.level} {','.join(props)}::{escape_data(self.message)}"
