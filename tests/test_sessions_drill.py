"""Drill sessions without any UI: the workspace, the language, the harness call, the saved result."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import yaml

from gpuprep.bank.loader import load_bank
from gpuprep.harness.report import Ceilings, Mode, Status, SubmitReport
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.drill import DrillSession, UnknownDrill

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank():
    loaded, _problems = load_bank()  # other topics may be mid-edit; the drills are what matter
    return loaded


class RecordingHarness:
    """Stands in for `gpuprep.harness.api`: remembers what it was asked, answers `report`."""

    def __init__(self, report: SubmitReport | None = None) -> None:
        self.report = report
        self.submitted: list[dict] = []

    def submit(self, drill, kernels_dir, file, **options) -> SubmitReport:
        self.submitted.append({"drill": drill, "kernels_dir": kernels_dir, "file": file, **options})
        return self.report or SubmitReport(drill.id, str(file), Status.PASSED, mode=Mode.CPU)

    def bench(self, drill, kernels_dir, **options):
        raise AssertionError("not benched here")


def test_starters_go_to_the_workspace_triton_first_and_never_over_the_users_edits(bank):
    session = DrillSession(bank)
    written = session.write_starters("vector_add")
    assert [p.name for p in written] == ["starter_triton.py", "starter_cuda.py"]
    assert all(p.parent == session.workspace("vector_add") for p in written)
    written[0].write_text("# my kernel\n")
    session.write_starters("vector_add")
    assert written[0].read_text() == "# my kernel\n"


def test_the_workspace_submits_its_triton_file_else_its_cuda_one(bank):
    session = DrillSession(bank)
    assert session.submission("softmax") is None
    workspace = session.workspace("softmax")
    workspace.mkdir(parents=True)
    (workspace / "starter_cuda.py").write_text("import cupy\n")
    assert session.submission("softmax") == workspace / "starter_cuda.py"
    (workspace / "starter_triton.py").write_text("import triton\n")
    assert session.submission("softmax") == workspace / "starter_triton.py"


def test_a_question_that_asks_for_cuda_gets_the_cuda_file_first(bank):
    session = DrillSession(bank)
    written = session.write_starters("vector_add", "cuda")
    assert [p.name for p in written] == ["starter_cuda.py", "starter_triton.py"]
    workspace = session.workspace("vector_add")
    assert session.submission("vector_add", "cuda") == workspace / "starter_cuda.py"
    assert session.submission("vector_add") == workspace / "starter_triton.py"
    (workspace / "starter_cuda.py").unlink()
    assert session.submission("vector_add", "cuda") == workspace / "starter_triton.py"


def test_the_language_is_the_harness_rule_not_the_file_name(bank, tmp_path):
    session = DrillSession(bank)
    named_triton = tmp_path / "starter_triton.py"
    named_triton.write_text("import cupy\n\ndef vector_add(x, y): ...\n")
    named_cuda = tmp_path / "my_cuda_attempt.py"
    named_cuda.write_text("import triton\n\ndef vector_add(x, y): ...\n")
    assert session.language(named_triton) == "cuda"
    assert session.language(named_cuda) == "triton"


def test_submit_hands_the_harness_the_banks_drill_its_ladder_and_the_ceilings(bank, tmp_path):
    harness = RecordingHarness()
    session = DrillSession(bank, harness=harness)
    mine = tmp_path / "mine.py"
    mine.write_text("def vector_add(x, y): ...\n")
    report = session.submit("vector_add", mine, cpu=True, timeout_s=30)
    [call] = harness.submitted
    assert call["drill"] is bank.drills["vector_add"]
    assert call["kernels_dir"] == bank.kernels_ref_dir("vector_add")
    assert (call["file"], call["cpu"], call["timeout_s"]) == (mine, True, 30)
    assert call["ceilings_for"] == session.ceilings
    assert report.passed


def test_an_unknown_drill_names_the_known_ones(bank, tmp_path):
    with pytest.raises(
        UnknownDrill, match=r"unknown drill 'softmx'; did you mean softmax\? \(known: .*vector_add"
    ):
        DrillSession(bank, harness=RecordingHarness()).submit("softmx", tmp_path / "x.py")


def test_submitting_with_nothing_in_the_workspace_says_to_write_the_starter(bank):
    with pytest.raises(FileNotFoundError, match="write the starter first"):
        DrillSession(bank, harness=RecordingHarness()).submit("vector_add")


def test_a_file_that_cannot_be_submitted_says_why(bank, tmp_path):
    session = DrillSession(bank)
    (tmp_path / "notes.txt").write_text("")
    assert session.problem_with("vector_add", tmp_path).endswith(
        "is a folder; give the .py file that defines vector_add(...)"
    )
    assert session.problem_with("vector_add", tmp_path / "gone.py").startswith("no such file")
    assert "is not a .py file" in session.problem_with("vector_add", tmp_path / "notes.txt")


def test_the_ceilings_come_from_the_matching_table_and_the_calibration(bank, isolated_gpuprep_home):
    session = DrillSession(bank)
    h100 = bank.hardware["h100_sxm"]
    device = {"kind": "cuda", "name": h100.aliases[0]}
    ceilings = session.ceilings(device)
    assert ceilings.gpu_id == "h100_sxm"
    assert ceilings.datasheet_bandwidth == pytest.approx(h100.get("hbm_bandwidth").to("B/s"))
    assert ceilings.calibrated_bandwidth is None
    (isolated_gpuprep_home / "calibration.yaml").write_text(
        yaml.safe_dump({"devices": {h100.aliases[0]: {"copy_gbps": 2900.0}}})
    )
    assert session.ceilings(device).calibrated_bandwidth == pytest.approx(2.9e12)
    assert session.ceilings({"kind": "cuda", "name": "Some Future GPU"}) == Ceilings()


def test_recording_saves_the_report_with_the_clocks_time_and_its_headline(bank, store):
    clock = FrozenClock(START)
    session = DrillSession(bank, store, clock)
    report = SubmitReport(
        "transpose",
        "mine.py",
        Status.FAILED,
        "wrong output for n=1000",
        language="cuda",
        mode=Mode.GPU,
    )
    saved = session.record(report)
    assert saved.id is not None
    [stored] = session.results("transpose")
    assert stored == saved
    assert (stored.language, stored.passed, stored.submitted_at) == ("cuda", False, START)
    assert stored.summary == "failed: wrong output for n=1000 (gpu mode)"
    assert SubmitReport.from_json(stored.detail) == report


def test_without_a_store_nothing_is_saved(bank):
    session = DrillSession(bank)
    result = session.record(SubmitReport("vector_add", "mine.py", Status.PASSED))
    assert result.id is None and session.results("vector_add") == []


def test_the_unknown_drill_message_names_the_collective_drill_too(bank, tmp_path):
    with pytest.raises(UnknownDrill, match=r"\(known: all_reduce, "):
        DrillSession(bank, harness=RecordingHarness()).submit("nosuch", tmp_path / "x.py")
