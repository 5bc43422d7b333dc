"""JSON Schema for each bank file type, generated from the pydantic models."""

from __future__ import annotations

from typing import Any

from gpuprep.bank.base import BankModel
from gpuprep.bank.drill import Drill
from gpuprep.bank.hardware import Hardware
from gpuprep.bank.plan import Plan
from gpuprep.bank.question import QuestionFile
from gpuprep.bank.rubric_template import RubricTemplate

#: Schema name -> model; the names are the files' `$schema` targets.
SCHEMAS: dict[str, type[BankModel]] = {
    "questions": QuestionFile,
    "rubric": RubricTemplate,
    "hardware": Hardware,
    "drill": Drill,
    "plan": Plan,
}


def schema_documents() -> dict[str, dict[str, Any]]:
    """Each file type's JSON Schema, by name."""
    documents = {}
    for name, model in SCHEMAS.items():
        document = model.model_json_schema()
        document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        documents[name] = document
    return documents
