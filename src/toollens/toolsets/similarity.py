"""Which descriptions are so alike that a model cannot tell their tools apart.

Two descriptions are near-duplicates when their word sequences match for at least
``THRESHOLD`` of their length (``difflib.SequenceMatcher.ratio`` on words, after case and
punctuation are dropped). Comparing every pair that way is quadratic in Python, so a pair is
only compared when its word sets already overlap enough (a Jaccard bound the ratio cannot
beat), which is a set operation in C; a 1,000-tool set stays well under a second.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence

__all__ = ["THRESHOLD", "similar_pairs", "words"]

THRESHOLD = 0.9
"""The word-sequence similarity at and above which two descriptions are near-duplicates."""

_MIN_WORDS = 3  # "Search." and "Search!" say too little to compare
_WORD = re.compile(r"\w+")


def words(text: str) -> tuple[str, ...]:
    """The lower-cased words of ``text``."""
    return tuple(_WORD.findall(text.lower()))


def similar_pairs(
    texts: Sequence[str], threshold: float = THRESHOLD
) -> Iterator[tuple[int, int, float]]:
    """``(i, j, ratio)`` for every pair ``i < j`` of near-duplicate texts, in index order."""
    tokens = [words(text) for text in texts]
    sets = [frozenset(t) for t in tokens]
    for i in range(len(texts)):
        if len(tokens[i]) < _MIN_WORDS:
            continue
        for j in range(i + 1, len(texts)):
            if len(tokens[j]) < _MIN_WORDS or not _may_match(
                tokens[i], tokens[j], sets[i], sets[j], threshold
            ):
                continue
            ratio = difflib.SequenceMatcher(None, tokens[i], tokens[j], autojunk=False).ratio()
            if ratio >= threshold:
                yield i, j, ratio


def _may_match(
    a: tuple[str, ...], b: tuple[str, ...], sa: frozenset[str], sb: frozenset[str], threshold: float
) -> bool:
    # ratio = 2M / (|a| + |b|), and M (matched words) is at most the shorter length and at
    # most the multiset overlap, which the set overlap bounds from below only loosely: use
    # the cheap length bound, then the distinct-word bound scaled by repeats.
    shorter, total = min(len(a), len(b)), len(a) + len(b)
    if 2 * shorter < threshold * total:
        return False
    common = len(sa & sb)
    repeats = max(len(a) - len(sa), len(b) - len(sb))
    return 2 * (common + repeats) >= threshold * total
