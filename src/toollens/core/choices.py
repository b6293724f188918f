"""The values each option can take, importable without loading the engine (the CLI starts fast).

Every front end offers these choices (the command line's ``--provider`` and ``--style``, the
explorer's toolbar, ``[tool.toollens]``); each list is derived from its ``Literal`` here, so
no front end spells them out again.
"""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

from toollens.core.errors import SchemaConstructionError

__all__ = [
    "DEFAULT_PROVIDER",
    "DOCSTRING_STYLES",
    "OPTIONAL_DEFAULTS",
    "PROVIDER_IDS",
    "DocstringStyleName",
    "OptionalDefaults",
    "ProviderId",
    "is_provider_id",
    "provider_id",
]

ProviderId = Literal["openai-chat", "openai-responses", "anthropic", "gemini", "gemini-openapi"]
"""A provider toollens builds payloads for and checks schemas against."""

PROVIDER_IDS: tuple[ProviderId, ...] = get_args(ProviderId)


def is_provider_id(value: object) -> TypeGuard[ProviderId]:
    """Whether ``value`` names a provider toollens knows."""
    return value in PROVIDER_IDS


def provider_id(value: str) -> ProviderId:
    """``value`` as a provider id; an unknown name raises, listing the valid ones.

    Raises:
        SchemaConstructionError: ``value`` is not one of :data:`PROVIDER_IDS`.
    """
    if is_provider_id(value):
        return value

    names = ", ".join(repr(n) for n in PROVIDER_IDS)
    raise SchemaConstructionError(f"unknown provider {value!r}", hint=f"use one of {names}")


#: The provider a report, the explorer and the command line are for unless told otherwise.
DEFAULT_PROVIDER: ProviderId = "openai-chat"

DocstringStyleName = Literal["google", "numpy", "sphinx"]
"""A docstring style to parse with, when detecting it is not wanted."""

DOCSTRING_STYLES: tuple[DocstringStyleName, ...] = get_args(DocstringStyleName)

OptionalDefaults = Literal["keep", "nullable"]
"""What strict mode does with a parameter's default: keep it required, or allow null."""

OPTIONAL_DEFAULTS: tuple[OptionalDefaults, ...] = get_args(OptionalDefaults)
