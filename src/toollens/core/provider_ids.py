"""The providers' names, importable without loading any provider module (the CLI starts fast)."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["DEFAULT_PROVIDER", "PROVIDER_IDS", "ProviderId"]

ProviderId = Literal["openai-chat", "openai-responses", "anthropic", "gemini", "gemini-openapi"]
"""A provider toollens builds payloads for and checks schemas against."""

PROVIDER_IDS: tuple[ProviderId, ...] = get_args(ProviderId)

#: The provider a report, the explorer and the command line are for unless told otherwise.
DEFAULT_PROVIDER: ProviderId = "openai-chat"
