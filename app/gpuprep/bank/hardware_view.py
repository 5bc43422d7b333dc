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


#: The headline columns, each in one unit for every GPU so that a column compares at a glance.
HEADLINE_COLUMNS = (
    ("hbm_capacity", "memory", "GiB"),
    ("hbm_bandwidth", "bandwidth", "GB/s"),
    ("bf16_dense", "bf16 dense", "TFLOP/s"),
    ("fp32", "fp32", "TFLOP/s"),
    ("ridge_bf16", "ridge bf16", "FLOP/B"),
)


def headline(gpu: Hardware) -> dict[str, Any]:
    """The figures people quote first: {value, unit} in the column's unit (None when absent).

    bf16 falls back to fp16 dense on GPUs whose tables give no bf16 (V100, T4)."""
    derived = gpu.derived()
    row: dict[str, Any] = {"id": gpu.id, "name": gpu.name}
    for name, _, unit in HEADLINE_COLUMNS:
        if name == "ridge_bf16":
            quantity = derived.get(name)
        elif name == "bf16_dense" and not gpu.specs.bf16_dense:
            quantity = gpu.get("fp16_dense")
        else:
            quantity = gpu.get(name)
        row[name] = None if quantity is None else {"value": float(quantity.to(unit)), "unit": unit}
    return row


def headline_text(figure: dict[str, Any] | None) -> str:
    """A headline figure as a table cell: the number alone (the unit is in the column's header)."""
    return "—" if figure is None else format_number(figure["value"])


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
