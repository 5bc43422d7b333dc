"""The JSON Schema editors use is generated from the models and the bundled files point at it."""

from __future__ import annotations

import json
from pathlib import Path

from gpuprep.bank.schema import schema_documents

ROOT = Path(__file__).resolve().parents[1]


def test_committed_schemas_match_the_models():
    for name, document in schema_documents().items():
        committed = json.loads((ROOT / "docs" / "schema" / f"{name}.schema.json").read_text())
        assert committed == document, (
            f"docs/schema/{name}.schema.json is stale: run `gpuprep bank schema --out docs/schema`"
        )


def test_every_bundled_yaml_file_names_its_schema():
    expected = {"questions": "questions", "rubrics": "rubric", "hardware": "hardware"}
    for folder, schema in expected.items():
        for path in (ROOT / folder).glob("*.yaml"):
            first = path.read_text().splitlines()[0]
            assert (
                first == f"# yaml-language-server: $schema=../docs/schema/{schema}.schema.json"
            ), path
    for path in (ROOT / "questions" / "plans").glob("*.yaml"):
        assert path.read_text().startswith(
            "# yaml-language-server: $schema=../../docs/schema/plan.schema.json"
        ), path
    for path in (ROOT / "drills").glob("*/drill.yaml"):
        assert path.read_text().startswith(
            "# yaml-language-server: $schema=../../docs/schema/drill.schema.json"
        ), path


def test_the_schema_rejects_unknown_fields():
    question = schema_documents()["questions"]["$defs"]["Question"]
    assert question["additionalProperties"] is False
    assert "strong_signals" in json.dumps(schema_documents()["questions"])
