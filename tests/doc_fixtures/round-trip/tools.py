"""The reader's ``tools.py`` of docs/round-trip.md: its ``get_weather`` as the page defines
it, and the ``divide`` its fuzz example finds a division by zero in."""

from typing import Annotated

from pydantic import Field


def get_weather(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3) -> str:
    """Forecast for a city."""
    return f"{city}: {days} days"


def divide(total: int, parts: int) -> float:
    """Split a total into equal parts."""
    return total / parts
