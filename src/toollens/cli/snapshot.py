"""``toollens snapshot``: write the lock (the command is registered by ``toollens.cli.project``)."""

from __future__ import annotations

import argparse

from toollens.cli.common import EXIT_OK, toolset_lock

__all__ = ["run_snapshot"]


def run_snapshot(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: cli.project (~135 ms); `import toollens.cli` does not load it
    from toollens.cli.project import write_snapshot

    return write_snapshot(args, toolset_lock(args)), EXIT_OK
