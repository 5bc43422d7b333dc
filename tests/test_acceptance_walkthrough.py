"""Defects found by walking through the README as a new user, each pinned by the behaviour fixed."""

from __future__ import annotations

import pytest

from gpuprep.store.database import Store, StoreError


def test_a_home_that_is_a_file_is_reported_not_a_traceback(tmp_path):
    home = tmp_path / "home"
    home.write_text("not a folder")
    with pytest.raises(StoreError, match="a file, not a folder.*GPUPREP_HOME"):
        Store(home / "progress.db")


def test_a_database_that_cannot_be_opened_is_left_where_it_is(tmp_path):
    # sqlite cannot open a folder: an OperationalError, like a read-only file or folder. The
    # progress there may be good, so it must not be moved aside as if it were corrupt.
    unopenable = tmp_path / "progress.db"
    unopenable.mkdir()
    with pytest.raises(StoreError, match="cannot open the progress database.*writable"):
        Store(unopenable)
    assert unopenable.is_dir()
    assert [p.name for p in tmp_path.iterdir()] == ["progress.db"]
