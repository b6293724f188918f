"""Every rule toollens knows about a consumer, as data: id, verdict, source, date, evidence.

Rules of consumers whose code runs here (``mcp-python``, ``openai-agents``) are decided by
running that code (:mod:`toollens.consumers.python`); the table still names them so a verdict
always cites its rule. Rules of clients that cannot run here (Claude Code, Claude Desktop,
Cursor, VS Code, Gemini CLI) are implemented from the source named, and each is tested
against a recorded case (``tests/consumers``). ``evidence`` says how strong the source is:
``code`` (read in the consumer's source), ``docs``, ``issue`` (the vendor's tracker, with a
reproduction), ``report`` (third-party reports; a hint, kept only with several sources).
"""

from __future__ import annotations

from collections.abc import Mapping

from toollens.consumers.model import ConsumerRule, Evidence, Verdict

__all__ = ["CONSUMER_RULES", "RULES_BY_ID", "rule"]

A, R = Verdict.ACCEPTED, Verdict.REWRITTEN
TD, SD, RR = Verdict.TOOL_DROPPED, Verdict.SERVER_DROPPED, Verdict.REQUEST_REJECTED
CODE, DOCS, ISSUE, REPORT = Evidence.CODE, Evidence.DOCS, Evidence.ISSUE, Evidence.REPORT

READ = "2026-12-02"  # the day these sources were read for toollens
RUN = "2026-12-04"  # the day the request bodies were recorded (the wire rules)

_TS_SDK = "https://github.com/modelcontextprotocol/typescript-sdk/blob/main/src/types.ts"
_GEMINI = "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/tools/"
_AGENTS = "https://github.com/openai/openai-agents-python/blob/main/src/agents/mcp/util.py"
_MCP_PY = "https://github.com/modelcontextprotocol/python-sdk/blob/main/src/mcp/client/session.py"
_CC = "https://github.com/anthropics/claude-code/issues/"
_OPENAI_TOOLS = "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools"
_GEMINI_CALLS = "https://ai.google.dev/gemini-api/docs/function-calling"
_PAI = "https://github.com/pydantic/pydantic-ai/blob/main/pydantic_ai_slim/pydantic_ai/"
_LC_MCP = "https://github.com/langchain-ai/langchain-mcp-adapters/blob/main/langchain_mcp_adapters/tools.py"
_LC_CORE = (
    "https://github.com/langchain-ai/langchain/blob/master/libs/core/langchain_core/utils/"
    "function_calling.py"
)
_GENAI = "https://github.com/googleapis/python-genai/blob/main/google/genai/_mcp_utils.py"
_GENAI_CALL = "https://github.com/googleapis/python-genai/blob/main/google/genai/_extra_utils.py"
_GENAI_TYPES = "https://github.com/googleapis/python-genai/blob/main/google/genai/types.py"
_ANTHROPIC_MCP = (
    "https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/lib/tools/mcp.py"
)

# The frameworks run here, at the versions these rules were read and run with.
PYDANTIC_AI_PROFILES = ("openai", "anthropic", "google")

_NOT_OBJECT_FIX = 'give the inputSchema "type": "object" at its root (wrap a root anyOf in it)'
_OUT_FIX = 'give the outputSchema "type": "object" at its root, or drop it'
_PROPS_FIX = "make 'properties' an object mapping each name to a schema object"
_REQ_FIX = "make 'required' a list of property names, or leave it out (never null)"
_FIELD_FIX = "send 'name' as a string, 'title'/'description' as strings, 'annotations' as an object"


def _mcp_client(client: str, source: str, framework: str) -> ConsumerRule:
    return _r(f"{client}.mcp-client", SD,
              f"{framework} lists tools with the official MCP SDK client: a list it refuses or "
              "a tool it drops never reaches the model (the same verdict)",
              "fix what mcp-python reports", source, CODE)  # fmt: skip


def _r(
    id: str, verdict: Verdict, summary: str, fix: str, source: str, evidence: Evidence,
    date: str = READ,
) -> ConsumerRule:  # fmt: skip
    consumer = id.rsplit(".", 1)[0]
    return ConsumerRule(id, consumer, verdict, summary, fix, source, date, evidence)


