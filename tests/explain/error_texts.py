"""Real error texts from public threads, each with the thread it was read from.

One record per text, in the shape the rejection corpus (``tests/rejections/``) can take in:
``id``, ``url`` (the public thread), ``author`` (who wrote the error), ``text`` (trimmed to
the error itself; request ids dropped), and what :func:`toollens.explain.read_error` must
find in it (``places``: per place, the index or name, the path and the keyword).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Expected:
    index: int | None = None
    name: str | None = None
    path: tuple[str | int, ...] | None = None
    keyword: str | None = None
    part: str = "parameters"


@dataclass(frozen=True)
class ErrorText:
    id: str
    url: str
    author: str
    text: str
    places: tuple[Expected, ...] = field(default_factory=tuple)
    client: str | None = None
    provider: str | None = None


ERROR_TEXTS: tuple[ErrorText, ...] = (
    ErrorText(
        "openai-nested-additional-properties",
        "https://github.com/lastmile-ai/openai-agents-mcp/issues/2",
        "openai",
        "openai.BadRequestError: Error code: 400 - {'error': {'message': \"Invalid schema for "
        "function 'filesystem-set_permissions': In context=('properties', 'permissions'), "
        "'additionalProperties' is required to be supplied and to be false.\", 'type': "
        "'invalid_request_error', 'param': 'tools[22].parameters', 'code': "
        "'invalid_function_parameters'}}",
        (
            Expected(
                22,
                "filesystem-set_permissions",
                ("properties", "permissions"),
                "additionalProperties",
            ),
        ),
        provider="openai-responses",  # tools[22].parameters: the Responses layout
    ),
    ErrorText(
        "openai-root-context",
        "https://github.com/xemantic/xemantic-ai-tool-schema/issues/37",
        "openai",
        '"error": {"message": "Invalid schema for function \'<...>\': In context=(), '
        "'additionalProperties' is required to be supplied and to be false.\", "
        '"type": "invalid_request_error", "param": "tools[0].function.parameters", '
        '"code": "invalid_function_parameters"}',
        (Expected(0, "<...>", (), "additionalProperties"),),
        provider="openai-chat",
    ),
    ErrorText(
        "cursor-openai-array-missing-items",
        "https://github.com/VictoriaMetrics/mcp-victorialogs/issues/2",
        "openai",
        'Request failed with status code 400: {"error": {"message": "Invalid schema for '
        "function 'mcp_victorialogs_field_values': In context=('properties', 'field'), array "
        'schema missing items.", "type": "invalid_request_error", "param": '
        '"tools[13].function.parameters", "code": "invalid_function_parameters"}}',
        (Expected(13, "mcp_victorialogs_field_values", ("properties", "field"), "items"),),
    ),
    ErrorText(
        "vscode-openai-deep-context",
        "https://github.com/Automattic/wordpress-mcp/issues/103",
        "openai",
        "Sorry, your request failed. Please try again. Reason: Request Failed: 400 "
        '{"error":{"message":"Invalid schema for function \'mcp_wordpress-mcp_wc_update_'
        "product': In context=('properties', 'meta_data', 'items', 'properties', 'value', "
        '\'type\', \'6\'), array schema missing items.","code":"invalid_function_parameters"}}',
        (
            Expected(
                None,
                "mcp_wordpress-mcp_wc_update_product",
                ("properties", "meta_data", "items", "properties", "value", "type", "6"),
                "items",
            ),
        ),
        client="vscode-copilot",
    ),
    ErrorText(
        "openai-chat-name-pattern",
        "https://github.com/Vortiago/mcp-azure-devops/pull/30",
        "openai",
        "Error code: 400 - {'error': {'message': \"Invalid 'tools[21].function.name': string "
        "does not match pattern. Expected a string that matches the pattern "
        "'^[a-zA-Z0-9_-]+$'.\", 'type': 'invalid_request_error', 'param': "
        "'tools[21].function.name', 'code': 'invalid_value'}}",
        (Expected(21, keyword="name", part="name"),),
        provider="openai-chat",
    ),
    ErrorText(
        "openai-responses-name-pattern",
        "https://github.com/openai/openai-dotnet/issues/441",
        "openai",
        "Invalid 'tools[0].name': string does not match pattern....",
        (Expected(0, keyword="name", part="name"),),
        provider="openai-responses",
    ),
    ErrorText(
        "anthropic-input-schema-invalid",
        "https://github.com/BeehiveInnovations/pal-mcp-server/issues/241",
        "anthropic",
        'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":'
        '"tools.38.custom.input_schema: JSON schema is invalid. It must match JSON Schema '
        "draft\n    2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use "
        'at https://docs.anthropic.com/en/docs/tool-use."}}',
        (Expected(38, path=()),),
        client="claude-code",
    ),
    ErrorText(
        "anthropic-top-level-anyof",
        "https://github.com/anthropics/claude-code/issues/5319",
        "anthropic",
        '{\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"invalid_request_error\\",\\"message'
        '\\":\\"tools.106.custom.input_schema: input_schema does not support oneOf, allOf, or '
        'anyOf at the top level\\"}}',
        (Expected(106, path=(), keyword="anyOf"),),
    ),
    ErrorText(
        "anthropic-property-keys",
        "https://github.com/microsoft/azure-devops-mcp/issues/321",
        "anthropic",
        'API Error: 400\n     {"type":"error","error":{"type":"invalid_request_error","message":'
        '"tools.86.custom.input_schema.properties:\n     Property keys should match pattern '
        "'^[a-zA-Z0-9_.-]{1,64}$'\"}}",
        (Expected(86, path=("properties",), keyword="properties"),),
        client="claude-code",
    ),
    ErrorText(
        "claude-code-name-pattern",
        "https://github.com/anthropics/claude-code/issues/858",
        "anthropic",
        'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":'
        "\"tools.26.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'\"}}",
        (Expected(26, keyword="name", part="name"),),
        client="claude-code",
    ),
    ErrorText(
        "claude-code-name-length",
        "https://github.com/getsentry/XcodeBuildMCP/issues/3",
        "anthropic",
        'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":'
        '"tools.46.custom.name: String should have at most 64 characters"}}',
        (Expected(46, keyword="name", part="name"),),
        client="claude-code",
    ),
    ErrorText(
        "gemini-missing-items-several",
        "https://github.com/cline/cline/issues/7339",
        "gemini",
        '{"message":"{\\"error\\":{\\"message\\":\\"{\\\\n \\\\\\"error\\\\\\": {\\\\n '
        '\\\\\\"code\\\\\\": 400,\\\\n \\\\\\"message\\\\\\": \\\\\\"* GenerateContentRequest'
        ".tools[0].function_declarations[16].parameters.properties[includeTags].items: missing "
        "field.\\\\\\\\n* GenerateContentRequest.tools[0].function_declarations[16].parameters"
        ".properties[actions].items: missing field.\\\\\\\\n* GenerateContentRequest.tools[0]"
        ".function_declarations[22].name: Invalid function name. Must start with a letter",
        (
            Expected(16, path=("properties", "includeTags", "items"), keyword="items"),
            Expected(16, path=("properties", "actions", "items"), keyword="items"),
            Expected(22, keyword="name", part="name"),
        ),
    ),
    ErrorText(
        "gemini-enum-empty",
        "https://github.com/google-gemini/gemini-cli/issues/3401",
        "gemini",
        '\\"message\\": \\"* \n  GenerateContentRequest.tools[0].function_declarations[17]'
        '.parameters.properties[time].enum[0]: cannot be empty\\\\n\\",\\n',
        (Expected(17, path=("properties", "time", "enum", 0), keyword="enum"),),
    ),
    ErrorText(
        "gemini-unknown-const-by-position",
        "https://github.com/zed-extensions/mcp-server-brave-search/issues/12",
        "gemini",
        '"message": "Invalid JSON payload received. Unknown name \\"const\\" at '
        "'tools[0].function_declarations[5].parameters.properties[8].value.any_of[0]': Cannot "
        'find field.\\nInvalid JSON payload received. Unknown name \\"const\\" at '
        "'tools[0].function_declarations[5].parameters.properties[8].value.any_of[1]': Cannot "
        'find field."',
        (
            Expected(5, path=("properties", 8, "anyOf", 0, "const"), keyword="const"),
            Expected(5, path=("properties", 8, "anyOf", 1, "const"), keyword="const"),
        ),
    ),
    ErrorText(
        "gemini-unknown-schema-keyword",
        "https://github.com/earendil-works/pi/issues/2834",
        "gemini",
        "Error: Cloud Code Assist API error (400): Invalid JSON payload received. Unknown name "
        '"$schema" at                      \n \'request.tools[0].function_declarations[10]'
        ".parameters': Cannot find field.                                             \n "
        'Invalid JSON payload received. Unknown name "$schema" at '
        "'request.tools[0].function_declarations[11].parameters':       \n Cannot find field.",
        (
            Expected(10, path=("$schema",), keyword="$schema"),
            Expected(11, path=("$schema",), keyword="$schema"),
        ),
    ),
    ErrorText(
        "vscode-array-items",
        "https://github.com/microsoft/vscode/issues/284536",
        "vscode-copilot",
        "Failed to validate tool mcp_petstore_findsPetsByStatus: Error: tool parameters array "
        "type must have items. Please open a Github issue for the MCP server or extension "
        "which provides this tool",
        (Expected(name="mcp_petstore_findsPetsByStatus", keyword="items"),),
        client="vscode-copilot",
    ),
    ErrorText(
        "vscode-array-items-two-tools",
        "https://github.com/boshyxd/robloxstudio-mcp/issues/70",
        "vscode-copilot",
        "Failed to validate tool mcp_robloxstudio-_import_scene: Error: tool parameters array "
        "type must have items. Please open an issue for the MCP server or extension which "
        "provides this tool\n\nFailed to validate tool mcp_robloxstudio-_create_build: Error: "
        "tool parameters array type must have items. Please open an issue for the MCP server "
        "or extension which provides this tool",
        (
            Expected(name="mcp_robloxstudio-_import_scene", keyword="items"),
            Expected(name="mcp_robloxstudio-_create_build", keyword="items"),
        ),
        client="vscode-copilot",
    ),
    ErrorText(
        "cursor-tool-name",
        "https://github.com/webstudio-is/webstudio/issues/5960",
        "cursor",
        "webstudio: meta.index - Tool name must only contain alphanumeric characters and "
        "underscores\nwebstudio: workflow.next - Tool name must only contain alphanumeric "
        "characters and underscores",
        (
            Expected(name="meta.index", keyword="name", part="name"),
            Expected(name="workflow.next", keyword="name", part="name"),
        ),
        client="cursor",
    ),
    ErrorText(
        "cursor-model-incompatible",
        "https://github.com/mcp-router/mcp-router/issues/5",
        "cursor",
        'The argument schema for tool mcp_mcp-router_create_entities", is incompatible with '
        "gemini-2.5-pro-preview-06-05. Please fix the MCP server, disable the MCP server, or "
        "switch models.",
        (Expected(name="mcp_mcp-router_create_entities"),),
        client="cursor",
    ),
    ErrorText(
        "gemini-cli-missing-types",
        "https://github.com/arben-adm/mcp-sequential-thinking/issues/12",
        "gemini-cli",
        "Skipping tool 'process_thought' from MCP server 'sequential-thinking' because it has "
        "missing types in its parameter schema. Please file an issue with the owner of the "
        "MCP server.",
        (Expected(name="process_thought", keyword="type"),),
        client="gemini-cli",
    ),
)
