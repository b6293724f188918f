"""What each tool costs in tokens, per model, and where the tokens go.

``tokens(tools, model=...)`` is exact for OpenAI chat models (their tools block tokenized
with their own encoding) and gpt-oss (openai-harmony's rendering), a labelled estimate
plus the documented overhead for Anthropic and Gemini, and the provider's own count with
``online=True``. Counting never touches the network otherwise.
"""

import sys
import types
from typing import Any

from toollens.tokens.api import tokens
from toollens.tokens.errors import OnlineCountError, TokenizerUnavailableError, UnknownModelError
from toollens.tokens.models import DEFAULT_MODEL, ModelRule, rule_for
from toollens.tokens.result import Method, PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef, tool_defs

__all__ = [
    "DEFAULT_MODEL",
    "Method",
    "ModelRule",
    "OnlineCountError",
    "PartTokens",
    "TokenCount",
    "TokenizerUnavailableError",
    "ToolDef",
    "ToolTokens",
    "UnknownModelError",
    "rule_for",
    "tokens",
    "tool_defs",
]


class _CallableModule(types.ModuleType):
    # `toollens.tokens` names both this package and the function; once the package is
    # imported, Python binds the package to that attribute, so the package itself counts.
    def __call__(self, tools: Any, model: str = DEFAULT_MODEL, **options: Any) -> TokenCount:
        return tokens(tools, model, **options)


sys.modules[__name__].__class__ = _CallableModule
