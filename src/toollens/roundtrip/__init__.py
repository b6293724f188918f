"""The round trip: a model's arguments -> validation -> the Python call -> what goes back.

``try_call`` sends one set of arguments through a function as the OpenAI Agents SDK would;
``fuzz`` generates many from the schema the model sees (Hypothesis) and reports the ones the
function cannot take. Nothing here imports a UI library.
"""

from toollens.roundtrip.calling import DEFAULT_TIMEOUT, try_call
from toollens.roundtrip.fuzzing import DEFAULT_FUZZ_TIMEOUT, fuzz
from toollens.roundtrip.records import (
    CallResult,
    CallStatus,
    FindingKind,
    FuzzFinding,
    FuzzReport,
)

__all__ = [
    "DEFAULT_FUZZ_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "CallResult",
    "CallStatus",
    "FindingKind",
    "FuzzFinding",
    "FuzzReport",
    "fuzz",
    "try_call",
]
