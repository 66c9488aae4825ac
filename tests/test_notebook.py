"""The example notebook runs from top to bottom (so it never goes stale)."""

from __future__ import annotations

import signal

import pytest

from .support import ROOT

NOTEBOOK = ROOT / "examples" / "reading-a-learned-model.ipynb"


@pytest.mark.slow
def test_the_example_notebook_runs(pracmln, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # nbclient adds its event loop's handlers for SIGINT and SIGTERM while it runs and
    # removes them after, leaving Python's defaults, not what was there before (where
    # its loop runs in this thread): given back here, as every test gives back the
    # process (conftest)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(NOTEBOOK.parent.parent)}}).execute()
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    shown = "".join(str(o.get("data", {}).get("text/html", "")) + str(o.get("text", "")) for o in outputs)
    assert "pracmln-poss-theory" in shown  # the theory rendered as a notebook table
    assert "entailed: yes" in shown
