"""The hardware tables agree with themselves and with the architecture they describe.

A peak rate is SMs x clock x (work per SM per clock); an architecture fixes the last factor, so a
mistyped SM count, clock or rate shows up as a per-SM figure that is not the architecture's.
The per-architecture constants below come from the CUDA Programming Guide's compute-capability
tables (FP32:FP64 ratios, occupancy limits) and from the vendors' own peak tables divided out
(NVIDIA tuning guides and whitepapers; ROCm's MI300X table prints FLOPS/clock/CU directly).
Every check here holds for every table; none is a spot check of one number.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
import yaml

from gpuprep.bank.hardware import TENSOR_RATE_FIELDS
from gpuprep.paths import builtin_folder
from gpuprep.units.quantity import parse_unit

HARDWARE_DIR = builtin_folder("hardware")
GPU_IDS = sorted(path.stem for path in HARDWARE_DIR.glob("*.yaml"))
NVIDIA_IDS = [g for g in GPU_IDS if g != "mi300x"]
#: Tables whose rates are computed from the device's own reports, NVIDIA printing none.
NO_VENDOR_SHEET = {"a10g"}
#: GDDR cards whose bandwidth note gives the pin rate and bus width ("21 Gbps x 384 bit").
GDDR_WITH_PIN_RATE = ["l40s", "rtx3090", "rtx4090", "l4", "a10g"]

#: Dense tensor work per SM (per CU on AMD) per clock at the boost clock, FLOP or OP, for the
#: data-centre parts of each compute capability. GeForce parts halve every floating-point tensor
#: rate (FP32 accumulate; TF32 too) and keep INT8, so a GeForce table is checked against half.
TENSOR_PER_SM_PER_CLOCK: dict[str, dict[str, int]] = {
    # Volta: 8 tensor cores x 64 FMA (4x4x4) per clock; FP16 only.
    "7.0": {"fp16_dense": 1024},
    # Turing: 8 tensor cores, FP16 and INT8 (twice the FP16 rate).
    "7.5": {"fp16_dense": 1024, "int8_dense": 2048},
    # GA100: 4 third-generation tensor cores of 256 FP16 FMA per clock.
    "8.0": {"tf32_dense": 1024, "bf16_dense": 2048, "fp16_dense": 2048, "int8_dense": 4096},
    # GA102 as A40/A6000 run it (84 SMs x 1024 x 1.74 GHz = 149.7 dense FP16).
    "8.6": {"tf32_dense": 512, "bf16_dense": 1024, "fp16_dense": 1024, "int8_dense": 2048},
    # AD102 as L40S runs it; FP8 is twice FP16.
    "8.9": {
        "tf32_dense": 512, "bf16_dense": 1024, "fp16_dense": 1024,
        "fp8_dense": 2048, "int8_dense": 2048,
    },
    # GH100: 132 SMs x 4096 x 1.83 GHz = 989.4 (H100 whitepaper).
    "9.0": {
        "tf32_dense": 2048, "bf16_dense": 4096, "fp16_dense": 4096,
        "fp8_dense": 8192, "int8_dense": 8192,
    },
    # B200: twice Hopper per SM; FP4 twice FP8.
    "10.0": {
        "tf32_dense": 4096, "bf16_dense": 8192, "fp16_dense": 8192,
        "fp8_dense": 16384, "int8_dense": 16384, "fp4_dense": 32768,
    },
    # CDNA 3, per CU (ROCm "MI300 series microarchitecture" table, FLOPS/clock/CU).
    "gfx942": {
        "tf32_dense": 1024, "bf16_dense": 2048, "fp16_dense": 2048,
        "fp8_dense": 4096, "int8_dense": 4096,
    },
}  # fmt: skip

#: Float tensor rates a GeForce part runs at half the data-centre rate.
GEFORCE_HALVED = {"tf32_dense", "bf16_dense", "fp16_dense", "fp8_dense"}
#: Not GeForce, but halved the same way: AWS's A10G runs bf16/fp16/tf32 GEMMs at 99% of half
#: the A10's per-SM rate (measured 69.5 TFLOP/s bf16 on 80 SMs at 1.71 GHz), never above it.
HALF_RATE_DATA_CENTRE = {"a10g"}

#: Vendors print peaks to three or four figures, within 0.3% of SMs x clock x work; 0.5% still
#: catches L40S's printed 362.05 dense FP16 (1.2% below 142 x 1024 x 2.52 GHz).
RATE_TOLERANCE = 0.005
#: Figures the vendor rounded harder, each with its reason.
ROUNDED_HARDER = {
    # NVIDIA prints 2.2 PFLOP/s sparse: 2.25 (half of bf16's 4.5) rounded down, 2.2% low.
    ("b200", "tf32_dense"): 0.025,
    # NVIDIA prints 120 sparse TF32 for L4: 121.2 (58 x 1024 x 2.04 GHz) rounded down, 1% low.
    ("l4", "tf32_dense"): 0.015,
}

#: Non-tensor FP32 work per SM per clock (FMA = 2) and the FP32:FP64 throughput ratio (PG-CC).
FP32_PER_SM_PER_CLOCK = {
    "7.0": 128, "7.5": 128, "8.0": 128, "8.6": 256, "8.9": 256, "9.0": 256, "10.0": 256,
    "gfx942": 256,
}  # fmt: skip
FP32_TO_FP64 = {
    "7.0": 2, "7.5": 32, "8.0": 2, "8.6": 64, "8.9": 64, "9.0": 2, "10.0": 2, "gfx942": 2,
}  # fmt: skip

#: Per-SM limits by compute capability (PG-CC Tables 30-31): resident threads, warps, blocks,
#: largest shared-memory carve-out per SM and per block (KiB), 32-bit registers.
SM_LIMITS = {
    "7.0": (2048, 64, 32, 96, 96, 65536),
    "7.5": (1024, 32, 16, 64, 64, 65536),
    "8.0": (2048, 64, 32, 164, 163, 65536),
    "8.6": (1536, 48, 16, 100, 99, 65536),
    "8.9": (1536, 48, 24, 100, 99, 65536),
    "9.0": (2048, 64, 32, 228, 227, 65536),
    "10.0": (2048, 64, 32, 228, 227, 65536),
}

#: What NVIDIA means by PCIe Gen N x16, both directions added (GB/s).
PCIE_X16_BOTH_WAYS = {3: 32, 4: 64, 5: 128}


@cache
def raw(gpu_id: str) -> dict:
    """A table as YAML gives it (cached: the tests only read it)."""
    return yaml.safe_load((HARDWARE_DIR / f"{gpu_id}.yaml").read_text(encoding="utf-8"))


def base(spec: dict, key: str = "value") -> float:
    """A figure in base units (FLOP/s, B/s, Hz, B), read with the bank's own unit table."""
    scale, _dimension = parse_unit(spec["unit"])
    return spec[key] * scale


