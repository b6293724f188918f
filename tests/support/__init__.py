"""Helpers shared by the test modules: golden files, hostile inputs, corpora, fake adapters.

Nothing here is collected as a test. Test modules import it as ``support.<module>`` (the
``tests`` folder is on ``sys.path`` through its ``conftest.py``).
"""

from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent.parent
REPO_ROOT = TESTS_DIR.parent
# Modules and schema files the command line and the callable tables load by path.
CLI_FIXTURES = TESTS_DIR / "cli_fixtures"
