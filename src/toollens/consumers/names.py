"""How each client names a server's tools for the model."""

from __future__ import annotations

import re

__all__ = ["claude_code_name", "cursor_length", "gemini_cli_name", "vscode_name"]

_CLAUDE_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")
_GEMINI_UNSAFE = re.compile(r"[^a-zA-Z0-9_\-.:]")
_GEMINI_LIMIT = 63  # MAX_FUNCTION_NAME_LENGTH - 1 in mcp-tool.ts


def claude_code_name(server: str, tool: str) -> str:
    """``mcp__<server>__<tool>``: the server's name with characters outside a-z A-Z 0-9 _ -
    as ``_``, the tool's name as the server lists it (public threads, 2025-04 to 2025-08:
    tool names with ':', '/', '.' or a space reached the API, which refused the request)."""
    return f"mcp__{_CLAUDE_UNSAFE.sub('_', server)}__{tool}"


def vscode_name(server: str, tool: str) -> str:
    """``mcp_<server>_<tool>``, as VS Code's validation errors show tool names."""
    return f"mcp_{server}_{tool}"


def cursor_length(server: str, tool: str) -> int:
    """The length Cursor's name filter measures: server name + tool name."""
    return len(server) + len(tool)


def gemini_cli_name(server: str, tool: str) -> str:
    """Gemini CLI's ``generateValidName(`${server}_${tool}`)`` (``mcp-tool.ts``)."""
    name = f"{server}_{tool}"
    name = name if name.startswith("mcp_") else f"mcp_{name}"
    # JavaScript's regex (no u flag) replaces each UTF-16 unit: an astral character is two.
    name = _GEMINI_UNSAFE.sub(lambda m: "_" * (2 if ord(m.group()) > 0xFFFF else 1), name)
    if not re.match(r"[a-zA-Z_]", name):
        name = f"_{name}"
    if len(name) > _GEMINI_LIMIT:
        name = name[:30] + "..." + name[-30:]
    return name
