"""Every test runs with its own gpuprep home: the real user's settings and store are never read."""

import pytest


@pytest.fixture(autouse=True)
def isolated_gpuprep_home(tmp_path_factory, monkeypatch):
    # A GPU saved in a developer's settings would otherwise change what `show` and `answer` use.
    home = tmp_path_factory.mktemp("gpuprep-home")
    monkeypatch.setenv("GPUPREP_HOME", str(home))
    return home
