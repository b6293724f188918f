"""Bundled example tools, one per lesson, importable without optional packages.

Each is a real, working function over a small in-memory data set:

- :func:`get_weather`: a Google-style docstring that wins over ``Annotated`` descriptions,
  a ``Literal`` unit, a constrained day count with a default.
- :func:`search_documents`: a NumPy-style docstring, nested pydantic filter models, list
  parameters and ``Field`` constraints.
- :func:`book_meeting`: a Sphinx-style docstring and a schema strict mode rewrites heavily
  (optional fields with ``None`` defaults, a discriminated union, a non-``None`` default,
  nested models, a ``$ref`` carrying a description).
- :func:`lookup_order`: a first parameter that is an injected run context. Its type,
  :class:`ToolContext`, is toollens's own stand-in for an SDK context, recognised like the
  SDKs' own (so ``toollens check toollens.examples`` reads every example with no option).
  A context class of your own is passed as ``context_types=[Class]`` in Python and
  ``--context-type MODULE:CLASS`` on the command line.

``EXAMPLES`` maps names to the functions; ``EXAMPLE_OPTIONS`` holds the options each needs.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

__all__ = [
    "EXAMPLES",
    "EXAMPLE_CONTEXT_TYPES",
    "EXAMPLE_OPTIONS",
    "Attendee",
    "Booking",
    "DateRange",
    "InPerson",
    "OrderStatus",
    "SearchFilters",
    "SearchHit",
    "ShopState",
    "ToolContext",
    "VideoCall",
    "book_meeting",
    "get_weather",
    "lookup_order",
    "search_documents",
]

# ---------------------------------------------------------------------------- get_weather

_CONDITIONS = ("clear", "partly cloudy", "overcast", "light rain", "windy")


def get_weather(
    city: Annotated[str, "City name"],
    unit: Literal["celsius", "fahrenheit"] = "celsius",
    days: Annotated[int, Field(ge=1, le=7, description="How many days to forecast")] = 1,
) -> str:
    """Get the weather forecast for a city.

    The forecast is made up from the city name, so the same city always gets the
    same answer; swap in a real weather service for production.

    Args:
        city: The city to forecast, e.g. "Paris" or "San Francisco, CA".
        unit: The temperature unit of the answer.

    Returns:
        One line per day: the condition and the high temperature.
    """
    digest = hashlib.sha256(city.strip().lower().encode()).digest()
    lines = []
    for day in range(days):
        high_c = 8 + digest[day] % 22
        high = high_c if unit == "celsius" else round(high_c * 9 / 5 + 32)
        symbol = "°C" if unit == "celsius" else "°F"
        condition = _CONDITIONS[digest[day + 8] % len(_CONDITIONS)]
        lines.append(f"day {day + 1}: {condition}, high {high}{symbol}")
    return f"{city}: " + "; ".join(lines)


# ----------------------------------------------------------------------- search_documents


class DateRange(BaseModel):
    """A closed range of publication dates."""

    start: dt.date | None = Field(None, description="First day included (ISO 8601)")
    end: dt.date | None = Field(None, description="Last day included (ISO 8601)")


class SearchFilters(BaseModel):
    """Narrow a search down; every filter given must match."""

    authors: list[str] = Field(default_factory=list, description="Match any of these authors")
    tags: list[str] = Field(default_factory=list, description="Require all of these tags")
    published: DateRange | None = Field(None, description="Publication date range")


class SearchHit(BaseModel):
    """One matching document."""

    doc_id: str
    title: str
    score: float = Field(ge=0, le=1, description="Relevance, 1 is best")


@dataclass(frozen=True)
class _Document:
    doc_id: str
    title: str
    body: str
    author: str
    tags: frozenset[str]
    published: dt.date


_CORPUS = (
    _Document(
        "doc-1",
        "Strict mode for tool schemas",
        "Strict mode closes every object and makes every property required.",
        "ada",
        frozenset({"schemas", "openai"}),
        dt.date(2024, 8, 6),
    ),
    _Document(
        "doc-2",
        "Docstring styles compared",
        "Google, NumPy and Sphinx docstrings describe parameters differently.",
        "grace",
        frozenset({"docstrings"}),
        dt.date(2023, 11, 2),
    ),
    _Document(
        "doc-3",
        "Discriminated unions in JSON Schema",
        "A discriminator tells the model which variant of a union it is writing.",
        "ada",
        frozenset({"schemas", "pydantic"}),
        dt.date(2025, 2, 14),
    ),
)


def search_documents(
    query: str,
    filters: SearchFilters | None = None,
    limit: Annotated[int, Field(ge=1, le=50)] = 5,
    fields: list[Literal["title", "body", "author"]] | None = None,
) -> list[SearchHit]:
    """Search the documentation for pages matching a query.

    Parameters
    ----------
    query
        Words to look for; a document matches when it contains any of them.
    filters
        Optional filters on author, tags and publication date.
    limit
        The most hits to return.
    fields
        Which fields to search; all of them when omitted.

    Returns
    -------
    list of SearchHit
        The hits, best first.
    """
    words = [w for w in query.lower().split() if w]
    searched = fields or ["title", "body", "author"]
    hits = []
    for doc in _CORPUS:
        if filters is not None and not _matches(doc, filters):
            continue
        text = " ".join(str(getattr(doc, f)) for f in searched).lower()
        found = sum(1 for w in words if w in text)
        if found:
            hits.append(SearchHit(doc_id=doc.doc_id, title=doc.title, score=found / len(words)))
    hits.sort(key=lambda hit: (-hit.score, hit.doc_id))
    return hits[:limit]


def _matches(doc: _Document, filters: SearchFilters) -> bool:
    if filters.authors and doc.author not in filters.authors:
        return False
    if not set(filters.tags) <= doc.tags:
        return False
    span = filters.published
    if span is not None:
        if span.start is not None and doc.published < span.start:
            return False
        if span.end is not None and doc.published > span.end:
            return False
    return True


# --------------------------------------------------------------------------- book_meeting


class VideoCall(BaseModel):
    """Meet online."""

    kind: Literal["video"]
    service: Literal["meet", "zoom", "teams"] = "meet"


class InPerson(BaseModel):
    """Meet in a room."""

    kind: Literal["in_person"]
    room: str = Field(description="Room name or number")
    building: str | None = Field(None, description="Building, when the room name is ambiguous")


class Attendee(BaseModel):
    """Someone invited to the meeting."""

    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+$")
    name: str | None = None
    optional: bool = False


class Booking(BaseModel):
    """A confirmed booking."""

    booking_id: str
    title: str
    start: dt.datetime
    end: dt.datetime
    attendees: list[Attendee]
    location: VideoCall | InPerson = Field(discriminator="kind")


def book_meeting(
    title: str,
    start: dt.datetime,
    organizer: Attendee,
    attendees: list[Attendee],
    location: Annotated[VideoCall | InPerson, Field(discriminator="kind")],
    duration_minutes: int = 30,
    agenda: str | None = None,
) -> Booking:
    """Book a meeting and send the invitations.

    :param title: Subject line of the invitation.
    :param start: Start time, ISO 8601 with a UTC offset.
    :param organizer: Who sends the invitation.
    :param attendees: Everyone to invite; at least one person.
    :param location: Where the meeting happens: a video call or a room.
    :param duration_minutes: Length of the meeting.
    :param agenda: Optional agenda, sent with the invitation.
    :returns: The confirmed booking.
    """
    if not attendees:
        raise ValueError("invite at least one attendee")
    everyone = [organizer, *(a for a in attendees if a.email != organizer.email)]
    key = f"{title}|{start.isoformat()}|{','.join(a.email for a in everyone)}"
    return Booking(
        booking_id="bk-" + hashlib.sha256(key.encode()).hexdigest()[:10],
        title=title,
        start=start,
        end=start + dt.timedelta(minutes=duration_minutes),
        attendees=everyone,
        location=location,
    )


# --------------------------------------------------------------------------- lookup_order

_C = TypeVar("_C")


class ToolContext(Generic[_C]):
    """A run context handed to a tool by the agent runtime, never by the model.

    Agent SDKs inject one as a tool's first parameter (the OpenAI Agents SDK's
    ``RunContextWrapper``, pydantic-ai's ``RunContext``); this stand-in keeps the
    examples free of those packages.
    """

    def __init__(self, context: _C) -> None:
        self.context = context


@dataclass
class ShopState:
    """What the runtime knows that the model must not choose: who is asking."""

    customer_id: str
    orders: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class OrderStatus:
    """Where an order is."""

    order_id: str
    status: Literal["processing", "shipped", "delivered", "not found"]
    items: list[str] | None = None


def lookup_order(
    ctx: ToolContext[ShopState],
    order_id: Annotated[str, Field(pattern=r"^ORD-\d{6}$", description="Order number")],
    include_items: bool = False,
) -> OrderStatus:
    """Look up the status of one of the current customer's orders.

    Args:
        order_id: The order number printed on the receipt, e.g. ORD-004211.
        include_items: Also list the items in the order.
    """
    items = ctx.context.orders.get(order_id)
    if items is None:
        return OrderStatus(order_id, "not found")
    status: Literal["processing", "shipped", "delivered"] = (
        "delivered" if len(items) % 3 == 0 else "shipped" if len(items) % 3 == 1 else "processing"
    )
    return OrderStatus(order_id, status, list(items) if include_items else None)


EXAMPLE_CONTEXT_TYPES: tuple[type, ...] = (ToolContext,)
"""Context types the examples use (known already; kept for code that passes them)."""

EXAMPLES: dict[str, Callable[..., Any]] = {
    "get_weather": get_weather,
    "search_documents": search_documents,
    "book_meeting": book_meeting,
    "lookup_order": lookup_order,
}

EXAMPLE_OPTIONS: dict[str, dict[str, Any]] = {
    "lookup_order": {"context_types": EXAMPLE_CONTEXT_TYPES},
}
"""Options an example needs beyond the defaults, keyed like ``EXAMPLES``."""
