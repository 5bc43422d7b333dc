"""Figures, percentages, speed-of-light flags and ladder placement, from plain numbers."""

from gpuprep.harness.report import Ceilings, pct_of_peak, placement, speed_of_light_flag

LADDER = [
    {"name": "v0_naive", "median_ms": 4.0},
    {"name": "v1_tiles", "median_ms": 2.0},
    {"name": "v2_tuned", "median_ms": 1.0},
]
SUMMARIES = {"v0_naive": "start", "v1_tiles": "tile it", "v2_tuned": "tune it"}
H200 = Ceilings(gpu_id="h200", datasheet_bandwidth=4.8e12)


def test_a_time_between_rungs_names_the_next_step():
    assert (
        placement(3.0, LADDER, SUMMARIES)
        == "between v0_naive and v1_tiles; next: v1_tiles: tile it"
    )


def test_a_time_level_with_a_rung_says_so():
    assert placement(2.02, LADDER, SUMMARIES).startswith("level with v1_tiles; next: v2_tuned")


def test_slower_than_the_first_rung_and_faster_than_the_top():
    assert placement(9.0, LADDER, SUMMARIES).startswith("slower than v0_naive")
    assert placement(0.5, LADDER, SUMMARIES) == "faster than the top rung v2_tuned"


def test_percentages_against_datasheet_copy_and_calibration():
    pct = pct_of_peak(
        3600.0, Ceilings(datasheet_bandwidth=4.8e12, calibrated_bandwidth=4.0e12), copy_gbps=4000.0
    )
    assert (
        round(pct["datasheet"]) == 75
        and round(pct["copy_this_run"]) == 90
        and round(pct["calibrated"]) == 90
    )


def test_faster_than_memory_is_flagged_not_celebrated():
    assert "faster than the memory" in speed_of_light_flag(6000.0, H200, copy_gbps=4300.0)
    assert speed_of_light_flag(4200.0, H200, copy_gbps=4300.0) == ""


def test_without_a_table_the_copy_bounds_the_speed_of_light():
    assert speed_of_light_flag(6000.0, Ceilings(), copy_gbps=4000.0)
    assert speed_of_light_flag(4300.0, Ceilings(), copy_gbps=4000.0) == ""
