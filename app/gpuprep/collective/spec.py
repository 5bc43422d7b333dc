"""The model of `drills/<id>/collective.yaml`: a drill run on N ranks at once.

Named apart from `drill.yaml` on purpose: the bank's single-GPU loader reads every
`drills/*/drill.yaml` with its own model, and a collective has no shapes, no roofline and no
Triton track. This model is the single description of the file; `to_request` turns it into
the judge's plain-JSON request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gpuprep.collective.protocol import CaseSpec, Request

SPEC_NAME = "collective.yaml"


class CollectiveModel(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Case(CollectiveModel):
    """One size every rank's tensor is checked (or timed) at."""

    label: str
    """What the size exercises: 'one element', 'not divisible by N', '1 GiB'."""
    numel: int = Field(ge=1)
    """Elements in each rank's tensor."""
    dtype: Literal["float32", "bfloat16"]
    """The tensor's dtype."""


class Rung(CollectiveModel):
    """One step of the reference ladder, a module under kernels_ref/<id>/."""

    name: str = Field(pattern=r"^v\d+_[a-z0-9_]+$")
    """Module name, e.g. 'v1_ring'."""
    summary: str
    """One line: what this rung changes and why it is faster."""


class KnownWrong(CollectiveModel):
    """A submission under wrong/ and the verdict the judge must give it."""

    file: str
    """File name under wrong/."""
    status: Literal["failed", "rejected", "timeout", "crashed"]
    """The verdict."""
    says: str
    """Text the verdict's message must contain (the rank it names, the call it refused)."""


class CollectiveDrill(CollectiveModel):
    """A file drills/<id>/collective.yaml."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    """Drill id, the folder's name: `gpuprep submit <id> FILE`."""
    title: str
    """Shown in listings."""
    entry: str
    """The function each rank calls: entry(x, group), summing x in place."""
    summary: str
    """What to write, in a few lines."""
    starter: str
    """The starter's file name in the drill's folder."""
    forbidden: list[str]
    """torch.distributed functions the guard records; a call is a rejection."""
    tolerance: dict[Literal["float32", "bfloat16"], float]
    """Allowed error per rank per dtype, relative to the sum of |x| at each element."""
    cpu_ranks: int = Field(default=4, ge=2, le=16)
    """Ranks on the CPU (gloo) when --ranks is not given."""
    cases: list[Case] = Field(min_length=1)
    """Sizes checked on every device."""
    gpu_cases: list[Case] = Field(default_factory=list)
    """Sizes timed on GPUs only (timing, not checked: the CPU cannot hold N x 1 GiB quickly)."""
    ladder: list[Rung] = Field(min_length=1)
    """The reference rungs, slowest first."""
    known_wrong: list[KnownWrong] = Field(default_factory=list)
    """wrong/ files and their verdicts."""


class CollectiveSpecError(ValueError):
    """A collective.yaml that cannot be read or does not fit the model; names the file."""


def load_collective(path: Path) -> CollectiveDrill:
    """Read and validate one collective.yaml (safe YAML only)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return CollectiveDrill.model_validate(raw)
    except (OSError, yaml.YAMLError) as error:
        raise CollectiveSpecError(f"{path}: {error}") from error
    except ValidationError as error:
        raise CollectiveSpecError(f"{path}: {error}") from error


def to_request(
    drill: CollectiveDrill,
    file: Path,
    *,
    ranks: int,
    device: Literal["cpu", "cuda"],
    case_timeout_s: float = 60.0,
    startup_timeout_s: float = 120.0,
    vendor: bool = True,
    iters: int = 10,
) -> Request:
    """The judge's request: on the CPU the checked sizes; on GPUs those checked, plus the
    timing sizes timed beside dist.all_reduce."""
    cases: list[CaseSpec] = [
        {"label": c.label, "numel": c.numel, "dtype": c.dtype, "check": True, "timed": False}
        for c in drill.cases
    ]
    if device == "cuda":
        cases += [
            {"label": c.label, "numel": c.numel, "dtype": c.dtype, "check": False, "timed": True}
            for c in drill.gpu_cases
        ]
    return {
        "file": str(file.resolve()),
        "entry": drill.entry,
        "ranks": ranks,
        "device": device,
        "cases": cases,
        "tolerance": {str(dtype): value for dtype, value in drill.tolerance.items()},
        "forbidden": list(drill.forbidden),
        "case_timeout_s": case_timeout_s,
        "startup_timeout_s": startup_timeout_s,
        "warmup": 3,
        "iters": iters,
        "vendor": vendor,
    }
