"""One spelling for annotations on every supported Python (3.10's Optional included)."""

from __future__ import annotations

import collections.abc
import typing
from typing import Annotated, Any, Literal, Optional, TypeVar, Union

import pytest

from toollens.core.annotation_text import annotation_text
from toollens.core.function_schema import function_schema
from toollens.render.display import type_text

T = TypeVar("T")


class Outer:
    class Inner:
        pass


CASES = [
    pytest.param(int, "int", id="builtin"),
    pytest.param(Any, "Any", id="any"),
    pytest.param(None, "None", id="none"),
    pytest.param(type(None), "None", id="nonetype"),
    pytest.param(Outer.Inner, "Outer.Inner", id="nested-class"),
    pytest.param(Optional[dict[str, int]], "dict[str, int] | None", id="optional"),
    pytest.param(dict[str, int] | None, "dict[str, int] | None", id="pep604"),
    pytest.param(Union[int, str], "int | str", id="union"),
    pytest.param(Union[None, int], "None | int", id="union-order-kept"),
    pytest.param(typing.List[int], "list[int]", id="typing-list"),
    pytest.param(typing.List, "list", id="bare-typing-list"),
    pytest.param(typing.Dict[str, Outer], "dict[str, Outer]", id="typing-dict"),
    pytest.param(tuple[int, ...], "tuple[int, ...]", id="variadic-tuple"),
    pytest.param(tuple[()], "tuple[()]", id="empty-tuple"),
    pytest.param(typing.Tuple[()], "tuple[()]", id="typing-empty-tuple"),
    pytest.param(typing.Callable[[int, str], bool], "Callable[[int, str], bool]", id="callable"),
    pytest.param(collections.abc.Callable[..., str], "Callable[..., str]", id="abc-callable"),
    pytest.param(typing.Sequence[Outer.Inner], "Sequence[Outer.Inner]", id="abc-alias"),
    pytest.param(Literal["c", "f"], "Literal['c', 'f']", id="literal"),
    pytest.param(Optional[Literal["c", 1]], "Literal['c', 1] | None", id="optional-literal"),
    pytest.param(list[Optional[int]], "list[int | None]", id="nested-optional"),
    pytest.param(Annotated[int, "count"], "Annotated[int, 'count']", id="annotated"),
    pytest.param(typing.Type[int], "type[int]", id="typing-type"),
    pytest.param(typing.ForwardRef("Later"), "Later", id="forward-ref"),
    pytest.param("Later", "Later", id="string"),
    pytest.param(T, "~T", id="typevar"),
    pytest.param(list[T], "list[~T]", id="generic-typevar"),
]


@pytest.mark.parametrize(("tp", "expected"), CASES)
def test_annotation_text(tp: Any, expected: str) -> None:
    assert annotation_text(tp) == expected


def optional_by_default(pairs: dict[str, int] | None = None, limit: Optional[int] = None) -> str:
    """Python 3.10's get_type_hints rewrites both annotations to typing.Optional."""
    return str(pairs) + str(limit)


def test_views_spell_resolved_hints_the_same_on_every_version() -> None:
    fs = function_schema(optional_by_default, strict=False)
    assert [p.annotation_text for p in fs.parameters] == ["dict[str, int] | None", "int | None"]
    assert [type_text(p.annotation) for p in fs.parameters] == [
        "dict[str, int] | None",
        "int | None",
    ]
