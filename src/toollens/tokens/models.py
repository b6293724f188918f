"""Which counting rule a model name gets: a table of families, checked in order."""

from __future__ import annotations

from dataclasses import dataclass

from toollens.tokens.errors import TOKENS_EXTRA, TokenizerUnavailableError, UnknownModelError

DEFAULT_MODEL = "gpt-4o"

#: The model counted for each provider when none is named (the explorer's Tokens view,
#: the Toolset view's token column).
PROVIDER_MODELS = {
    "openai-chat": "gpt-4o",
    "openai-responses": "gpt-4o",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
    "gemini-openapi": "gemini-2.5-flash",
}


def model_for_provider(provider: str) -> str:
    """The model counted for ``provider`` when none is named."""
    return PROVIDER_MODELS.get(provider, DEFAULT_MODEL)


@dataclass(frozen=True)
class ModelRule:
    """How tokens are counted for one model.

    Attributes:
        provider: ``openai``, ``gpt-oss``, ``anthropic`` or ``gemini``.
        encoding: the tiktoken encoding for OpenAI chat models, else ``None``.
    """

    provider: str
    encoding: str | None = None


def rule_for(model: str) -> ModelRule:
    """The counting rule of ``model`` (OpenAI names resolved by tiktoken's own table)."""
    name = model.strip().lower()
    if name.startswith("gpt-oss"):
        return ModelRule("gpt-oss")
    if name.startswith("claude"):
        return ModelRule("anthropic")
    if name.startswith(("gemini", "models/gemini")):
        return ModelRule("gemini")
    if not _tiktoken_installed():
        # tiktoken's own table says which names are OpenAI chat models; without it no
        # OpenAI name can be told from an unknown one, so say what to install.
        raise TokenizerUnavailableError(
            f"counting tokens for {model!r} needs tiktoken, which is not installed",
            hint=f"install the tokens extra: {TOKENS_EXTRA}",
        )
    encoding = _openai_encoding(name)
    if encoding in ("cl100k_base", "o200k_base"):
        return ModelRule("openai", encoding)
    raise UnknownModelError(
        f"no token-counting rule for model {model!r}",
        hint="use an OpenAI chat model (gpt-4o, gpt-4.1, gpt-3.5-turbo...), gpt-oss-20b, "
        "a claude-* or a gemini-* model",
    )


def _tiktoken_installed() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("tiktoken") is not None
    except (ImportError, ValueError):  # a broken or stubbed-out module entry
        return False


def _openai_encoding(name: str) -> str | None:
    try:
        from tiktoken.model import encoding_name_for_model
    except ImportError:
        return None
    try:
        return encoding_name_for_model(name)
    except KeyError:
        return None
