"""What one framework made of one function: the records every adapter returns.

An adapter never rewrites what its framework produced: ``parameters`` is the framework's
own parameter schema and ``payload`` its own provider payload, deep-copied so a caller
cannot reach back into the framework's objects.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toollens.core.records import Finding, Severity
from toollens.core.schema.toolkit import copy_json
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from pydantic import BaseModel


def tool_finding(rule: str, severity: Severity, message: str, fix: str = "") -> Finding:
    """A finding about a framework's (or toollens') tool as a whole: no pointer into a schema."""
    return Finding(rule=rule, severity=severity, pointer=None, message=message, fix=fix)


class Status(str, enum.Enum):
    """Whether a framework produced a tool from the function."""

    ACCEPTED = "accepted"  # the framework built a tool; its schema is in the result
    REFUSED = "refused"  # the framework raised while building the tool
    NOT_INSTALLED = "not-installed"  # the framework's package cannot be imported


@dataclass(frozen=True)
class Sent:
    """What a framework would send for a tool, exactly as its public API returned it.

    Attributes:
        name: the tool name.
        description: the tool description, or ``None`` when it sends none.
        parameters: the parameter JSON Schema.
        payload: the provider payload, where the framework builds one itself.
    """

    name: str
    description: str | None
    parameters: JsonObject
    payload: JsonObject | None = None

    @classmethod
    def from_payload(
        cls, payload: JsonObject, parameters_key: str, no_parameters: JsonObject | None = None
    ) -> Sent:
        """Name, description and ``payload[parameters_key]`` read from a tool payload.

        ``no_parameters``: the parameter schema when the payload has none (default: the
        key must be there).
        """
        schema = (
            payload[parameters_key]
            if no_parameters is None
            else payload.get(parameters_key, no_parameters)
        )
        return cls(
            name=payload["name"],
            description=payload.get("description"),
            parameters=copy_json(schema),
            payload=payload,
        )

    @classmethod
    def from_model(
        cls, model: BaseModel, parameters_key: str, no_parameters: JsonObject | None = None
    ) -> Sent:
        """:meth:`from_payload` of a pydantic tool model as it goes on the wire (JSON mode,
        its own aliases such as ``inputSchema``, no ``None`` fields)."""
        payload = model.model_dump(mode="json", by_alias=True, exclude_none=True)
        return cls.from_payload(payload, parameters_key, no_parameters)


@dataclass(frozen=True)
class FrameworkResult:
    """One framework's answer for one function.

    Attributes:
        framework: the table key, e.g. ``"pydantic-ai"``.
        label: a readable name, e.g. ``"pydantic-ai"``.
        api: the public API called, e.g. ``"Tool(func).tool_def"``.
        version: the installed distribution's version, or ``None`` when not installed.
        status: accepted, refused or not installed.
        sent: what the framework would send (only when accepted).
        message: the framework's own error message (refused) or why it is unavailable.
        warnings: warnings the framework emitted while building the tool.
    """

    framework: str
    label: str
    api: str
    version: str | None
    status: Status
    sent: Sent | None = None
    message: str | None = None
    warnings: tuple[str, ...] = field(default=())

    @property
    def accepted(self) -> bool:
        """Whether the framework built a tool."""
        return self.status is Status.ACCEPTED

    @property
    def named(self) -> str:
        """The label with the version, e.g. ``"FastMCP 4.2.3"``."""
        return f"{self.label} {self.version}" if self.version else self.label

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The refusal or absence (see :attr:`finding`), then each warning the framework gave."""
        warned = tuple(
            tool_finding(
                "framework.warning",
                Severity.WARNING,
                f"{self.named} warned: {text}",
                fix="check what the framework says about the function",
            )
            for text in self.warnings
        )
        return (self.finding, *warned) if self.finding is not None else warned

    @property
    def finding(self) -> Finding | None:
        """A finding for a refusal or a missing framework; ``None`` when accepted."""
        if self.status is Status.REFUSED:
            return tool_finding(
                "framework.refused",
                Severity.ERROR,
                f"{self.named} refused the function: {self.message}",
                fix=f"change the function so {self.label} accepts it, or do not serve it "
                f"through {self.label}",
            )
        if self.status is Status.NOT_INSTALLED:
            return tool_finding(
                "framework.not-installed",
                Severity.INFO,
                f"{self.label} is not installed ({self.message})",
                fix="install toollens[frameworks] to compare it",
            )
        return None

    def to_json(self) -> JsonObject:
        """JSON-ready form."""
        sent = self.sent
        return {
            "framework": self.framework,
            "label": self.label,
            "api": self.api,
            "version": self.version,
            "status": self.status.value,
            "name": None if sent is None else sent.name,
            "description": None if sent is None else sent.description,
            "parameters": None if sent is None else sent.parameters,
            "payload": None if sent is None else sent.payload,
            "message": self.message,
            "warnings": list(self.warnings),
        }

    to_dict = to_json  # the former name, kept for callers
