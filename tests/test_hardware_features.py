"""Capabilities: every table says yes or no to each (fp8, TMA, NVLink SHARP ...) with a source,
the answers agree with the figures and with the architecture, and templates can test them."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from gpuprep.bank.hardware import FEATURE_NAMES, Hardware
from gpuprep.bank.loader import load_bank
from gpuprep.cli.main import app
from gpuprep.estimate.render import TemplateError, render_template, template_context
from gpuprep.paths import builtin_folder

HARDWARE_DIR = builtin_folder("hardware")
GPU_IDS = sorted(path.stem for path in HARDWARE_DIR.glob("*.yaml"))


def raw(gpu_id: str) -> dict:
    return yaml.safe_load((HARDWARE_DIR / f"{gpu_id}.yaml").read_text(encoding="utf-8"))


def supported(gpu_id: str) -> set[str]:
    return {name for name, row in raw(gpu_id)["features"].items() if row["supported"]}


def nvidia_cc(gpu_id: str) -> float | None:
    table = raw(gpu_id)
    return float(table["compute_capability"]) if table["vendor"] == "nvidia" else None


# --- the tables -----------------------------------------------------------------------------


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_every_table_answers_every_capability_with_a_source_of_its_own(gpu_id):
    table = raw(gpu_id)
    assert set(table["features"]) == set(FEATURE_NAMES), gpu_id
    for name, row in table["features"].items():
        assert isinstance(row["supported"], bool), f"{gpu_id}.{name}"
        assert row["source"] in table["sources"], f"{gpu_id}.{name}: {row['source']}"


@pytest.mark.parametrize("gpu_id", GPU_IDS)
def test_the_memory_kind_is_the_one_the_capacity_note_names(gpu_id):
    table = raw(gpu_id)
    note = table["specs"]["hbm_capacity"]["note"]
    assert table["memory"] in note, gpu_id
    # "HBM3" must not pass on the strength of "HBM3e" in the note, nor GDDR6 on "GDDR6X".
    for longer in ("HBM2e", "HBM3e", "GDDR6X"):
        if longer.startswith(table["memory"]) and longer != table["memory"]:
            assert longer not in note, (
                f"{gpu_id}: memory {table['memory']} but the note says {longer}"
            )


#: From which compute capability on (and up to which, for wgmma and tcgen05) NVIDIA has each
#: architectural capability: PG-CC Tables 29 and 33, the PTX ISA's target requirements.
ARCHITECTURE_RANGES = {
    "bf16": (8.0, 99),
    "tf32": (8.0, 99),
    "fp8": (8.9, 99),
    "fp4": (10.0, 99),
    "cp_async": (8.0, 99),
    "tma": (9.0, 99),
    "clusters": (9.0, 99),
    "multicast": (9.0, 99),
    "wgmma": (9.0, 9.0),
    "tcgen05": (10.0, 10.0),
}


@pytest.mark.parametrize("gpu_id", [g for g in GPU_IDS if nvidia_cc(g) is not None])
def test_architectural_capabilities_follow_the_compute_capability(gpu_id):
    cc = nvidia_cc(gpu_id)
    for name, (first, last) in ARCHITECTURE_RANGES.items():
        assert (name in supported(gpu_id)) == (first <= cc <= last), f"{gpu_id}.{name} at {cc}"


def test_mig_is_exactly_on_the_data_centre_ga100_gh100_and_gb100_parts():
    with_mig = [g for g in GPU_IDS if "mig" in supported(g)]
    assert with_mig == ["a100_pcie", "a100_sxm", "b200", "h100_pcie", "h100_sxm", "h200"]


def test_nvlink_sharp_is_only_on_third_generation_nvswitch_boards_and_later():
    assert [g for g in GPU_IDS if "nvls" in supported(g)] == ["b200", "h100_sxm", "h200"]
    # A100's NVSwitch is second generation: a switch, but no reduction in it.
    assert "nvswitch" in supported("a100_sxm") and "nvls" not in supported("a100_sxm")


def test_amd_has_none_of_nvidias_instructions_or_links():
    for name in ("cp_async", "tma", "clusters", "multicast", "wgmma", "tcgen05", "nvlink", "nvls"):
        assert name not in supported("mi300x"), name


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fp8": True}, "features.fp8 is true but specs has no fp8_dense"),
        ({"bf16": False}, "features.bf16 is false but specs has bf16_dense"),
        ({"nvls": True}, "features.nvls is true but features.nvswitch is false"),
        ({"multicast": True}, "needs tma and clusters"),
    ],
)
def test_a_capability_that_contradicts_the_table_is_refused(change, message):
    table = raw("a100_pcie")
    for name, value in change.items():
        table["features"][name]["supported"] = value
    with pytest.raises(ValueError, match=message):
        Hardware.model_validate(table)


def test_a_capability_citing_a_source_the_file_lacks_is_refused():
    table = raw("t4")
    table["features"]["mig"]["source"] = "NOPE"
    with pytest.raises(ValueError, match="features.mig: source 'NOPE'"):
        Hardware.model_validate(table)


# --- templates ------------------------------------------------------------------------------


def render_on(gpu_id: str, template: str) -> str:
    bank, _problems = load_bank()
    return render_template(template, template_context(bank, bank.hardware[gpu_id]))


def test_a_template_offers_fp8_only_where_the_gpu_has_it():
    template = "{% if gpu.fp8 %}fp8 halves the bytes{% else %}stay in bf16{% endif %}"
    assert render_on("h100_sxm", template) == "fp8 halves the bytes"
    assert render_on("a100_sxm", template) == "stay in bf16"


def test_a_template_names_the_memory_and_the_vendor():
    template = "{{ gpu.memory }} {% if gpu.hbm %}HBM{% else %}DRAM{% endif %} {{ gpu.vendor }}"
    assert render_on("h200", template) == "HBM3e HBM nvidia"
    assert render_on("l40s", template) == "GDDR6 DRAM nvidia"
    assert render_on("mi300x", template) == "HBM3 HBM amd"
    assert render_on("t4", "{{ hw.h100_sxm.nvls }} {{ hw.a100_sxm.nvls }}") == "True False"


def test_a_capability_on_a_table_that_does_not_answer_it_is_an_error_naming_the_file(tmp_path):
    bank, _problems = load_bank()
    table = raw("t4")
    del table["features"], table["memory"]
    bare = Hardware.model_validate({**table, "id": "bare"})
    context = template_context(bank, bare)
    with pytest.raises(TemplateError, match=r"add features\.fp8 to hardware/bare\.yaml"):
        render_template("{% if gpu.fp8 %}x{% endif %}", context)
    with pytest.raises(TemplateError, match="does not name its memory kind"):
        render_template("{{ gpu.memory }}", context)


def test_an_unknown_capability_is_still_an_error():
    with pytest.raises(TemplateError, match="unknown hardware field 'fp3'"):
        render_on("h100_sxm", "{% if gpu.fp3 %}x{% endif %}")


# --- the CLI --------------------------------------------------------------------------------


def test_hw_show_lists_capabilities_with_their_sources():
    result = CliRunner().invoke(app, ["hw", "show", "a100_sxm", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["memory"] == "HBM2e"
    assert shown["features"]["nvls"]["supported"] is False
    assert shown["features"]["nvls"]["source"] in shown["sources"]
    plain = CliRunner().invoke(app, ["hw", "show", "a100_sxm"])
    assert "nvswitch" in plain.stdout and "HBM2e" in plain.stdout
