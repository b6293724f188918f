"""Tools written the way real ones often are: the fixer's test module (copied before use)."""

from typing import Annotated

from pydantic import BaseModel, Field


class Window(BaseModel):
    """A time window."""

    start: str
    end: str


def find_orders(
    customer: str,  # the customer's account id
    status: Annotated[str, Field(description="order status: open, shipped or closed")],
    limit=20,
) -> list[str]:
    """Find a customer's orders.

    Args:
        customer: the customer's account id, e.g. "C-1042".
        status: the status.
        page: which page of results to return.

    Returns:
        The order ids.
    """
    return [customer, status, str(limit)]


def lookup_city(city: str, country: str = None) -> str:  # noqa: RUF013
    """Look a city up.

    Args:
        city: the city's name, e.g. "Paris".
        country: the country it is in, when the name is ambiguous.
    """
    return city if country is None else f"{city}, {country}"


async def refund(order_id: str, amount_cents: int, window: Window) -> str:
    """Refund part of an order.

    Args:
        order_id: the order to refund, e.g. "O-77".
        amount_cents: how much to refund, in cents.
        reason: why the refund is made.
        window: the window in which the refund is valid.
    """
    return order_id  # a comment the fix keeps
