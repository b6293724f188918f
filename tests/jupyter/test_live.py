"""Running edited source: errors as data with lines, renamed targets, namespace isolation."""

from __future__ import annotations

import inspect
import textwrap
import types
from typing import Any

import pytest

from toollens.jupyter.live import (
    LiveError,
    apply_source,
    define_from_source,
    defined_names,
    future_flags,
    source_of,
)

ORIGINAL = '''
def get_weather(city: str, units: str = "c") -> str:
    """Current weather.

    Args:
        city: The city.
        units: c or f.
    """
    return city
'''


def make_module(source: str, name: str = "tl_live_mod") -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__["__builtins__"] = __builtins__
    exec(compile(textwrap.dedent(source), f"<{name}>", "exec"), module.__dict__)
    return module


def define(source: str, base: dict[str, Any] | None = None, target: str | None = "get_weather"):  # type: ignore[no-untyped-def]
    return define_from_source(
        textwrap.dedent(source),
        base_globals=base if base is not None else {},
        filename="<tl-test-edit>",
        target_name=target,
    )


def test_defines_the_target_in_a_fresh_namespace() -> None:
    result = define(ORIGINAL)
    assert result.ok
    assert result.name == "get_weather"
    assert inspect.isfunction(result.value)
    assert result.note is None
    assert inspect.getsource(result.value).startswith("def get_weather")  # linecache entry


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        pytest.param("def f(x: int)\n    return x\n", 1, 14, id="missing colon"),
        pytest.param("def f(x):\n    return (x\n\n", 2, 12, id="unclosed paren"),
        pytest.param("def f(x):\n    return x\n  y = 1\n", 3, None, id="bad dedent"),
    ],
)
def test_syntax_errors_report_line_in_edited_text(
    source: str, line: int, column: int | None
) -> None:
    result = define(source, target="f")
    assert result.value is None
    assert result.error is not None
    assert result.error.kind == "syntax"
    assert result.error.line == line
    if column is not None:
        assert result.error.column == column
    assert result.error.message.startswith(("SyntaxError", "IndentationError"))


def test_exception_line_is_the_frame_in_the_edited_text() -> None:
    source = """\
    import math

    def get_weather(city: str) -> str:
        return city

    raise_here = 1 / 0
    """
    result = define(source)
    assert result.error == LiveError("exception", "ZeroDivisionError: division by zero", 6)
    assert str(result.error) == "line 6: ZeroDivisionError: division by zero"


def test_exception_inside_a_decorator_points_at_the_decorated_line() -> None:
    source = """\
    def boom(func):
        raise ValueError("no\\nsecond line")

    @boom
    def get_weather(city: str) -> str:
        return city
    """
    result = define(source)
    assert result.error is not None
    assert result.error.kind == "exception"
    assert result.error.message == "ValueError: no"  # one line, never a traceback
    assert result.error.line == 2  # the deepest frame in our text


def test_system_exit_from_user_code_becomes_an_error() -> None:
    result = define("import sys\nsys.exit(3)\n")
    assert result.error is not None
    assert result.error.kind == "exception"
    assert result.error.message == "SystemExit: 3"
    assert result.error.line == 2


def test_keyboard_interrupt_propagates() -> None:
    with pytest.raises(KeyboardInterrupt):
        define("raise KeyboardInterrupt\n")


def test_renamed_function_falls_back_to_the_last_definition_and_says_so() -> None:
    base = make_module(ORIGINAL).__dict__
    renamed = ORIGINAL.replace("def get_weather", "def get_forecast")
    result = define(renamed, base=base)
    assert result.ok
    assert result.name == "get_forecast"
    assert result.note is not None
    assert "'get_weather' is no longer defined" in result.note
    assert "'get_forecast'" in result.note


def test_no_definition_is_a_missing_error() -> None:
    result = define("x = 1\n")
    assert result.error is not None
    assert result.error.kind == "missing"


def test_decorator_that_returns_a_non_callable_is_an_error() -> None:
    source = """\
    def not_a_tool(func):
        return 42

    @not_a_tool
    def get_weather(city: str) -> str:
        return city
    """
    result = define(source)
    assert result.error is not None
    assert result.error.kind == "not-callable"
    assert "int" in result.error.message


def test_decorators_are_kept() -> None:
    source = """\
    import functools

    def traced(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        wrapper.traced = True
        return wrapper

    @traced
    def get_weather(city: str) -> str:
        return city
    """
    result = define(source)
    assert result.ok
    assert result.value.traced is True


def test_namespace_isolation_user_globals_unchanged_after_edits() -> None:
    module = make_module(ORIGINAL + "\nCOUNTER = [0]\n")
    before = dict(module.__dict__)
    original = module.get_weather
    edits = [
        ORIGINAL.replace("Current weather.", "Weather now."),
        ORIGINAL + "\nNEW_GLOBAL = 1\nCOUNTER = None\n",
        "def get_weather(:\n",
        ORIGINAL + "\nraise RuntimeError('late')\n",
    ]
    for edit in edits:
        result = define(edit, base=module.__dict__)
        if result.ok:
            assert result.value is not original
            assert result.value.__globals__ is not module.__dict__
    assert module.__dict__ == before
    assert module.get_weather is original
    assert "NEW_GLOBAL" not in module.__dict__


def test_module_globals_are_visible_to_the_edited_code() -> None:
    module = make_module("from typing import Annotated\nUNIT = 'celsius'\n" + ORIGINAL)
    edit = "def get_weather(city: Annotated[str, 'The city']) -> str:\n    return UNIT\n"
    result = define(edit, base=module.__dict__)
    assert result.ok
    assert result.value("x") == "celsius"
    assert result.value.__annotations__["city"].__metadata__ == ("The city",)


def test_module_level_prints_do_not_leak(capsys: pytest.CaptureFixture[str]) -> None:
    result = define("print('noise')\n" + ORIGINAL)
    assert result.ok
    assert capsys.readouterr().out == ""


def test_apply_source_writes_into_the_given_namespace() -> None:
    namespace: dict[str, Any] = {"__builtins__": __builtins__}
    result = apply_source(
        ORIGINAL, namespace=namespace, filename="<tl-test-apply>", target_name="get_weather"
    )
    assert result.ok
    assert namespace["get_weather"] is result.value


def test_future_annotations_flag_is_kept() -> None:
    module = make_module("from __future__ import annotations\n" + ORIGINAL)
    flags = future_flags(module.get_weather, module.__dict__)
    edit = "def get_weather(city: Undefined) -> str:\n    return city\n"
    plain = define(edit, base=module.__dict__)
    assert plain.error is not None  # NameError: the annotation is evaluated at definition
    lazy = define_from_source(
        edit,
        base_globals=module.__dict__,
        filename="<tl-f>",
        target_name="get_weather",
        flags=flags,
    )
    assert lazy.ok
    assert lazy.value.__annotations__ == {"city": "Undefined", "return": "str"}


def test_source_of_dedents_methods_and_refuses_builtins() -> None:
    class Holder:
        def method(self, x: int) -> int:
            """Doc."""
            return x

    info = source_of(Holder.method)
    assert info is not None
    assert info.text.startswith("def method(self")
    assert source_of(len) is None
    assert source_of(eval("lambda: 0")) is None  # defined in no file


def test_defined_names_in_source_order() -> None:
    source = "import os\nclass A: pass\nasync def b(): pass\ndef c(): pass\nx = 1\n"
    assert defined_names(source) == ["A", "b", "c"]
    assert defined_names("def (") == []