def is_geforce(table: dict) -> bool:
    return "GeForce" in table["name"]


def halves_float_tensor_rates(table: dict) -> bool:
    return is_geforce(table) or table["id"] in HALF_RATE_DATA_CENTRE


def per_sm_per_clock(specs: dict, name: str) -> float:
    return base(specs[name]) / (specs["sms"]["value"] * base(specs["boost_clock"]))


def test_every_table_is_checked():
    assert len(GPU_IDS) == 14
    for gpu_id in GPU_IDS:
        assert raw(gpu_id)["compute_capability"] in TENSOR_PER_SM_PER_CLOCK, gpu_id


# --- rates against the architecture -------------------------------------------------------


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_every_dense_tensor_rate_is_sms_times_clock_times_the_architectures_work_per_clock(gpu_id):
    table = raw(gpu_id)
    specs = table["specs"]
    expected = TENSOR_PER_SM_PER_CLOCK[table["compute_capability"]]
    present = TENSOR_RATE_FIELDS & set(specs)
    # A rate the table gives that the architecture does not have is as wrong as a wrong number.
    assert present <= set(expected), f"{gpu_id}: {sorted(present - set(expected))}"
    for name in present:
        halved = halves_float_tensor_rates(table) and name in GEFORCE_HALVED
        work = expected[name] / (2 if halved else 1)
        tolerance = ROUNDED_HARDER.get((gpu_id, name), RATE_TOLERANCE)
        assert per_sm_per_clock(specs, name) == pytest.approx(work, rel=tolerance), (
            f"{gpu_id}.{name}: {per_sm_per_clock(specs, name):.0f} per SM per clock, "
            f"expected {work:.0f}"
        )


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_fp32_peak_is_at_the_boost_clock_or_a_higher_non_tensor_clock(gpu_id):
    # Hopper and B200 print FP32/FP64 at the maximum SM clock (1.98 GHz on H100 SXM), above
    # the clock of their tensor peaks (1.83 GHz); no vendor's FP32 clock is below it.
    table = raw(gpu_id)
    specs = table["specs"]
    lanes_work = FP32_PER_SM_PER_CLOCK[table["compute_capability"]]
    implied_clock = base(specs["fp32"]) / (specs["sms"]["value"] * lanes_work)
    ratio = implied_clock / base(specs["boost_clock"])
    assert 0.99 <= ratio <= 1.09, f"{gpu_id}: FP32 implies {implied_clock / 1e9:.3f} GHz"


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_fp64_is_fp32_over_the_compute_capabilitys_ratio(gpu_id):
    table = raw(gpu_id)
    specs = table["specs"]
    ratio = base(specs["fp32"]) / base(specs["fp64"])
    assert ratio == pytest.approx(FP32_TO_FP64[table["compute_capability"]], rel=0.03), gpu_id


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_bf16_and_fp16_dense_rates_are_equal_where_both_exist(gpu_id):
    specs = raw(gpu_id)["specs"]
    if "bf16_dense" not in specs:
        assert raw(gpu_id)["compute_capability"] in ("7.0", "7.5"), f"{gpu_id} lacks bf16"
        return
    for key in ("value", "sparse"):
        assert specs["bf16_dense"].get(key) == specs["fp16_dense"].get(key), f"{gpu_id} {key}"


