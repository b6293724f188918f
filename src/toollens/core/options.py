"""The options a report is computed with, and the subsets other entry points take.

:class:`ReportOptions` is the one options object of toollens: ``report``, ``lint``,
``diff``, the explorer, the magic and the command line all take it (or its fields as
keywords, :class:`OptionOverrides`). :class:`SchemaOptions` is the subset
``function_schema`` takes, made by :meth:`ReportOptions.schema_options`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from toollens.core.choices import (
    DEFAULT_PROVIDER,
    DocstringStyleName,
    OptionalDefaults,
    ProviderId,
)
from toollens.core.metadata import MISSING

if TYPE_CHECKING:
    from toollens.core.docstrings import DocstringStyle

__all__ = ["OptionOverrides", "ReportOptions", "SchemaOptions"]


@dataclass(frozen=True)
class ReportOptions:
    """The options a report was computed with (the keywords of :func:`report`)."""

    strict: bool = True
    provider: ProviderId = DEFAULT_PROVIDER
    docstring_style: DocstringStyle | DocstringStyleName | None = None
    name: str | None = None
    description: str | None = None
    output_type: object = MISSING  # any type expression: list[int], a model, Literal[...]
    optional_defaults: OptionalDefaults | None = None
    use_docstring_info: bool = True
    context_types: tuple[object, ...] = ()
    # The MCP specification revision MCP tools are judged by ("mcp@2025-11-25"); None: the
    # one the server answered with, else the newest (toollens.core.providers.mcp_spec).
    mcp_revision: str | None = None

    def __post_init__(self) -> None:
        # Any iterable (or None) is accepted, kept as a tuple so options stay hashable data.
        if not isinstance(self.context_types, tuple):
            object.__setattr__(self, "context_types", tuple(self.context_types or ()))

    def schema_options(self, *, strict: bool | None = None) -> SchemaOptions:
        """The subset ``function_schema`` takes (every field but ``provider``); ``strict``
        overrides ``self.strict`` when given."""
        return SchemaOptions(
            name=self.name,
            description=self.description,
            docstring_style=self.docstring_style,
            use_docstring_info=self.use_docstring_info,
            strict=self.strict if strict is None else strict,
            context_types=self.context_types,
            optional_defaults=self.optional_defaults,
            output_type=self.output_type,
        )


class SchemaOptions(TypedDict, total=False):
    """The keywords of ``function_schema``: :class:`ReportOptions` without ``provider``."""

    name: str | None
    description: str | None
    docstring_style: DocstringStyle | DocstringStyleName | None
    use_docstring_info: bool
    strict: bool
    context_types: Iterable[object] | None
    optional_defaults: OptionalDefaults | None
    output_type: object


class OptionOverrides(TypedDict, total=False):
    """The fields of :class:`ReportOptions`, as keywords: what ``report(**overrides)`` takes."""

    strict: bool
    provider: ProviderId
    docstring_style: DocstringStyle | DocstringStyleName | None
    name: str | None
    description: str | None
    output_type: object
    optional_defaults: OptionalDefaults | None
    use_docstring_info: bool
    context_types: tuple[object, ...]
    mcp_revision: str | None
