"""Google GenAI: ``FunctionDeclaration.from_callable_with_api_option`` (no client needed).

``use_json_schema=True`` is the path the SDK recommends (it warns on the other one): the
declaration carries ``parametersJsonSchema``.
"""

from __future__ import annotations

from toollens.core.schema.types import JsonObject, ToolFunction
from toollens.frameworks.records import Sent

_NO_PARAMETERS: JsonObject = {"type": "object", "properties": {}}


def build(func: ToolFunction) -> Sent:
    from google.genai import types

    declaration = types.FunctionDeclaration.from_callable_with_api_option(
        callable=func, api_option="GEMINI_API", use_json_schema=True
    )
    # No parameters declared: a function that takes no arguments (the diff engine reads an
    # absent parameter schema the same way).
    return Sent.from_model(declaration, "parametersJsonSchema", _NO_PARAMETERS)
