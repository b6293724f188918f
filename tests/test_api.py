"""The public API: exports, and that importing toollens stays light."""

from __future__ import annotations

import subprocess
import sys

import toollens


def test_every_public_name_is_exported_once() -> None:
    assert len(toollens.__all__) == len(set(toollens.__all__))
    for name in toollens.__all__:
        assert hasattr(toollens, name), name


def test_import_does_not_load_ui_libraries() -> None:
    code = (
        "import sys, toollens; "
        "toollens.function_schema(lambda x: x, strict=False); "
        "bad = [m for m in ('IPython', 'ipywidgets', 'traitlets', 'anywidget') "
        "if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


def test_load_ext_imports_no_widget_library() -> None:
    """``%load_ext toollens`` registers the magic; widgets load only when one is shown."""
    code = (
        "import sys; from IPython.core.interactiveshell import InteractiveShell; "
        "shell = InteractiveShell.instance(); shell.run_line_magic('load_ext', 'toollens'); "
        "assert 'toolschema' in shell.magics_manager.magics['line']; "
        "print(','.join(m for m in ('ipywidgets', 'anywidget') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


def test_import_is_lazy_about_pydantic() -> None:
    code = "import sys, toollens; print('pydantic' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False"


def test_unknown_attribute_is_an_attribute_error() -> None:
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        toollens.nope  # noqa: B018
