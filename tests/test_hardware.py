"""The hardware tables: every figure has a unit and a source, rates are dense, derived figures
agree with the typed ones, well-known figures are right, and `gpuprep hw` shows them."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from gpuprep.bank.hardware import (
    FIELD_DIMENSIONS,
    TENSOR_RATE_FIELDS,
    Hardware,
    find_by_device_name,
)
from gpuprep.cli.main import app
from gpuprep.paths import builtin_folder
from gpuprep.units.quantity import parse_unit

#: The ids issue 2 fixes, and the cloud inference parts issue 12 adds (L4, A10G).
GPU_IDS = [
    "a100_sxm", "a100_pcie", "h100_sxm", "h100_pcie", "h200", "b200",
    "l40s", "rtx4090", "rtx3090", "t4", "v100", "mi300x", "l4", "a10g",
]  # fmt: skip

HARDWARE_DIR = builtin_folder("hardware")
SCHEMA_LINE = "# yaml-language-server: $schema=../docs/schema/hardware.schema.json"

#: Plain scales for the few units the tables use, so the checks below do not lean on the
#: unit code they are checking.
SCALE = {
    "TFLOP/s": 1e12, "PFLOP/s": 1e15, "TOP/s": 1e12, "POP/s": 1e15,
    "GB/s": 1e9, "TB/s": 1e12, "MHz": 1e6, "GHz": 1e9, "1": 1.0,
}  # fmt: skip


def raw_table(gpu_id: str) -> dict:
    return yaml.safe_load((HARDWARE_DIR / f"{gpu_id}.yaml").read_text(encoding="utf-8"))


def table(gpu_id: str) -> Hardware:
    return Hardware.model_validate(raw_table(gpu_id))


def si(spec: dict) -> float:
    """A raw YAML figure in base units (FLOP/s, B/s, Hz), by plain arithmetic."""
    return spec["value"] * SCALE[spec["unit"]]


def run_cli(*args: str):
    result = CliRunner().invoke(app, list(args))
    return result


# --- the files ------------------------------------------------------------------------------


def test_every_gpu_id_in_the_issue_has_a_table_and_nothing_else_does():
    assert sorted(path.stem for path in HARDWARE_DIR.glob("*.yaml")) == sorted(GPU_IDS)


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_each_table_names_its_schema_and_its_own_id(gpu_id):
    text = (HARDWARE_DIR / f"{gpu_id}.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == SCHEMA_LINE
    assert raw_table(gpu_id)["id"] == gpu_id


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_every_figure_has_a_unit_of_its_fields_dimension_and_a_source_in_the_file(gpu_id):
    raw = raw_table(gpu_id)
    sources = raw["sources"]
    assert raw["specs"], f"{gpu_id} has no figures"
    for name, spec in raw["specs"].items():
        _scale, dimension = parse_unit(spec["unit"])
        assert dimension == FIELD_DIMENSIONS[name], f"{gpu_id}.{name}: unit {spec['unit']!r}"
        assert spec["source"] in sources, (
            f"{gpu_id}.{name}: source {spec['source']!r} not in the file"
        )
        assert sources[spec["source"]]["title"].strip(), (
            f"{gpu_id}: source {spec['source']} has no title"
        )
        assert spec["value"] > 0


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_every_source_is_used_and_every_table_loads(gpu_id):
    raw = raw_table(gpu_id)
    used = {spec["source"] for spec in raw["specs"].values()}
    used |= {feature["source"] for feature in raw.get("features", {}).values()}
    assert used == set(raw["sources"]), f"{gpu_id}: unused sources {set(raw['sources']) - used}"
    table(gpu_id)


def test_the_bank_checker_finds_no_problem_in_the_hardware_folder():
    from gpuprep.bank.loader import load_bank
    from gpuprep.estimate.bank_check import check_bank

    bank, problems = load_bank()
    problems += check_bank(bank)
    assert [str(p) for p in problems if p.path.parent.name == "hardware"] == []
    assert sorted(bank.hardware) == sorted(GPU_IDS)


# --- dense rates, clocks, fields that do not apply ------------------------------------------


def test_dense_rates_are_half_the_sparse_figures_where_the_vendor_prints_one():
    recorded = 0
    for gpu_id in GPU_IDS:
        for name, spec in raw_table(gpu_id)["specs"].items():
            if "sparse" not in spec:
                continue
            recorded += 1
            assert name in TENSOR_RATE_FIELDS
            assert spec["value"] < spec["sparse"], f"{gpu_id}.{name}"
            # Exact halves up to the vendor's rounding (35.6 beside 71, 989.4 beside 1,978.9).
            # L40S's datasheet prints 362.05 dense beside 733 sparse; the table keeps the half.
            assert spec["value"] == pytest.approx(spec["sparse"] / 2, rel=3e-3), f"{gpu_id}.{name}"
    assert recorded >= 40


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_the_boost_clock_is_the_clock_of_the_dense_tensor_peak(gpu_id):
    specs = raw_table(gpu_id)["specs"]
    half = specs.get("bf16_dense") or specs["fp16_dense"]
    per_sm_per_clock = si(half) / (si(specs["sms"]) * si(specs["boost_clock"]))
    nearest = 2 ** round(math.log2(per_sm_per_clock))
    assert nearest in (512, 1024, 2048, 4096, 8192)
    assert per_sm_per_clock == pytest.approx(nearest, rel=0.005), (
        f"{gpu_id}: {per_sm_per_clock:.0f} FLOP/clk/SM"
    )


@pytest.mark.parametrize(
    ("gpu_id", "absent"),
    [
        ("a100_sxm", {"fp8_dense", "fp4_dense"}),
        ("a100_pcie", {"fp8_dense", "fp4_dense"}),
        ("h100_sxm", {"fp4_dense"}),
        ("t4", {"bf16_dense", "tf32_dense", "fp8_dense", "nvlink_bandwidth"}),
        ("v100", {"bf16_dense", "tf32_dense", "int8_dense", "fp8_dense"}),
        ("l40s", {"nvlink_bandwidth", "fp4_dense"}),
        ("rtx4090", {"nvlink_bandwidth", "fp4_dense"}),
        ("mi300x", {"fp4_dense"}),
        ("l4", {"nvlink_bandwidth", "fp4_dense"}),
        ("a10g", {"nvlink_bandwidth", "fp8_dense", "fp4_dense"}),
    ],
)
def test_fields_that_do_not_apply_are_left_out(gpu_id, absent):
    assert absent.isdisjoint(raw_table(gpu_id)["specs"])


@pytest.mark.parametrize("gpu_id", ["rtx3090", "rtx4090"])
def test_geforce_half_precision_rates_are_the_fp32_accumulate_ones(gpu_id):
    specs = raw_table(gpu_id)["specs"]
    for name in ("bf16_dense", "fp16_dense"):
        assert "FP32 accumulate" in specs[name]["note"]
    # Half the FP16-accumulate rate the marketing quotes: RTX 3090 142, RTX 4090 330.3.
    assert specs["fp16_dense"]["value"] == {"rtx3090": 71, "rtx4090": 165.2}[gpu_id]


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_capacities_are_binary_units(gpu_id):
    # Vendors' "80GB" of HBM or GDDR is 80 GiB: an H100 reports 81,090 MiB (85 decimal GB),
    # more than 80e9 bytes. CUDA's "KB"/"MB" for shared memory and L2 are KiB/MiB too.
    specs = raw_table(gpu_id)["specs"]
    assert specs["hbm_capacity"]["unit"] == "GiB"
    for name in ("l2_size", "smem_per_sm", "smem_per_block"):
        if name in specs:
            assert specs[name]["unit"] in ("KiB", "MiB"), f"{gpu_id}.{name}"


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_resident_threads_are_warps_times_the_warp_size(gpu_id):
    specs = raw_table(gpu_id)["specs"]
    warps, threads, width = (
        specs[n]["value"] for n in ("max_warps_per_sm", "max_threads_per_sm", "warp_size")
    )
    assert warps * width == threads


def test_t4_records_its_gddr_memory_in_the_hbm_fields_and_says_so():
    specs = raw_table("t4")["specs"]
    assert "GDDR6" in specs["hbm_capacity"]["note"]
    assert specs["hbm_capacity"]["value"] == 16


def test_mi300x_counts_compute_units_and_64_wide_wavefronts():
    specs = raw_table("mi300x")["specs"]
    assert specs["sms"]["value"] == 304 and "compute units" in specs["sms"]["note"]
    assert specs["warp_size"]["value"] == 64


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_link_bandwidth_notes_give_the_per_direction_figure(gpu_id):
    specs = raw_table(gpu_id)["specs"]
    for name in ("nvlink_bandwidth", "pcie_bandwidth"):
        if name in specs:
            assert "each way" in specs[name]["note"], f"{gpu_id}.{name}"


# --- derived figures ------------------------------------------------------------------------


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_derived_ridge_points_are_rate_over_bandwidth(gpu_id):
    specs = raw_table(gpu_id)["specs"]
    derived = table(gpu_id).derived()
    bandwidth = si(specs["hbm_bandwidth"])
    half = specs.get("bf16_dense") or specs["fp16_dense"]
    assert derived["ridge_bf16"].to("FLOP/B") == pytest.approx(si(half) / bandwidth, rel=1e-9)
    assert derived["ridge_fp32"].to("FLOP/B") == pytest.approx(
        si(specs["fp32"]) / bandwidth, rel=1e-9
    )
    bytes_per_clock = bandwidth / (si(specs["sms"]) * si(specs["boost_clock"]))
    assert derived["bytes_per_clock_per_sm"].to("B") == pytest.approx(bytes_per_clock, rel=1e-9)


def test_ridge_points_of_well_known_gpus():
    assert table("h100_sxm").get("ridge_bf16").to("FLOP/B") == pytest.approx(295.3, abs=0.1)
    assert table("a100_sxm").get("ridge_bf16").to("FLOP/B") == pytest.approx(153.0, abs=0.1)
    assert table("mi300x").get("ridge_bf16").to("FLOP/B") == pytest.approx(246.7, abs=0.1)


# --- spot checks of figures everyone quotes -------------------------------------------------


@pytest.mark.parametrize(
    ("gpu_id", "field", "value", "unit"),
    [
        ("h100_sxm", "hbm_bandwidth", 3.35, "TB/s"),
        ("h100_sxm", "bf16_dense", 989.4, "TFLOP/s"),
        ("h100_sxm", "sms", 132, "1"),
        ("a100_sxm", "hbm_bandwidth", 2039, "GB/s"),
        ("a100_sxm", "bf16_dense", 312, "TFLOP/s"),
        ("h200", "hbm_bandwidth", 4.8, "TB/s"),
        ("h200", "hbm_capacity", 141, "GiB"),
        ("l40s", "bf16_dense", 366.5, "TFLOP/s"),
        ("b200", "bf16_dense", 2250, "TFLOP/s"),
        ("mi300x", "hbm_bandwidth", 5.3, "TB/s"),
        ("mi300x", "bf16_dense", 1307.4, "TFLOP/s"),
        ("rtx4090", "hbm_bandwidth", 1008, "GB/s"),
        ("v100", "fp16_dense", 125, "TFLOP/s"),
    ],
)
def test_well_known_figures(gpu_id, field, value, unit):
    assert table(gpu_id).get(field).to(unit) == pytest.approx(value, rel=1e-9)


# --- the model's own checks -----------------------------------------------------------------


def _with_spec(name: str, spec: dict) -> dict:
    raw = raw_table("h100_sxm")
    raw["specs"][name] = spec
    return raw


def test_a_sparse_figure_below_the_dense_one_is_rejected():
    raw = _with_spec(
        "bf16_dense", {"value": 989.4, "sparse": 494.7, "unit": "TFLOP/s", "source": "WP-H100"}
    )
    with pytest.raises(ValueError, match="must exceed the dense"):
        Hardware.model_validate(raw)


def test_a_sparse_figure_on_a_non_tensor_field_is_rejected():
    raw = _with_spec(
        "fp32", {"value": 66.9, "sparse": 133.8, "unit": "TFLOP/s", "source": "WP-H100"}
    )
    with pytest.raises(ValueError, match="only tensor rates"):
        Hardware.model_validate(raw)


def test_a_bandwidth_in_a_rate_unit_is_rejected():
    raw = _with_spec("hbm_bandwidth", {"value": 3.35, "unit": "TFLOP/s", "source": "DS-H100"})
    with pytest.raises(ValueError, match="expected a bandwidth"):
        Hardware.model_validate(raw)


@pytest.mark.parametrize(
    ("device_name", "gpu_id"),
    [
        ("NVIDIA H100 80GB HBM3", "h100_sxm"),
        ("NVIDIA H100 PCIe", "h100_pcie"),
        ("NVIDIA H200", "h200"),
        ("NVIDIA A100-SXM4-80GB", "a100_sxm"),
        ("NVIDIA A100 80GB PCIe", "a100_pcie"),
        ("NVIDIA B200", "b200"),
        ("NVIDIA L40S", "l40s"),
        ("NVIDIA GeForce RTX 4090", "rtx4090"),
        ("NVIDIA GeForce RTX 3090", "rtx3090"),
        ("Tesla T4", "t4"),
        ("Tesla V100-SXM2-32GB", "v100"),
        ("AMD Instinct MI300X", "mi300x"),
    ],
)
def test_the_name_the_driver_reports_finds_its_table(device_name, gpu_id):
    gpus = [table(g) for g in GPU_IDS]
    assert find_by_device_name(gpus, device_name).id == gpu_id


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_no_alias_names_a_memory_size_other_than_the_tables(gpu_id):
    # "NVIDIA A100-SXM4-40GB" must not pick up the 80 GB table's capacity and bandwidth.
    raw = raw_table(gpu_id)
    capacity = raw["specs"]["hbm_capacity"]["value"]
    for alias in raw["aliases"]:
        sizes = [int(s) for s in re.findall(r"(\d+)\s?GB", alias)]
        assert all(size == capacity for size in sizes), f"{gpu_id}: alias {alias!r}"


def test_an_unknown_device_name_finds_nothing():
    assert find_by_device_name([table(g) for g in GPU_IDS], "NVIDIA GeForce GTX 1080") is None


# --- the CLI --------------------------------------------------------------------------------


def test_hw_show_json_gives_value_unit_and_source_per_row():
    result = run_cli("hw", "show", "h100_sxm", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["id"] == "h100_sxm"
    bandwidth = shown["specs"]["hbm_bandwidth"]
    assert (bandwidth["value"], bandwidth["unit"], bandwidth["source"]) == (3.35, "TB/s", "DS-H100")
    for name, row in shown["specs"].items():
        assert {"value", "unit", "source"} <= set(row), name
        assert row["source"] in shown["sources"], name
    assert shown["specs"]["bf16_dense"]["sparse"] == 1978.9
    assert shown["derived"]["ridge_bf16"]["unit"] == "FLOP/B"
    assert shown["derived"]["ridge_bf16"]["value"] == pytest.approx(989.4e12 / 3.35e12)


def test_hw_show_prints_a_table_with_sources():
    result = run_cli("hw", "show", "mi300x")
    assert result.exit_code == 0, result.output
    assert "AMD Instinct MI300X" in result.stdout
    assert "ROCm" in result.stdout


def test_hw_list_lists_every_gpu():
    result = run_cli("hw", "list", "--json")
    assert result.exit_code == 0, result.output
    assert sorted(row["id"] for row in json.loads(result.stdout)) == sorted(GPU_IDS)
    plain = run_cli("hw", "list")
    assert plain.exit_code == 0, plain.output
    for gpu_id in GPU_IDS:
        assert gpu_id in plain.stdout


def test_hw_show_of_an_unknown_gpu_says_which_ones_exist():
    result = run_cli("hw", "show", "h300")
    assert result.exit_code == 2
    assert "unknown GPU 'h300'" in result.output and "h100_sxm" in result.output


def test_a_broken_question_elsewhere_does_not_hide_the_hardware_tables(tmp_path: Path):
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "broken.yaml").write_text("topic: {id: x\n", encoding="utf-8")
    result = run_cli("hw", "list", "--json", "--bank", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == len(GPU_IDS)


def test_a_broken_hardware_table_stops_hw_with_its_location(tmp_path: Path):
    (tmp_path / "hardware").mkdir()
    raw = raw_table("h100_sxm")
    raw["id"] = "h100_custom"
    raw["specs"]["hbm_bandwidth"]["unit"] = "TFLOP/s"
    (tmp_path / "hardware" / "h100_custom.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    result = run_cli("hw", "list", "--bank", str(tmp_path))
    assert result.exit_code == 1
    assert "h100_custom.yaml" in result.output and "hbm_bandwidth" in result.output


def test_only_known_fields_are_looked_up_on_a_gpu():
    from gpuprep.bank.loader import load_hardware

    tables, problems = load_hardware()
    gpu = tables["h100_sxm"]
    assert not problems
    assert gpu.get("__class__") is None
    assert gpu.get("model_config") is None
    assert gpu.get("hbm_bandwidth") is not None


def test_hw_list_json_gives_numbers_with_one_unit_per_column():
    rows = json.loads(run_cli("hw", "list", "--json").stdout)
    by_id = {row["id"]: row for row in rows}
    assert by_id["h200"]["hbm_bandwidth"] == {"value": 4800.0, "unit": "GB/s"}
    assert by_id["h100_sxm"]["bf16_dense"] == {"value": 989.4, "unit": "TFLOP/s"}
    for column in ("hbm_capacity", "hbm_bandwidth", "bf16_dense", "fp32", "ridge_bf16"):
        units = {row[column]["unit"] for row in rows if row[column] is not None}
        assert len(units) == 1, (column, units)
        assert all(isinstance(row[column]["value"], float) for row in rows if row[column])


def test_hw_list_at_80_columns_keeps_every_id_whole(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    plain = run_cli("hw", "list").stdout
    assert "TB/s" not in plain and "GB/s" in plain  # the unit is in the header, once
    for gpu_id in GPU_IDS:
        assert f" {gpu_id} " in plain
