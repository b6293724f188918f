"""Every test server records its pid, so a test can prove the process is gone afterwards."""

from __future__ import annotations

import os


def record_pid() -> None:
    path = os.environ.get("TOOLLENS_TEST_PIDFILE")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
