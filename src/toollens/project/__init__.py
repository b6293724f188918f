"""A project's tools: the ``[tool.toollens]`` table, the lock file, GitHub annotations.

This package reads and writes files, so it lives outside ``core``; the command line and CI
use it. The engine calls (reports, diffs) all go through ``toollens.core``.
"""

from toollens.project.config import LOCK_FILENAME, ProjectConfig, ProjectError, load_config

__all__ = ["LOCK_FILENAME", "ProjectConfig", "ProjectError", "load_config"]
