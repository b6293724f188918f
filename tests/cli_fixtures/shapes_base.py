"""A function whose annotations name a type only this module imports (see shapes.py)."""

from __future__ import annotations

from decimal import Decimal


def convert(amount: Decimal, currency: str) -> str:
    """Convert an amount of money into another currency.

    Args:
        amount: How much money, in the source currency.
        currency: The ISO 4217 code of the target currency.
    """
    return f"{amount} {currency}"