# fmt: off
CONSUMER_RULES: tuple[ConsumerRule, ...] = (
    # -- the official Python SDK client (run here) -------------------------------------------
    _r("mcp-python.list-refused", SD,
       "the SDK's ListToolsResult type refuses the whole tools/list answer when one tool does "
       "not fit it, so the client gets no tool of the server",
       "fix the field the SDK names", _MCP_PY, CODE),
    _r("mcp-python.x-mcp-header-invalid", TD,
       "on protocol 2026-07-28 the client drops a tool whose x-mcp-header annotations are "
       "invalid (ClientSession._absorb_tool_listing)",
       "fix or remove the x-mcp-header annotation", _MCP_PY, CODE),
    # -- OpenAI Agents SDK, MCP servers (run here) -------------------------------------------
    *(
        rule
        for c in ("openai-agents", "openai-agents-strict")
        for rule in (
            _r(f"{c}.mcp-client", SD,
               "the Agents SDK lists tools with the official Python SDK client: a list it "
               "refuses or a tool it drops never reaches the agent (the same verdict)",
               "fix what mcp-python reports", _AGENTS, CODE),
            _r(f"{c}.properties-added", R,
               "MCPUtil.to_function_tool adds \"properties\": {} to an inputSchema without it",
               "declare \"properties\" (even empty) in the inputSchema", _AGENTS, CODE),
            _r(f"{c}.description-from-title", R,
               "a tool without a description is sent with its title (or \"\") as description",
               "give the tool a description", _AGENTS, CODE),
            _r(f"{c}.too-many-tools", RR,
               "OpenAI accepts at most 128 functions in one request",
               "give the agent fewer tools (tool_filter) or split them across agents",
               _OPENAI_TOOLS, DOCS, "2026-11-29"),
        )
    ),
    _r("openai-agents-strict.converted", R,
       "convert_schemas_to_strict=True rewrites the inputSchema for OpenAI strict mode "
       "(additionalProperties false, every property required)",
       "nothing to fix; optional parameters become required-but-nullable", _AGENTS, CODE),
    _r("openai-agents-strict.served-non-strict", R,
       "when strict conversion fails the tool is served non-strict, with only an info log",
       "make the schema strict-compatible (see the strict findings) or accept non-strict",
       _AGENTS, CODE),
    # -- pydantic-ai 2.68, per model profile (run here: an Agent run on the model, its
    #    request body recorded) -------------------------------------------------------------
    *(
        rule
        for profile in PYDANTIC_AI_PROFILES
        for c in (f"pydantic-ai:{profile}",)
        for rule in (
            _mcp_client(c, _PAI + "mcp.py", "pydantic-ai's MCPToolset (on the FastMCP client)"),
            _r(f"{c}.app-only", TD,
               "MCPToolset.get_tools leaves out a tool whose _meta.ui.visibility does not "
               "list \"model\" (an MCP Apps tool only its page calls)",
               "add \"model\" to _meta.ui.visibility if the model should call the tool",
               _PAI + "mcp.py", CODE),
            _r(f"{c}.schema-transformed", R,
               f"the {profile} profile's JsonSchemaTransformer rewrites the inputSchema "
               "(pydantic-ai-slim 2.68, pydantic_ai.profiles)",
               "nothing to fix; 'sent' shows what the model receives", _PAI + "profiles/", CODE),
            _r(f"{c}.request-failed", RR,
               "the agent run fails before sending when one tool's schema cannot be "
               "prepared: no tool is sent", "fix the tool the message names",
               _PAI + "models/__init__.py", CODE, RUN),
            _r(f"{c}.transform-failed", RR,
               "the profile's JsonSchemaTransformer raises on the inputSchema (UserError from "
               "customize_request_parameters): the request fails",
               "fix the schema node the message names (e.g. a $ref to a missing definition)",
               _PAI + "models/__init__.py", CODE),
        )
    ),
    _r("pydantic-ai:openai.sent-strict", R,
       "a schema the OpenAI transformer finds strict-compatible is sent with strict: true "
       "(ToolDefinition.strict None means 'strict when compatible')",
       "nothing to fix; the model's arguments are then constrained to the schema",
       _PAI + "profiles/openai.py", CODE),
    # -- langchain-mcp-adapters 0.3.2 + langchain-core 1.8 (StructuredTool, bind_tools) -----
    _mcp_client("langchain-mcp-adapters", _LC_MCP, "load_mcp_tools"),
    _r("langchain-mcp-adapters.schema-converted", R,
       "convert_to_openai_tool (what bind_tools sends) rewrites the args_schema: $ref inlined "
       "and $defs dropped, titles dropped, a root description moved to an empty tool "
       "description", "nothing to fix; 'sent' shows what the model receives", _LC_CORE, CODE),
    _r("langchain-mcp-adapters.single-input", R,
       "an empty inputSchema ({}) on a tool without a description is sent as one required "
       "string argument __arg1", 'give the inputSchema "type": "object" and "properties"',
       _LC_CORE, CODE),
    _r("langchain-mcp-adapters.conversion-failed", RR,
       "convert_to_openai_tool raises on the args_schema (a $ref it cannot resolve, a remote "
       "$ref): bind_tools fails, so no tool reaches the model",
       "make every $ref point into the schema's own $defs", _LC_CORE, CODE),
    # -- google-genai 3.6 (_mcp_utils.mcp_to_gemini_tool, Gemini Developer API) -------------
    _mcp_client("google-genai", _GENAI, "google-genai's MCP session support"),
    _r("google-genai.keywords-dropped", R,
       "mcp_to_gemini_tool keeps only the keywords of the SDK's JSONSchema type (plus anyOf, "
       "oneOf, $defs, $ref, additionalProperties): the others are not sent",
       "move what the model must know (const, examples, ...) into the description",
       _GENAI, CODE),
    _r("google-genai.union-type-split", R,
       "Schema.from_json_schema splits a type list of several non-null types into anyOf and "
       "does not send its default (the SDK only logs a warning)",
       "give the parameter one type, or say the default in the description",
       "https://github.com/googleapis/python-genai/blob/main/google/genai/types.py", CODE),
    _r("google-genai.conversion-failed", RR,
       "mcp_to_gemini_tool raises on the inputSchema (a boolean additionalProperties, true "
       "or false as zod writes it; a $ref to a missing definition): generate_content fails",
       "drop a boolean additionalProperties; make every $ref point into $defs", _GENAI, CODE),
    _r("google-genai.request-failed", RR,
       "generate_content converts every tool of the session before it sends: one tool it "
       "cannot convert fails the whole call, and no tool is sent",
       "fix the tool the message names", _GENAI_CALL, CODE, RUN),
    _r("google-genai.sent-rewritten", R,
       "the request body carries the SDK's Schema, not the inputSchema: types upper-cased "
       "(STRING), nested keywords in snake_case (any_of)",
       "nothing to fix; 'sent' is the body as the SDK sends it", _GENAI_TYPES, CODE, RUN),
    _r("google-genai.first-page-only", TD,
       "generate_content calls the session's list_tools() once: only the first tools/list "
       "page reaches the model", "serve every tool on the first page (no pagination)",
       _GENAI_CALL, CODE, RUN),
    # -- the request limit of the API each framework sends to ------------------------------
    *(
        _r(f"{c}.too-many-tools", RR, f"{api} accepts at most 128 {what} in one request",
           "give the agent fewer tools (filter the toolset) or split them across agents",
           source, DOCS, "2026-11-29")
        for c, api, what, source in (
            ("pydantic-ai:openai", "OpenAI", "functions", _OPENAI_TOOLS),
            ("langchain-mcp-adapters", "OpenAI", "functions", _OPENAI_TOOLS),
            ("pydantic-ai:google", "Gemini", "function declarations", _GEMINI_CALLS),
            ("google-genai", "Gemini", "function declarations", _GEMINI_CALLS),
        )
    ),
    # -- Anthropic SDK 2.15 (anthropic.lib.tools.mcp.mcp_tool) ------------------------------
    _mcp_client("anthropic-sdk", _ANTHROPIC_MCP, "the Anthropic SDK's MCP helpers"),
    _r("anthropic-sdk.first-page-only", TD,
       "used as its docs show (one mcp_client.list_tools(), then async_mcp_tool for each "
       "tool), the helper sends only the first tools/list page",
       "serve every tool on the first page, or list every page before building the tools",
       _ANTHROPIC_MCP, DOCS, RUN),
    _r("anthropic-sdk.sent-rewritten", R,
       "the request body's tool differs from the served tool (name, description or "
       "input_schema)", "nothing to fix; 'sent' is the body as the SDK sends it",
       _ANTHROPIC_MCP, CODE, RUN),
    _r("anthropic-sdk.request-failed", RR,
       "the tool runner fails before sending: no tool is sent",
       "fix the tool the message names", _ANTHROPIC_MCP, CODE, RUN),
    # -- Claude Code ------------------------------------------------------------------------
    _r("claude-code.input-not-object", SD,
       "one tool whose inputSchema has no type \"object\" at its root (a root anyOf) drops "
       "every tool of the server, silently", _NOT_OBJECT_FIX, _CC + "88049", ISSUE),
    _r("claude-code.required-null", SD,
       "\"required\": null in one inputSchema makes every tool of the server fail "
       "(reported as an authentication error)", _REQ_FIX, _CC + "44364", ISSUE),
    _r("claude-code.output-not-object", SD,
       "an outputSchema whose type is not \"object\" fails the listing: no tool of the server",
       _OUT_FIX, _CC + "10825", ISSUE),
    _r("claude-code.properties-not-object", SD,
       "'properties' that is not an object of schemas fails the listing (zod: expected record)",
       _PROPS_FIX, _CC + "17742", ISSUE),
    _r("claude-code.prefixed-name-too-long", RR,
       "tools are named mcp__<server>__<tool>; a name past 64 characters is refused by the API",
       "shorten the tool name or the server's name in the configuration",
       "https://github.com/cloudflare/skills/issues/11", REPORT),
    _r("claude-code.property-key-invalid", TD,
       "a tool whose inputSchema has a root property key outside ^[a-zA-Z0-9_.-]{1,64}$ "
       "(brackets, '$', spaces) is dropped when its schema is loaded (2.1.233 and later; "
       "before, the API refused every request: 'Property keys should match pattern')",
       "rename the property (e.g. ids[] to ids) and map the name back in the server",
       _CC + "92648", ISSUE, "2026-09-07"),
    # -- Claude Desktop ---------------------------------------------------------------------
    _r("claude-desktop.output-not-object", SD,
       "an outputSchema whose type is not \"object\" fails the listing: the server shows no tools",
       _OUT_FIX, _CC + "10031", ISSUE),
    _r("claude-desktop.input-not-object", SD,
       "the desktop client validates tools/list with zod and refuses every tool when one "
       "inputSchema has no type \"object\"", _NOT_OBJECT_FIX,
       "https://github.com/homeassistant-ai/ha-mcp/pull/2480", REPORT),
    _r("claude-desktop.nullable-anyof-stripped", R,
       "a property schema {anyOf: [X, {type: null}]} (Python Optional[X]) loses its anyOf: "
       "the model sees only its description and default", "declare the property as X "
       "(optional by leaving it out of required) instead of anyOf with null",
       _CC + "56263", ISSUE),
    # -- Cursor -----------------------------------------------------------------------------
    _r("cursor.name-too-long", TD,
       "a tool whose server name + tool name reaches 60 characters is filtered out "
       "(\"Combined server and tool name length (60) exceeds 60 characters\")",
       "keep server name + tool name under 60 characters",
       "https://github.com/ComposioHQ/composio/issues/2788", REPORT),
    _r("cursor.too-many-tools", A,
       "more than 80 tools in all (every server together) shows a warning; older versions "
       "sent only the first 40 tools to the agent", "enable fewer tools or servers",
       "https://github.com/Snowflake-Labs/mcp/issues/77", REPORT),
    _r("cursor.output-not-object", SD,
       "an outputSchema whose type is not \"object\" fails the listing (zod, in Cursor's MCP log)",
       _OUT_FIX, _CC + "10031", REPORT),
    # -- VS Code Copilot --------------------------------------------------------------------
    _r("vscode-copilot.array-without-items", TD,
       "a parameter of type array without 'items' fails validation: \"tool parameters array "
       "type must have items\"", "give every array schema an 'items' schema",
       "https://github.com/modelcontextprotocol/php-sdk/issues/151", REPORT),
    _r("vscode-copilot.too-many-tools", RR,
       "more than 128 tools in one request fails: \"Cannot have more than 128 tools per "
       "request\"", "deselect tools in the chat's tool picker, or use tool sets",
       "https://github.com/microsoft/vscode-copilot-release/issues/11653", ISSUE),
    _r("vscode-copilot.prefixed-name-too-long", A,
       "tools are named mcp_<server>_<tool>; prefixing pushed names past 64 characters and "
       "gave 400 errors", "shorten the tool name or the server's name",
       "https://github.com/microsoft/vscode/issues/243602", ISSUE),
    # -- Gemini CLI (TypeScript, read in its source) -----------------------------------------
    _r("gemini-cli.input-not-object", SD,
       "discoverTools lists tools with the TypeScript SDK, whose ToolSchema refuses the whole "
       "answer when one inputSchema has no type \"object\"", _NOT_OBJECT_FIX,
       _GEMINI + "mcp-client.ts", CODE),
    _r("gemini-cli.output-not-object", SD,
       "the same check refuses an outputSchema whose type is not \"object\"", _OUT_FIX,
       _GEMINI + "mcp-client.ts", CODE),
    _r("gemini-cli.properties-not-object", SD,
       "the same check refuses 'properties' that is not an object of schema objects",
       _PROPS_FIX, _TS_SDK, CODE),
    _r("gemini-cli.required-not-list", SD,
       "the same check refuses 'required' that is not a list of strings (null included)",
       _REQ_FIX, _TS_SDK, CODE),
    _r("gemini-cli.tool-malformed", SD,
       "the same check refuses a tool whose name, title, description or annotations have "
       "the wrong type", _FIELD_FIX, _TS_SDK, CODE),
    _r("gemini-cli.missing-types", TD,
       "discoverTools skips a tool whose parameter schema has a node without a type (a "
       "property, array items, or an anyOf/oneOf/allOf branch): 'Skipping tool ... because "
       "it has missing types in its parameter schema'",
       "give every property and items schema a type (an anyOf's branches each one)",
       _GEMINI + "mcp-client.ts", CODE),
    _r("gemini-cli.renamed", R,
       "generateValidName: mcp_<server>_<tool>, characters outside [a-zA-Z0-9_.:-] become "
       "'_', a name not starting with a letter or '_' gets a leading '_', a name over 63 "
       "characters keeps its first 30 and last 30 around '...'",
       "use a-z A-Z 0-9 _ . : - in tool and server names, short enough for the prefix",
       _GEMINI + "mcp-tool.ts", CODE),
    _r("gemini-cli.nullable-type", R,
       "a two-entry type [X, \"null\"] is rewritten to type X with nullable: true",
       "nothing to fix; Gemini reads nullable", _GEMINI + "mcp-client.ts", CODE),
    _r("gemini-cli.too-many-tools", RR,
       "Gemini accepts at most 128 function declarations in one request",
       "exclude tools with excludeTools/includeTools in the server's settings",
       _GEMINI_CALLS, DOCS, "2026-11-29"),
)
# fmt: on

RULES_BY_ID: Mapping[str, ConsumerRule] = {r.id: r for r in CONSUMER_RULES}


def rule(rule_id: str) -> ConsumerRule:
    """The rule of that id (a KeyError names a rule the table lacks: a bug)."""
    return RULES_BY_ID[rule_id]


def _check_table(rules: tuple[ConsumerRule, ...]) -> None:
    seen: set[str] = set()
    for item in rules:
        if item.id in seen:
            raise ValueError(f"consumer rule id {item.id!r} is duplicated")
        if not (item.source.startswith("https://") and item.date and item.summary and item.fix):
            raise ValueError(f"consumer rule {item.id!r} lacks a source, date, summary or fix")
        seen.add(item.id)


_check_table(CONSUMER_RULES)
