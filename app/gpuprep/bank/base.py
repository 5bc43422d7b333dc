"""The base every bank model shares: unknown fields are errors, docstrings become schema text."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

#: Ids are lowercase slugs: 'roofline-gemm-time', 'h100_sxm', 'vector_add'.
ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"


class BankModel(BaseModel):
    """A model of (part of) a bank YAML file."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, frozen=False)
