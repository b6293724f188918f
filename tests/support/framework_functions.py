"""Functions handed to every framework by the cross-framework tests (one concern each).

Written without ``from __future__ import annotations``: some frameworks read
``__annotations__`` directly, and the corpus should meet them as users' code does.
"""

import enum
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, Optional, TypeVar, Union

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

try:
    from agents import RunContextWrapper
except ImportError:  # the look-alike toollens recognises by qualified name
    _T = TypeVar("_T")

    class RunContextWrapper(Generic[_T]):  # type: ignore[no-redef]
        """Subscriptable like the SDK's class, so this module imports without the SDK."""

    RunContextWrapper.__module__ = "agents.run_context"


class Unit(str, enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    street: str
    city: str = Field(description="The city name")


class Order(BaseModel):
    item: str
    quantity: int = 1
    address: Address


@dataclass
class Point:
    x: float
    y: float


class Filters(TypedDict):
    tag: str
    limit: int


def google_style(city: str, days: int = 3) -> str:
    """Get the forecast.

    Args:
        city: The city to look up.
        days: How many days ahead.
    """
    return city


def numpy_style(city: str, days: int = 3) -> str:
    """Get the forecast.

    Parameters
    ----------
    city : str
        The city to look up.
    days : int
        How many days ahead.
    """
    return city


def sphinx_style(city: str, days: int = 3) -> str:
    """Get the forecast.

    :param city: The city to look up.
    :param days: How many days ahead.
    """
    return city


def no_docstring(city: str, days: int = 3) -> str:
    return city


def summary_only(city: str) -> str:
    """Look up a city."""
    return city


def google_with_returns(query: str) -> list[str]:
    """Search the catalogue.

    Args:
        query: What to look for.

    Returns:
        The matching titles.
    """
    return []


def annotated_string(city: Annotated[str, "The city, from Annotated"]) -> str:
    """Look up a city."""
    return city


def annotated_field(city: Annotated[str, Field(description="The city, from Field")]) -> str:
    """Look up a city."""
    return city


def docstring_and_field(city: Annotated[str, Field(description="From Field")]) -> str:
    """Look up a city.

    Args:
        city: From the docstring.
    """
    return city


def field_default(limit: int = Field(default=10, description="At most this many", ge=1)) -> str:
    """Limit the results."""
    return str(limit)


def annotated_constraints(
    limit: Annotated[int, Field(ge=1, le=100, description="Page size")] = 20,
) -> str:
    """Page through results."""
    return str(limit)


def string_constraints(code: Annotated[str, Field(min_length=2, max_length=3)]) -> str:
    """Look up a country code."""
    return code


def optional_none(unit: Optional[str] = None) -> str:
    """Format a reading.

    Args:
        unit: The unit, if any.
    """
    return unit or ""


def pep604_optional(unit: str | None = None) -> str:
    """Format a reading."""
    return unit or ""


def optional_without_default(unit: Optional[str]) -> str:
    """Format a reading."""
    return unit or ""


def union_types(value: Union[int, str]) -> str:
    """Echo a value."""
    return str(value)


def enum_parameter(unit: Unit = Unit.CELSIUS) -> str:
    """Convert a temperature.

    Args:
        unit: The unit to convert to.
    """
    return unit.value


def int_enum_parameter(priority: Priority) -> str:
    """Set a priority."""
    return str(priority)


def literal_parameter(mode: Literal["fast", "slow"] = "fast") -> str:
    """Choose a mode."""
    return mode


def nested_model(order: Order) -> str:
    """Place an order.

    Args:
        order: The order to place.
    """
    return order.item


def two_models(order: Order, billing: Address) -> str:
    """Place an order with a billing address."""
    return order.item


def optional_model(address: Optional[Address] = None) -> str:
    """Ship somewhere."""
    return ""


def dataclass_parameter(point: Point) -> str:
    """Move to a point."""
    return str(point.x)


def typed_dict_parameter(filters: Filters) -> str:
    """Filter results."""
    return filters["tag"]


def list_of_strings(tags: list[str]) -> str:
    """Tag an item.

    Args:
        tags: The tags to add.
    """
    return ",".join(tags)


def list_of_models(items: list[Address]) -> str:
    """Ship to several addresses."""
    return str(len(items))


def dict_parameter(headers: dict[str, str]) -> str:
    """Send headers."""
    return str(headers)


def mutable_default(tags: list[str] = ["a"]) -> str:  # noqa: B006 - the default is the point
    """Tag with defaults."""
    return ",".join(tags)


def var_positional(*names: str) -> str:
    """Greet everyone."""
    return ",".join(names)


def var_keyword(**options: int) -> str:
    """Set options."""
    return str(options)


def keyword_only(query: str, *, exact: bool = False) -> str:
    """Search.

    Args:
        query: What to look for.
        exact: Match the whole phrase.
    """
    return query


def positional_only(query: str, /, limit: int = 5) -> str:
    """Search with a limit."""
    return query


def unannotated(query, limit=5):  # type: ignore[no-untyped-def]
    """Search without annotations."""
    return query


def any_parameter(payload: Any) -> str:
    """Store anything."""
    return str(payload)


def agents_context(ctx: RunContextWrapper[Any], city: str) -> str:
    """Look up a city with a run context.

    Args:
        city: The city.
    """
    return city


def no_parameters() -> str:
    """Say hello."""
    return "hello"


def float_and_bool(ratio: float = 0.5, verbose: bool = True) -> str:
    """Tune a run."""
    return str(ratio)


def html_in_docstring(query: str) -> str:
    """Search <script>alert(1)</script> & more.

    Args:
        query: The <b>query</b>.
    """
    return query


FUNCTIONS = [
    google_style,
    numpy_style,
    sphinx_style,
    no_docstring,
    summary_only,
    google_with_returns,
    annotated_string,
    annotated_field,
    docstring_and_field,
    field_default,
    annotated_constraints,
    string_constraints,
    optional_none,
    pep604_optional,
    optional_without_default,
    union_types,
    enum_parameter,
    int_enum_parameter,
    literal_parameter,
    nested_model,
    two_models,
    optional_model,
    dataclass_parameter,
    typed_dict_parameter,
    list_of_strings,
    list_of_models,
    dict_parameter,
    mutable_default,
    var_positional,
    var_keyword,
    keyword_only,
    positional_only,
    unannotated,
    any_parameter,
    agents_context,
    no_parameters,
    float_and_bool,
    html_in_docstring,
]
