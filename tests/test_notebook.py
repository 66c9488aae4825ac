"""The example notebook runs from top to bottom (so it never goes stale)."""

from __future__ import annotations

import pytest

from .support import ROOT

NOTEBOOK = ROOT / "examples" / "reading-a-learned-model.ipynb"


@pytest.mark.slow
def test_the_example_notebook_runs(pracmln, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent.parent)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    shown = "".join(str(o.get("data", {}).get("text/html", "")) + str(o.get("text", "")) for o in outputs)
    assert "pracmln-poss-theory" in shown  # the theory rendered as a notebook table
    assert "entailed: yes" in shown
