"""Exception types shared by every layer of toollens.

Errors carry data (``parameter``, ``pointer``, ``rule``, ``hint``) and build their
message from it, so a front end can show where the problem is and what to do.
"""

from __future__ import annotations

#: How a hint says "turn strict mode off" to both audiences: the command line's option and
#: the Python keyword (``report``, ``Explorer``, ``%toolschema``'s ``--no-strict`` alike).
STRICT_OFF = "turn strict mode off (--no-strict; strict=False from Python)"


def one_line(error: BaseException | str) -> str:
    """An error's message for a one-line report: every run of whitespace (line breaks
    included) becomes one space; ``"(no message)"`` when it is empty. The command line,
    target loading and the magic all report errors this way."""
    return " ".join(str(error).split()) or "(no message)"


class ToolLensError(Exception):
    """Root of every error toollens raises on purpose."""

    def __init__(
        self,
        message: str,
        *,
        parameter: str | None = None,
        pointer: str | None = None,
        rule: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.parameter = parameter
        self.pointer = pointer
        self.rule = rule
        self.hint = hint
        super().__init__(self._compose())

    def _compose(self) -> str:
        where = []
        if self.parameter is not None:
            where.append(f"parameter {self.parameter!r}")
        if self.pointer is not None:
            where.append(f"at {self.pointer or '/'}")
        text = f"{' '.join(where)}: {self.message}" if where else self.message
        if self.hint:
            text = f"{text}; {self.hint}"
        return text


class SchemaConstructionError(ToolLensError):
    """A callable, type or schema cannot become a tool schema; raised at construction."""


class StrictSchemaError(SchemaConstructionError):
    """A schema cannot be made strict without changing what it accepts."""


class ModelBehaviorError(ToolLensError):
    """Model-produced JSON did not parse or did not validate against the schema."""


class TargetError(ToolLensError):
    """An object given to a front end (magic, CLI, explorer) cannot be inspected."""
