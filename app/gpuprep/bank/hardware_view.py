"""Hardware tables as plain rows: what `gpuprep hw` prints and the TUI shows."""

from __future__ import annotations

from typing import Any

from gpuprep.bank.hardware import DERIVED_FIELDS, Hardware
from gpuprep.units.quantity import format_number


def _spec_text(gpu: Hardware, name: str) -> str:
    spec = getattr(gpu.specs, name, None)
    if spec is None:
        return "—"
    # Counts carry the unit "1", which reads better as a bare number.
    return (
        format_number(spec.value)
        if spec.unit == "1"
        else f"{format_number(spec.value)} {spec.unit}"
    )


def headline(gpu: Hardware) -> dict[str, str]:
    """The figures people quote first, as text."""
    derived = gpu.derived()
    ridge = derived.get("ridge_bf16")
    return {
        "id": gpu.id,
        "name": gpu.name,
        "hbm_capacity": _spec_text(gpu, "hbm_capacity"),
        "hbm_bandwidth": _spec_text(gpu, "hbm_bandwidth"),
        "bf16_dense": _spec_text(gpu, "bf16_dense")
        if gpu.specs.bf16_dense
        else _spec_text(gpu, "fp16_dense"),
        "fp32": _spec_text(gpu, "fp32"),
        "ridge_bf16": f"{format_number(ridge.to('FLOP/B'))} FLOP/B" if ridge else "—",
    }


def features(gpu: Hardware) -> dict[str, dict[str, Any]]:
    """Each capability the table answers: supported, source (id and title) and note."""
    if gpu.features is None:
        return {}
    return {
        name: {
            "supported": feature.supported,
            "source": feature.source,
            "source_title": gpu.sources[feature.source].title,
            "note": feature.note,
        }
        for name, feature in gpu.features
    }


def describe(gpu: Hardware) -> dict[str, Any]:
    """Every figure with value, unit, source and note, the derived figures with formulas, the
    memory kind and every capability with its source."""
    specs = {}
    for name, spec in gpu.figures().items():
        source = gpu.sources[spec.source]
        specs[name] = {
            "value": spec.value,
            "unit": spec.unit,
            "value_text": format_number(spec.value, 4),
            "sparse": spec.sparse,
            "source": spec.source,
            "source_title": source.title,
            "note": spec.note,
        }
    derived = {}
    for name, value in gpu.derived().items():
        formula, unit = DERIVED_FIELDS[name]
        shown = value.to(unit)
        derived[name] = {
            "value": shown,
            "unit": unit,
            "value_text": format_number(shown),
            "formula": formula,
        }
    return {
        "id": gpu.id,
        "name": gpu.name,
        "vendor": gpu.vendor,
        "architecture": gpu.architecture,
        "compute_capability": gpu.compute_capability,
        "aliases": gpu.aliases,
        "memory": gpu.memory,
        "specs": specs,
        "derived": derived,
        "features": features(gpu),
        "sources": {key: source.model_dump() for key, source in gpu.sources.items()},
        "notes": gpu.notes,
    }
