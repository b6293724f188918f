"""A corpus of tool callables covering docstring styles, precedence cases and parameter kinds.

Used by the golden tests and by the comparison with the reference implementation. Each
entry says in its name what it exercises. The run-context type is the OpenAI Agents SDK's
when it is installed, and a look-alike with the same qualified name otherwise.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Annotated, Any, Literal, Optional, Union

from annotated_types import Ge, Le, MaxLen
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

try:
    from agents import RunContextWrapper
    from agents.tool_context import ToolContext
except ImportError:  # the look-alikes are recognised by qualified name

    class RunContextWrapper:  # type: ignore[no-redef]
        pass

    RunContextWrapper.__module__ = "agents.run_context"

    class ToolContext:  # type: ignore[no-redef]
        pass

    ToolContext.__module__ = "agents.tool_context"


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str = Field(description="City name")
    zip: str | None = None


class Person(BaseModel):
    name: str
    age: int = Field(ge=0, le=150)
    address: Address
    tags: list[str] = []


class Cat(BaseModel):
    kind: Literal["cat"] = "cat"
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"] = "dog"
    good: bool = True


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Movie(TypedDict):
    title: str
    year: int


@dataclasses.dataclass
class Point:
    x: float
    y: float


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int


# --- docstring styles -------------------------------------------------------------------


def google_style(city: str, days: int = 3) -> str:
    """Get the forecast for a city.

    Looks up the forecast in the weather service.

    Args:
        city: The city to look up.
        days: How many days ahead, from 1 to 7.

    Returns:
        The forecast as text.
    """
    return city


def google_no_blank_line(city: str, units: str = "c") -> str:
    """Get the temperature.
    Args:
        city: The city.
        units: c or f.
    """
    return city


def google_args_first(query: str) -> str:
    """
    Args:
        query: What to search for.
    """
    return query


def google_multiline_param(query: str, limit: int = 10) -> list[str]:
    """Search the index.

    Args:
        query: The search terms,
            joined with AND.
        limit: Maximum number of hits.
    """
    return [query][:limit]


def google_typed_params(query: str, limit: int = 10) -> list[str]:
    """Search with typed google params.

    Args:
        query (str): The search terms.
        limit (int, optional): Maximum number of hits. Defaults to 10.
    """
    return [query][:limit]


def numpy_style(x: float, y: float) -> float:
    """Add two numbers.

    Parameters
    ----------
    x : float
        The first number.
    y : float
        The second number.

    Returns
    -------
    float
        The sum.
    """
    return x + y


def sphinx_style(path: str, recursive: bool = False) -> list[str]:
    """List a directory.

    :param path: Directory to list.
    :param recursive: Descend into subdirectories.
    :returns: The file names.
    """
    return [path]


def mixed_style(a: int, b: int) -> int:
    """Mixed styles, detected as sphinx by the tie rule.

    Args:
        a: google a.

    :param b: sphinx b.
    """
    return a + b


def no_docstring(a: int, b: str = "x") -> str:
    return b * a


def summary_only(a: int) -> int:
    """Double a number."""
    return a * 2


def google_with_raises(n: int) -> int:
    """Validate a number.

    Args:
        n: The number.

    Raises:
        ValueError: When n is negative.

    Examples:
        >>> google_with_raises(1)
    """
    return n


# --- precedence ---------------------------------------------------------------------------


def annotated_str_only(city: Annotated[str, "City from Annotated"]) -> str:
    return city


def docstring_beats_annotated(city: Annotated[str, "City from Annotated"]) -> str:
    """Look up a city.

    Args:
        city: City from the docstring.
    """
    return city


def annotated_field_only(
    count: Annotated[int, Field(ge=1, le=10, description="Count from Field")] = 5,
) -> int:
    return count


def docstring_beats_annotated_field(
    count: Annotated[int, Field(ge=1, description="Count from Field")],
) -> int:
    """Count things.

    Args:
        count: Count from the docstring.
    """
    return count


def annotated_str_beats_annotated_field(
    count: Annotated[int, "Count from str", Field(ge=0, description="Count from Field")],
) -> int:
    return count


def field_default_description(
    limit: int = Field(10, ge=1, description="Limit from default"),
) -> int:
    return limit


def docstring_beats_field_default(limit: int = Field(10, description="Limit from default")) -> int:
    """Limit things.

    Args:
        limit: Limit from the docstring.
    """
    return limit


def annotated_str_beats_field_default(
    limit: Annotated[int, "Limit from str"] = Field(10, description="Limit from default"),
) -> int:
    return limit


def two_annotated_fields(
    size: Annotated[int, Field(ge=0), Field(le=100, description="Size")] = 5,
) -> int:
    return size


def annotated_constraints_and_default(
    name: Annotated[str, MaxLen(20), Field(min_length=2)] = "abc",
    score: Annotated[float, Ge(0), Le(1)] = 0.5,
) -> str:
    return name


def field_alias(user_id: Annotated[str, Field(alias="userId", description="The user")]) -> str:
    return user_id


def nested_annotated(value: Annotated[Annotated[int, "inner"], "outer"]) -> int:
    return value


def field_default_factory(tags: list[str] = Field(default_factory=list)) -> list[str]:  # noqa: B008
    return tags


def field_constraints_required(
    code: str = Field(..., min_length=3, max_length=8, pattern=r"^[A-Z]+$"),
) -> str:
    return code


# --- parameter kinds ----------------------------------------------------------------------


def positional_only(a: int, b: int, /, c: int = 3) -> int:
    return a + b + c


def keyword_only(*, a: int, b: str = "x") -> str:
    return b * a


def all_kinds(a: int, /, b: int, *args: int, c: int, d: int = 4, **kwargs: int) -> int:
    return a + b + sum(args) + c + d + sum(kwargs.values())


def var_positional(*numbers: float) -> float:
    """Sum numbers.

    Args:
        *numbers: The numbers to add.
    """
    return sum(numbers)


def var_positional_tuple(*pairs: tuple[int, ...]) -> int:
    return len(pairs)


def var_positional_constrained(*scores: Annotated[int, Field(ge=0)]) -> int:
    return sum(scores)


def var_keyword(**options: str) -> dict[str, str]:
    return options


def unannotated(a, b=2):  # type: ignore[no-untyped-def]
    return a


def context_first(ctx: RunContextWrapper[Any], city: str) -> str:
    """Use the context.

    Args:
        city: The city.
    """
    return city


def tool_context_first(ctx: ToolContext[Any], n: int) -> int:
    return n


def context_only(ctx: RunContextWrapper[Any]) -> str:
    return "ok"


async def async_tool(url: str, timeout: float = 10.0) -> str:
    """Fetch a URL.

    Args:
        url: The address.
        timeout: Seconds to wait.
    """
    return url


def no_params() -> str:
    """Return the time."""
    return "now"


# --- types --------------------------------------------------------------------------------


def nested_models(person: Person, note: Optional[str] = None) -> str:
    """Register a person.

    Args:
        person: Who to register.
        note: An optional note.
    """
    return person.name


def enums_and_literals(color: Color, mode: Literal["fast", "slow"] = "fast") -> str:
    return mode


def unions(value: Union[int, str], pet: Union[Cat, Dog]) -> str:
    return str(value)


def discriminated(pet: Annotated[Union[Cat, Dog], Field(discriminator="kind")]) -> str:
    return pet.kind


def recursive_model(tree: Node) -> int:
    return tree.value


def containers(
    items: list[int], pairs: dict[str, int] | None = None, flags: set[str] | None = None
) -> int:
    return len(items)


def fixed_tuple(point: tuple[int, int], label: str | None = None) -> str:
    return str(point)


def typed_dict_param(movie: Movie) -> str:
    return movie["title"]


def dataclass_param(point: Point) -> float:
    return point.x


def optional_object(address: Address | None = None) -> str:
    return "ok"


def none_default_union(limit: int | None = None, name: str | None = None) -> int:
    return limit or 0


def sentinel_default(flag: Any = ...) -> Any:
    return flag


# --- callable shapes ----------------------------------------------------------------------


class Weather:
    """A weather client."""

    def forecast(self, city: str, days: int = 1) -> str:
        """Forecast for a city.

        Args:
            city: The city.
            days: Days ahead.
        """
        return city

    @staticmethod
    def convert(celsius: float) -> float:
        """Convert to fahrenheit.

        Args:
            celsius: Degrees Celsius.
        """
        return celsius * 9 / 5 + 32


class Adder:
    """Adds numbers."""

    def __call__(self, a: int, b: int = 1) -> int:
        return a + b


def _decorator(func: Any) -> Any:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


@_decorator
def decorated(city: str, units: Literal["c", "f"] = "c") -> str:
    """A decorated tool.

    Args:
        city: The city.
        units: Temperature units.
    """
    return city


def _partial_base(prefix: str, query: str, limit: int = 5) -> str:
    """Search with a prefix.

    Args:
        prefix: Fixed prefix.
        query: The query.
        limit: Max hits.
    """
    return prefix + query


partial_tool = functools.partial(_partial_base, "pre:")
bound_method = Weather().forecast
static_method = Weather.convert
callable_instance = Adder()

# Callables that work in non-strict mode only.
NON_STRICT_ONLY = {"all_kinds", "var_keyword", "containers"}
# Callables whose types strict mode refuses in every mode (open maps).
CORPUS: dict[str, Any] = {
    name: obj
    for name, obj in dict(globals()).items()
    if callable(obj)
    and not name.startswith("_")
    and not isinstance(obj, type)
    and getattr(obj, "__module__", __name__) == __name__
}
CORPUS.update(
    partial_tool=partial_tool,
    bound_method=bound_method,
    static_method=static_method,
    callable_instance=callable_instance,
)


def docstring_beats_both_fields(
    size: Annotated[int, Field(ge=0, description="Size from Annotated Field")] = Field(
        5, description="Size from default Field"
    ),
) -> int:
    """Resize.

    Args:
        size: Size from the docstring.
    """
    return size


CORPUS["docstring_beats_both_fields"] = docstring_beats_both_fields
# toollens lets the docstring win here; the reference lets the `= Field(...)` description win.
REFERENCE_DIFFERENCES = {"docstring_beats_both_fields"}
# The reference cannot name these (no __name__); toollens names them after the wrapped code.
REFERENCE_CRASHES = {"partial_tool", "callable_instance"}
