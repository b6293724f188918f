"""Plain defaults written as they are give the very schema pydantic's generator gives."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
import math
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import GenerateJsonSchema

from toollens.core.memo import memo_disabled
from toollens.core.schema_generator import ToolSchemaGenerator, schema_generator


class Color(str, enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


class Flag(int):
    pass


class Point(BaseModel):
    x: int = 0


DEFAULTS: dict[str, tuple[Any, Any]] = {
    "str": (str, "asc"),
    "empty str": (str, ""),
    "int": (int, 7),
    "big int": (int, 10**30),
    "bool": (bool, False),
    "None": (int | None, None),
    "float": (float, 0.5),
    "negative zero": (float, -0.0),
    "infinity": (float, math.inf),
    "nan": (float, math.nan),
    "str enum": (Color, Color.RED),
    "int enum": (Level, Level.LOW),
    "int subclass": (int, Flag(3)),
    "list": (list[int], [1, 2]),
    "dict": (dict[str, int], {"a": 1}),
    "tuple": (tuple[int, ...], (1, 2)),
    "datetime": (datetime.date, datetime.date(2024, 1, 2)),
    "decimal": (decimal.Decimal, decimal.Decimal("1.5")),
    "bytes": (bytes, b"xy"),
    "model": (Point, Point(x=2)),
}


@pytest.mark.filterwarnings("ignore::pydantic.json_schema.PydanticJsonSchemaWarning")
@pytest.mark.parametrize("config", [ConfigDict(), ConfigDict(ser_json_inf_nan="strings")])
@pytest.mark.parametrize(("tp", "default"), list(DEFAULTS.values()), ids=list(DEFAULTS))
def test_the_schema_is_pydantics(tp: Any, default: Any, config: ConfigDict) -> None:
    model = create_model(
        "Args", __config__=config, value=(tp, Field(default=default, description="d"))
    )
    ours = model.model_json_schema(schema_generator=ToolSchemaGenerator)
    theirs = model.model_json_schema(schema_generator=GenerateJsonSchema)
    assert json.dumps(ours, sort_keys=False) == json.dumps(theirs, sort_keys=False)


def test_switched_off_it_is_pydantics_own() -> None:
    assert schema_generator() is ToolSchemaGenerator
    with memo_disabled():
        assert schema_generator() is GenerateJsonSchema
