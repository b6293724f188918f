"""Version 2 of the tools in tools_v1.py.

``search`` gains a required parameter (a breaking change); ``weather`` only rewords its
descriptions (a description-only change).
"""

from __future__ import annotations


def search(query: str, category: str, limit: int = 10) -> list[str]:
    """Search the product catalogue for items matching a free-text query.

    Args:
        query: Words to look for in product names and descriptions.
        category: The catalogue section to search, such as "books" or "garden".
        limit: The largest number of results to return.
    """
    return [f"{category}:{query}"] * limit


def weather(city: str) -> str:
    """Report today's weather conditions and temperature for one city.

    Args:
        city: The city to report on, optionally followed by a country code.
    """
    return city
