"""Source spans on provenance: every candidate points at the text it came from.

Each row names a callable, a parameter (``None``: the tool itself), an attribute and a
source, and the exact text of ``inspect.getsource(func)`` the candidate's span covers.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any

import pytest
from annotated_types import Ge, MaxLen
from pydantic import Field

from toollens.core.function_schema import function_schema
from toollens.core.metadata import Candidate, Source
from toollens.core.spans import SourceSpan


def google_tool(
    city: Annotated[str, "City from Annotated", Field(max_length=40)],
    days: Annotated[int, Ge(1), Field(description="Day count", le=14)] = 3,
    unit: str = Field("c", description="Unit from Field", alias="units"),
) -> str:
    """Forecast the weather in Zürich or anywhere else.

    The forecast comes from the nearest station.

    Args:
        city: The city to forecast,
            spelled as locals do.
        days (int): How many days.
    """
    return city


def numpy_tool(city: str, *, limit: int = 5) -> str:
    """Search the city index.

    Parameters
    ----------
    city : str
        The city, in full.
    limit : int
        At most this many results.

    Returns
    -------
    str
        The matches.
    """
    return city


def sphinx_tool(city: str, /, unit: str = "c") -> str:
    """Convert a temperature.

    :param str city: Where the reading was taken,
        any spelling.
    :param unit: The unit.
    :returns: the reading.
    """
    return city


def kwargs_tool(*names: int, **options: str) -> str:
    """Collect names.

    Args:
        names: Every name.
    """
    return str(names)


def non_ascii_tool(ville: Annotated[str, "Ville, ex. « Zürich »"] = "Genève") -> str:
    """Résumé météo."""
    return ville


def _logged(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


@_logged
async def decorated_tool(
    query: Annotated[
        str,
        MaxLen(100),
    ],
) -> str:
    """Look something up."""
    return query


class Station:
    def reading(self, sensor: str, scale: float = 1.0) -> float:
        """Read a sensor.

        Args:
            sensor: Sensor id.
        """
        return scale


def _text(func: Any, span: SourceSpan | None) -> str | None:
    return None if span is None else span.text(inspect.getsource(func))


def _one(candidates: tuple[Candidate, ...], attribute: str, source: Source) -> Candidate:
    found = [c for c in candidates if c.attribute == attribute and c.source is source]
    assert len(found) == 1, found
    return found[0]


D, AS, AF, AC, FD, DF, TY, CA = (
    Source.DOCSTRING,
    Source.ANNOTATED_STR,
    Source.ANNOTATED_FIELD,
    Source.ANNOTATED_CONSTRAINT,
    Source.FIELD_DEFAULT,
    Source.DEFAULT,
    Source.TYPE,
    Source.CALLABLE,
)

SPANS = [
    # the tool itself: the name on the def line, the docstring's description
    (google_tool, None, "name", CA, "google_tool"),
    (
        google_tool,
        None,
        "description",
        D,
        "Forecast the weather in Zürich or anywhere else.\n\n"
        "    The forecast comes from the nearest station.",
    ),
    (numpy_tool, None, "description", D, "Search the city index."),
    (sphinx_tool, None, "description", D, "Convert a temperature."),
    # google: the entry line and its continuation; the Annotated string and Field(...)
    (
        google_tool,
        "city",
        "description",
        D,
        "city: The city to forecast,\n            spelled as locals do.",
    ),
    (google_tool, "city", "description", AS, '"City from Annotated"'),
    (google_tool, "city", "max_length", AF, "Field(max_length=40)"),
    (google_tool, "days", "description", D, "days (int): How many days."),
    (google_tool, "days", "description", AF, 'Field(description="Day count", le=14)'),
    (google_tool, "days", "le", AF, 'Field(description="Day count", le=14)'),
    (google_tool, "days", "ge", AC, "Ge(1)"),
    (google_tool, "days", "default", DF, "3"),
    # = Field(...) default: its description, default and alias all come from the call
    (
        google_tool,
        "unit",
        "description",
        FD,
        'Field("c", description="Unit from Field", alias="units")',
    ),
    (
        google_tool,
        "unit",
        "default",
        FD,
        'Field("c", description="Unit from Field", alias="units")',
    ),
    (google_tool, "unit", "alias", FD, 'Field("c", description="Unit from Field", alias="units")'),
    # numpy: the "name : type" line and its indented description
    (numpy_tool, "city", "description", D, "city : str\n        The city, in full."),
    (numpy_tool, "limit", "description", D, "limit : int\n        At most this many results."),
    (numpy_tool, "limit", "default", DF, "5"),
    # sphinx: the :param line (typed or not) and its continuation
    (
        sphinx_tool,
        "city",
        "description",
        D,
        ":param str city: Where the reading was taken,\n        any spelling.",
    ),
    (sphinx_tool, "unit", "description", D, ":param unit: The unit."),
    (sphinx_tool, "unit", "default", DF, '"c"'),
    # *args / **kwargs: the default comes from the type
    (kwargs_tool, "names", "default", TY, "int"),
    (kwargs_tool, "options", "default", TY, "str"),
    (kwargs_tool, "names", "description", D, "names: Every name."),
    # columns count characters, not UTF-8 bytes
    (non_ascii_tool, "ville", "description", AS, '"Ville, ex. « Zürich »"'),
    (non_ascii_tool, "ville", "default", DF, '"Genève"'),
    (non_ascii_tool, None, "description", D, "Résumé météo."),
    # decorated (functools.wraps), async, a multi-line Annotated
    (decorated_tool, None, "name", CA, "decorated_tool"),
    (decorated_tool, "query", "max_length", AC, "MaxLen(100)"),
    # a method: spans are in the indented text inspect.getsource returns
    (Station().reading, "sensor", "description", D, "sensor: Sensor id."),
    (Station().reading, "scale", "default", DF, "1.0"),
    (Station().reading, None, "name", CA, "reading"),
]


@pytest.mark.parametrize(
    ("func", "parameter", "attribute", "source", "expected"),
    SPANS,
    ids=[f"{row[0].__name__}-{row[1] or 'tool'}-{row[2]}-{row[3].value}" for row in SPANS],
)
def test_span_covers_the_source_text(
    func: Any, parameter: str | None, attribute: str, source: Source, expected: str
) -> None:
    fs = function_schema(func, strict=False)
    candidates = fs.provenance if parameter is None else fs.parameter(parameter).candidates
    candidate = _one(candidates, attribute, source)
    assert _text(func, candidate.span) == expected


@pytest.mark.parametrize(
    "func", [google_tool, numpy_tool, sphinx_tool, kwargs_tool, non_ascii_tool, decorated_tool]
)
def test_every_candidate_of_a_function_with_source_has_a_span(func: Any) -> None:
    fs = function_schema(func, strict=False)
    for candidate in (*fs.provenance, *(c for p in fs.parameters for c in p.candidates)):
        assert candidate.span is not None, candidate


def test_the_span_is_where_the_line_and_columns_say() -> None:
    fs = function_schema(sphinx_tool, strict=False)
    span = fs.parameter("unit").winner("default").span  # type: ignore[union-attr]
    lines = inspect.getsource(sphinx_tool).splitlines()
    assert span == SourceSpan(
        span.start_line, span.start_column, span.start_line, span.start_column + 3
    )
    assert lines[span.start_line - 1][span.start_column : span.end_column] == '"c"'
    assert lines[span.start_line - 1].startswith("def sphinx_tool(")


City = Annotated[str, "City name from an alias"]


def alias_tool(city: City, country: Annotated[City, "Country, outer"] = "CH") -> str:
    return city


def test_values_not_written_in_the_source_have_no_span() -> None:
    fs = function_schema(alias_tool, strict=False)
    # the Annotated string lives in the alias, not in this def
    assert fs.parameter("city").winner("description").span is None  # type: ignore[union-attr]
    # an alias nested in Annotated: the elements no longer line up, so no guess
    described = fs.parameter("country").candidates_for("description")
    assert [c.span for c in described] == [None]
    assert _text(alias_tool, fs.parameter("country").winner("default").span) == '"CH"'  # type: ignore[union-attr]


def test_an_explicit_override_has_no_span() -> None:
    fs = function_schema(google_tool, name="forecast", description="Forecast.", strict=False)
    assert _one(fs.provenance, "name", Source.OVERRIDE).span is None
    assert _one(fs.provenance, "description", Source.OVERRIDE).span is None
    assert _text(google_tool, _one(fs.provenance, "name", CA).span) == "google_tool"


def _without_source() -> list[Any]:
    namespace: dict[str, Any] = {"Annotated": Annotated}
    exec(  # compiled from a string: inspect.getsource has nothing to read
        "def built(city: Annotated[str, 'City']) -> str:\n    '''Built.\n\n    Args:\n"
        "        city: The city.\n    '''\n    return city\n",
        namespace,
    )
    return [
        namespace["built"],
        functools.partial(google_tool, "Bern"),
        eval("lambda city: city"),
    ]


@pytest.mark.parametrize("func", _without_source(), ids=["exec", "partial", "lambda"])
def test_callables_without_source_text_have_no_spans(func: Any) -> None:
    fs = function_schema(func, strict=False)
    candidates = [*fs.provenance, *(c for p in fs.parameters for c in p.candidates)]
    assert candidates
    assert all(c.span is None for c in candidates)


def test_docstring_turned_off_is_ignored_with_its_span() -> None:
    fs = function_schema(google_tool, use_docstring_info=False, strict=False)
    ignored = [c for c in fs.parameter("city").candidates if c.ignored]
    assert [(c.source, c.won) for c in ignored] == [(Source.DOCSTRING, False)]
    assert _text(google_tool, ignored[0].span).startswith("city: The city to forecast,")
    (tool_ignored,) = [c for c in fs.provenance if c.ignored]
    assert tool_ignored.attribute == "description"
    assert tool_ignored.reason == ignored[0].reason
    assert not any(c.ignored for c in function_schema(google_tool, strict=False).provenance)


def test_spans_are_located_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from toollens.core.spans import locator as source_locator

    calls: list[Any] = []
    real = source_locator._parse

    def counting(text: str) -> Any:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(source_locator, "_parse", counting)
    fs = function_schema(google_tool, strict=False)
    assert [c.won for c in fs.parameter("city").candidates]  # candidates, no spans yet
    assert calls == []
    assert fs.provenance[0].span is not None
    for param in fs.parameters:
        assert all(c.span is not None for c in param.candidates)
    assert len(calls) == 1  # one read and parse per schema


def test_candidates_compare_equal_with_their_spans() -> None:
    first = function_schema(numpy_tool, strict=False).parameter("city").candidates
    second = function_schema(numpy_tool, strict=False).parameter("city").candidates
    assert first == second
    assert typing.cast(SourceSpan, first[0].span).start_line > 1
