"""Anthropic SDK: ``beta_tool(func).to_dict()`` (no client is built)."""

from __future__ import annotations

from toollens.core.schema.types import JsonObject, ToolFunction
from toollens.frameworks._spec import copy_json
from toollens.frameworks.records import Sent


def build(func: ToolFunction) -> Sent:
    from anthropic import beta_tool

    payload: JsonObject = copy_json(dict(beta_tool(func).to_dict()))
    return Sent.from_payload(payload, "input_schema")