@pytest.mark.parametrize("gpu_id", NVIDIA_IDS)
def test_sparse_figures_exist_exactly_where_the_hardware_has_2_to_4_sparsity(gpu_id):
    # Volta and Turing have no structured sparsity; NVIDIA prints a sparse figure for every
    # tensor rate from Ampere on. (MI300X is left out: its TF32 has no sparse figure in the
    # sources read, though its other tensor rates do. A10G has no vendor sheet at all, so no
    # printed sparse figure either.)
    table = raw(gpu_id)
    if gpu_id in NO_VENDOR_SHEET:
        assert all(
            "sparse" not in table["specs"][n] for n in TENSOR_RATE_FIELDS & set(table["specs"])
        )
        return
    sparse_capable = float(table["compute_capability"]) >= 8.0
    for name in TENSOR_RATE_FIELDS & set(table["specs"]):
        assert ("sparse" in table["specs"][name]) is sparse_capable, f"{gpu_id}.{name}"


# --- memory, occupancy, links ---------------------------------------------------------------


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_capacities_are_positive_and_nested(gpu_id):
    specs = raw(gpu_id)["specs"]
    smem_block, smem_sm, l2, memory = (
        base(specs[n]) for n in ("smem_per_block", "smem_per_sm", "l2_size", "hbm_capacity")
    )
    assert 0 < smem_block <= smem_sm < l2 < memory, gpu_id


def test_the_lists_of_gpus_by_vendor_are_right():
    assert [g for g in GPU_IDS if raw(g)["vendor"] == "nvidia"] == NVIDIA_IDS


