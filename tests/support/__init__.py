"""Helpers shared by the test modules: golden files, hostile inputs, corpora, fake adapters.

Nothing here is collected as a test. Test modules import it as ``support.<module>`` (the
``tests`` folder is on ``sys.path`` through its ``conftest.py``).
"""
