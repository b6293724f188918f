"""Version 1 of two example tools, for the command-line tests (see tools_v2.py)."""

from __future__ import annotations


def search(query: str, limit: int = 10) -> list[str]:
    """Search the product catalogue for items matching a free-text query.

    Args:
        query: Words to look for in product names and descriptions.
        limit: The largest number of results to return.
    """
    return [query] * limit


def weather(city: str) -> str:
    """Report the current weather conditions for one city.

    Args:
        city: The city name, optionally followed by a country code.
    """
    return city


def tag(labels: set[str]) -> str:
    """Attach labels to the current document for later filtering.

    Args:
        labels: The distinct labels to attach to the document.
    """
    return ",".join(sorted(labels))


class Catalogue:
    """A namespace, so a dotted attribute path (Catalogue.lookup) can be tested."""

    @staticmethod
    def lookup(sku: str) -> str:
        """Look up one product by its stock-keeping unit code.

        Args:
            sku: The stock-keeping unit code printed on the product label.
        """
        return sku


def configure(**options: str) -> None:
    """Set named options on the service; strict mode cannot express free-form keywords.

    Args:
        options: Option names mapped to their new values.
    """


def score(scores: dict[str, int]) -> None:
    """Record a score for each player; strict mode cannot express an open mapping.

    Args:
        scores: Player names mapped to the points they earned this round.
    """


NOT_A_TOOL = 42
