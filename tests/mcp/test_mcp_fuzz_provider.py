"""``fuzz_mcp_tool`` refuses a provider before it starts anything: an MCP tool is fuzzed from
its ``inputSchema`` as the server lists it, with no Python schema to convert for a provider
(``toollens fuzz 'mcp:...#TOOL' --provider P`` says the same, exit 3)."""

from __future__ import annotations

import pytest

from toollens.core.errors import TargetError
from toollens.mcp.fuzzing import fuzz_mcp_tool


def test_a_provider_is_refused_before_the_target_is_read() -> None:
    # no #TOOL and no such server: the provider is what is refused, so nothing was started
    with pytest.raises(TargetError, match="--provider gemini-openapi converts a Python") as caught:
        fuzz_mcp_tool("mcp:no-such-command-anywhere", provider="gemini-openapi")
    assert caught.value.hint == "drop --provider"
