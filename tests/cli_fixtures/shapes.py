"""The callable shapes people write, one per name, for the shape table (test_callable_shapes).

Each is importable as ``shapes:NAME`` so the command line sees exactly what the library,
``report()`` and the explorer see. The module uses ``from __future__ import annotations`` on
purpose: every annotation is a string that must be resolved where it was written.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from shapes_base import convert


def no_return_annotation(city: str):  # type: ignore[no-untyped-def]
    """Look up the current weather conditions for one city.

    Args:
        city: The city name, optionally followed by a country code.
    """
    return city


def returns_none(city: str) -> None:
    """Remember one city as the user's home for later weather questions.

    Args:
        city: The city name, optionally followed by a country code.
    """


def with_kwargs(city: str, **options: str) -> str:
    """Look up the weather for one city with free-form lookup options.

    Args:
        city: The city name, optionally followed by a country code.
        options: Extra lookup options, by name.
    """
    return city


class Search:
    """A search service whose methods are tools."""

    def run(self, query: str) -> str:
        """Search the catalogue for products matching a free-text query.

        Args:
            query: Words to look for in product names and descriptions.
        """
        return query

    @staticmethod
    def static_run(query: str) -> str:
        """Search the catalogue for products matching a free-text query.

        Args:
            query: Words to look for in product names and descriptions.
        """
        return query

    @classmethod
    def class_run(cls, query: str) -> str:
        """Search the catalogue for products matching a free-text query.

        Args:
            query: Words to look for in product names and descriptions.
        """
        return query


bound_run = Search().run


class StaticCall:
    """Double a whole number and return the result to the caller."""

    @staticmethod
    def __call__(number: int) -> int:
        """Double it.

        Args:
            number: The whole number to double.
        """
        return number * 2


static_call = StaticCall()


class ClassCall:
    """Double a whole number and return the result to the caller."""

    @classmethod
    def __call__(cls, number: int) -> int:
        """Double it.

        Args:
            number: The whole number to double.
        """
        return number * 2


class_call = ClassCall()


def _logged(func: Any) -> Any:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


class WrappedCall:
    """Double a whole number and return the result to the caller."""

    @_logged
    def __call__(self, number: int) -> int:
        """Double it.

        Args:
            number: The whole number to double.
        """
        return number * 2


wrapped_call = WrappedCall()


class SignatureCall:
    """Double a whole number and return the result to the caller."""

    def __call__(self, **kwargs: Any) -> int:
        """Double it.

        Args:
            number: The whole number to double.
        """
        return int(kwargs["number"]) * 2


def _signature_with(annotation: Any) -> Any:
    import inspect

    first, rest = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature(
        [inspect.Parameter("self", first), inspect.Parameter("number", rest, annotation=annotation)]
    )


SignatureCall.__call__.__signature__ = _signature_with(int)  # type: ignore[attr-defined]
signature_call = SignatureCall()


class DispatchCall:
    """Describe a value of any supported type."""

    @functools.singledispatchmethod
    def __call__(self, value: Any) -> str:
        return repr(value)

    @__call__.register
    def _(self, value: int) -> str:
        return f"int {value}"


dispatch_call = DispatchCall()


class _Passthrough:
    """A descriptor whose binding toollens cannot know before the call."""

    def __init__(self, func: Any) -> None:
        self.func = func

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        return functools.partial(self.func, obj)


class DescriptorCall:
    """Double a whole number and return the result to the caller."""

    @_Passthrough
    def __call__(self, number: int) -> int:
        return number * 2


descriptor_call = DescriptorCall()


class DocumentedCall:
    """Double a whole number and return the result to the caller."""

    def __call__(self, number: int) -> int:
        """Double it (this summary loses to the class's).

        Args:
            number: The whole number to double.
        """
        return number * 2


documented_call = DocumentedCall()


class CallOnlyDoc:
    def __call__(self, number: int) -> int:
        """Double a whole number and return the result to the caller.

        Args:
            number: The whole number to double.
        """
        return number * 2


call_only_doc = CallOnlyDoc()


class NestedTypeTool:
    """Store one payload in the archive and return its receipt id."""

    class Payload(BaseModel):
        """What to store."""

        title: str
        size: int

    def __call__(self, payload: Payload) -> str:
        """Store it.

        Args:
            payload: The document title and its size in bytes.
        """
        return payload.title


nested_type_tool = NestedTypeTool()


class _RaisingDoc(type):
    @property
    def __doc__(cls) -> str:  # type: ignore[override]
        raise RuntimeError("the docstring is generated from a database")


class RaisingDocTool(metaclass=_RaisingDoc):
    def __call__(self, number: int) -> int:
        return number * 2


raising_doc_tool = RaisingDocTool()


class Converter:
    """A decorator class: instances take the wrapped function's name and docstring."""

    def __init__(self, func: Any) -> None:
        functools.update_wrapper(self, func)
        self.func = func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)


updated_wrapper = Converter(convert)


class AsyncCall:
    """Fetch a page of results for a free-text query from the remote index."""

    async def __call__(self, query: str, page: int = 1) -> list[str]:
        """Fetch it.

        Args:
            query: Words to look for in the remote index.
            page: Which page of results, counting from one.
        """
        return [query]


async_call = AsyncCall()


def _triple(value: int) -> int:
    """Triple it.

    Args:
        value: The whole number to triple.
    """
    return value * 3


class KeepsReceiverCall:
    """Triple a whole number and return the result to the caller."""

    # issue 27: the wrapper keeps `self`, so _triple is called with the model's arguments only
    @functools.wraps(_triple)
    def __call__(self, *args: Any, **kwargs: Any) -> int:
        return _triple(*args, **kwargs)


keeps_receiver_call = KeepsReceiverCall()


class SignatureElsewhere:
    """A __signature__ naming a parameter the code does not have: refused by the binding guard."""

    def __call__(self, count: int) -> int:
        return count


SignatureElsewhere.__call__.__signature__ = _signature_with(int)  # type: ignore[attr-defined]
signature_elsewhere = SignatureElsewhere()
