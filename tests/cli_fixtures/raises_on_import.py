"""A module whose import fails, for the command-line error tests."""

raise RuntimeError("the database is not configured")
