"""`gpuprep bank stats --json` gives the counts and ids scripts rely on."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gpuprep.cli.main import app

FIXTURE_BANK = Path(__file__).parent / "fixtures" / "bank_ok"


def _stats(*args: str) -> dict:
    result = CliRunner().invoke(app, ["bank", "stats", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_stats_json_has_the_documented_keys():
    stats = _stats()

    assert {"questions", "by_kind", "by_topic", "plans", "ids", "ids_by_kind"} <= set(stats)
    assert stats["questions"] == len(stats["ids"]) == sum(stats["by_kind"].values())
    assert sorted(sum(stats["ids_by_kind"].values(), [])) == sorted(stats["ids"])
    assert stats["plans"] >= 1


def test_an_extra_bank_merges_with_the_built_in_one():
    alone = _stats()

    merged = _stats("--bank", str(FIXTURE_BANK))

    assert merged["questions"] == alone["questions"] + 2
    assert "basics-warp" in merged["ids_by_kind"]["concept"]
    assert merged["by_topic"]["basics"] == 2


def test_the_built_in_bank_has_every_kind():
    assert set(_stats()["by_kind"]) == {"concept", "estimation", "debugging", "design", "coding"}
