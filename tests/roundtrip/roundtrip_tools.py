"""Tools for the round-trip tests: some with a planted bug, some clean."""

from __future__ import annotations

import asyncio
import threading
from enum import Enum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field

# -- planted bugs ------------------------------------------------------------------------------


def divide(total: int, parts: int) -> float:
    """Split a total into parts (the schema admits parts = 0)."""
    return total / parts


def _even(value: int) -> int:
    if value % 2:
        raise ValueError("must be even")
    return value


def pairs(count: Annotated[int, AfterValidator(_even)]) -> int:
    """A validator stricter than the schema (which says only "integer")."""
    return count // 2


def sku_lookup(sku: Annotated[str, Field(pattern=r"^[A-Z]{2}\d+$")]) -> str:
    """The pattern admits any number of digits; the code assumes exactly three."""
    if len(sku) != 5:
        raise ValueError(f"bad sku {sku}")
    return sku


PRICES = {"small": 1, "medium": 2}


def price(size: Literal["small", "medium", "large"]) -> int:
    """An enum member the table forgot."""
    return PRICES[size]


async def fetch_page(page: Annotated[int, Field(ge=0, le=10)]) -> str:
    """An async tool that fails on one page."""
    await asyncio.sleep(0)
    if page == 7:
        raise RuntimeError("page 7 is missing")
    return f"page {page}"


_NEVER = threading.Event()


def hangs(x: int) -> int:
    """Never returns within a test's timeout."""
    _NEVER.wait(5)
    return x


def shout(text: str, suffix: str | None = None) -> str:
    """Strict mode makes suffix required and nullable; the code forgets None."""
    return text.upper() + suffix.upper()  # type: ignore[union-attr]


def store_name(name: str) -> str:
    """A column of 100 characters; the schema has no maxLength."""
    if len(name) > 100:
        raise ValueError("name too long for the column")
    return name


def batch(tags: list[str]) -> int:
    """Fails for three tags or more: only a drawn list finds it, and shrinking makes it small."""
    if len(tags) >= 3:
        raise OverflowError("too many tags")
    return len(tags)


def shares(parts: Annotated[int, Field(gt=0)]) -> float:
    """gt=0 is exclusiveMinimum, which Gemini's OpenAPI subset drops."""
    return 1 / parts


# -- clean tools -------------------------------------------------------------------------------


class Unit(str, Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Place(BaseModel):
    city: str
    lat: Annotated[float, Field(ge=-90, le=90)]
    lon: Annotated[float, Field(ge=-180, le=180)]


def forecast(
    place: Place,
    days: Annotated[int, Field(ge=1, le=14)] = 3,
    unit: Unit = Unit.CELSIUS,
    hourly: bool = False,
    fields: list[Literal["temp", "rain", "wind"]] | None = None,
    note: Annotated[str, Field(max_length=200)] = "",
) -> dict[str, object]:
    """A forecast; takes every value its schema admits."""
    return {
        "city": place.city,
        "days": days,
        "unit": unit.value,
        "hourly": hourly,
        "fields": fields or [],
        "note": note,
    }


async def search(
    query: str, limit: Annotated[int, Field(ge=1, le=50)] = 10, tags: list[str] | None = None
) -> list[str]:
    """An async search; takes every value its schema admits."""
    await asyncio.sleep(0)
    return [query] * min(limit, 3) + list(tags or [])


def paginate(query: str, page: Annotated[int, Field(ge=1)] = 1) -> str:
    """A default the model may replace with null under optional_defaults="nullable"."""
    if page is None:
        raise TypeError("page arrived as None")
    return f"{query}:{page}"
