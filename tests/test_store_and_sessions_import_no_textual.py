"""The core never imports the UI: engines, sessions and the store reach neither Textual nor gpuprep.tui.

This is the `[tool.importlinter]` contract of pyproject.toml, checked with grimp (the graph
import-linter builds) so that it runs in the ordinary test suite; grimp also sees imports
made inside functions, which a run-time check of `sys.modules` would miss.
"""

from __future__ import annotations

import subprocess
import sys

import grimp
import pytest

CORE = ["gpuprep.bank", "gpuprep.estimate", "gpuprep.harness", "gpuprep.sessions", "gpuprep.store"]
UI = ["textual", "gpuprep.tui"]


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("gpuprep", include_external_packages=True)


@pytest.mark.parametrize("core", CORE)
def test_the_core_package_has_no_import_chain_to_the_ui(graph, core):
    for ui in UI:
        if ui in graph.modules and core in graph.modules:
            chain = graph.find_shortest_chain(importer=core, imported=ui, as_packages=True)
            assert chain is None, f"{core} reaches {ui} through {' -> '.join(chain)}"


def test_the_tui_really_is_in_the_graph(graph):
    # Guards the test above against passing because the graph is empty.
    assert "gpuprep.tui.app" in graph.modules and "textual" in graph.modules


def test_running_a_practice_session_loads_no_textual():
    code = (
        "import sys, gpuprep.sessions.practice, gpuprep.sessions.stats, gpuprep.store.database; "
        "print('textual' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