@pytest.mark.parametrize("gpu_id", NVIDIA_IDS)
def test_per_sm_limits_are_the_compute_capabilitys(gpu_id):
    table = raw(gpu_id)
    specs = table["specs"]
    names = (
        "max_threads_per_sm", "max_warps_per_sm", "max_blocks_per_sm",
        "smem_per_sm", "smem_per_block", "registers_per_sm",
    )  # fmt: skip
    expected = SM_LIMITS[table["compute_capability"]]
    for name, want in zip(names, expected, strict=True):
        have = specs[name]["value"]
        if name.startswith("smem"):
            assert specs[name]["unit"] == "KiB", f"{gpu_id}.{name}"
        assert have == want, f"{gpu_id}.{name}: {have}, compute capability says {want}"
    assert specs["warp_size"]["value"] == 32


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_the_memory_size_in_the_name_is_the_capacity(gpu_id):
    table = raw(gpu_id)
    for size in re.findall(r"(\d+)\s?GB\b", table["name"]):
        assert int(size) == table["specs"]["hbm_capacity"]["value"], gpu_id


@pytest.mark.parametrize("gpu_id", GDDR_WITH_PIN_RATE)
def test_gddr_bandwidth_is_pin_rate_times_bus_width(gpu_id):
    spec = raw(gpu_id)["specs"]["hbm_bandwidth"]
    found = re.search(r"(\d+(?:\.\d+)?) Gbps x (\d+) bit", spec["note"])
    assert found is not None, gpu_id
    pin_rate, width = float(found[1]), int(found[2])
    assert base(spec) == pytest.approx(pin_rate * 1e9 * width / 8, rel=0.01), gpu_id


def test_t4_bandwidth_is_its_memory_clock_times_bus_width():
    # The T4 note gives deviceQuery's form instead: 5001 MHz, double data rate, 256 bit.
    spec = raw("t4")["specs"]["hbm_bandwidth"]
    assert "5001 MHz x 2 x 256 bit" in spec["note"]
    assert base(spec) == pytest.approx(5001e6 * 2 * 256 / 8, rel=0.01)


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_memory_chips_a_note_names_add_up_and_exist(gpu_id):
    # "24 x 1 GiB (8 Gb) chips": the count times the size is the capacity, and no GDDR6 or
    # GDDR6X chip holds more than 2 GiB (16 Gb, the largest density Micron, Samsung and SK hynix
    # made): a 48 GiB GDDR6 card on a 384-bit bus has 24 chips in clamshell, not 12 x 4 GiB.
    spec = raw(gpu_id)["specs"]["hbm_capacity"]
    for count, size in re.findall(r"(\d+) x (\d+) GiB\b[^;,]*?chips", spec["note"]):
        assert int(count) * int(size) == spec["value"], gpu_id
        if "GDDR" in spec["note"]:
            assert int(size) <= 2, f"{gpu_id}: {size} GiB GDDR chips"


def test_the_chip_check_reads_the_notes_that_name_chips():
    notes = {g: raw(g)["specs"]["hbm_capacity"]["note"] for g in GPU_IDS}
    assert re.findall(r"(\d+) x (\d+) GiB\b[^;,]*?chips", notes["rtx3090"]) == [("24", "1")]


def test_the_gddr_cards_are_exactly_the_ones_checked_above():
    gddr = [g for g in GPU_IDS if "GDDR" in raw(g)["specs"]["hbm_capacity"]["note"]]
    assert sorted(gddr) == sorted([*GDDR_WITH_PIN_RATE, "t4"])


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_pcie_bandwidth_is_that_of_the_generation_the_note_names(gpu_id):
    spec = raw(gpu_id)["specs"]["pcie_bandwidth"]
    generation = re.search(r"PCIe Gen(\d) x16", spec["note"])
    assert generation is not None, f"{gpu_id}: the note names no PCIe generation"
    assert base(spec) == PCIE_X16_BOTH_WAYS[int(generation[1])] * 1e9, gpu_id
