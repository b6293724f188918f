"""A generated big tool (like a wrapped CRM API): the explorer's size tests and browser tests."""

from __future__ import annotations


def big_tool_source(n: int) -> str:
    """A tool with ``n`` documented, constrained parameters (like a wrapped CRM API)."""
    params = "\n".join(
        f'    p{i}: Annotated[int, Field(ge=0, le={100 + i}, description="Field {i}.")] = {i},'
        for i in range(n)
    )
    docs = "\n".join(f"        p{i}: The value of slot {i}." for i in range(n))
    return (
        "from typing import Annotated\nfrom pydantic import Field\n\n"
        f'def big_tool(\n{params}\n) -> str:\n    """A tool with many fields.\n\n'
        f'    Args:\n{docs}\n    """\n    return ""\n'
    )
