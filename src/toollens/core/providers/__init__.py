"""What each model provider receives for a tool, and what it would reject.

One module per provider holds its payload shape and its rules, each rule citing its source
and the date of that source:

- ``openai``: Chat Completions and Responses payloads, the strict-mode subset and limits;
- ``grammar``: llguidance, OpenAI's grammar engine, as a second judge of strict schemas;
- ``anthropic``: the Messages tool payload and strict tool use;
- ``gemini``: the default Gemini declaration (``parametersJsonSchema``, full JSON Schema);
- ``gemini_openapi``: the classic ``parameters`` (OpenAPI subset) and its translation.

``rules`` is the rule machinery, ``walk`` the shared schema walker, ``base`` the provider
record, ``api`` the provider table and the public calls re-exported here.
"""

from toollens.core.choices import PROVIDER_IDS, ProviderId
from toollens.core.providers.api import (
    PROVIDERS,
    RULES,
    RULES_BY_ID,
    Judgement,
    ProviderPayload,
    ProviderVerdict,
    check_provider,
    iter_provider_findings,
    provider_payload,
    provider_spec,
    provider_tool,
    provider_verdict,
    translate_for,
    unwrap_payload,
    verdict_of,
)
from toollens.core.providers.base import (
    ProviderSpec,
    Translation,
    UnwrappedTool,
)
from toollens.core.providers.rules import ProviderRule, Scope
from toollens.core.records import Citation

__all__ = [
    "PROVIDERS",
    "PROVIDER_IDS",
    "RULES",
    "RULES_BY_ID",
    "Citation",
    "Judgement",
    "ProviderId",
    "ProviderPayload",
    "ProviderRule",
    "ProviderSpec",
    "ProviderVerdict",
    "Scope",
    "Translation",
    "UnwrappedTool",
    "check_provider",
    "iter_provider_findings",
    "provider_payload",
    "provider_spec",
    "provider_tool",
    "provider_verdict",
    "translate_for",
    "unwrap_payload",
    "verdict_of",
]
