"""A module of two documented tools (``add``, ``scale``), as source text for a test to write."""

ADD_AND_SCALE = '''\
def add(a: int, b: int) -> int:
    """Add two numbers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


def scale(x: float, factor: float) -> float:
    """Scale a number.

    Args:
        x: The number.
        factor: The factor.
    """
    return x * factor
'''
