"""Defects found by walking through the README as a new user, each pinned by the behaviour fixed."""

from __future__ import annotations

import pytest

from gpuprep.store.database import Store, StoreError


def test_a_home_that_is_a_file_is_reported_not_a_traceback(tmp_path):
    home = tmp_path / "home"
    home.write_text("not a folder")
    with pytest.raises(StoreError, match="a file, not a folder.*GPUPREP_HOME"):
        Store(home / "progress.db")


def test_a_database_that_cannot_be_opened_is_left_where_it_is(tmp_path):
    # sqlite cannot open a folder: an OperationalError, like a read-only file or folder. The
    # progress there may be good, so it must not be moved aside as if it were corrupt.
    unopenable = tmp_path / "progress.db"
    unopenable.mkdir()
    with pytest.raises(StoreError, match="cannot open the progress database.*writable"):
        Store(unopenable)
    assert unopenable.is_dir()
    assert [p.name for p in tmp_path.iterdir()] == ["progress.db"]


README_TOPIC = """\
topic: {id: my-topic, title: My topic}
questions:
  - id: my-topic-stream-time
    title: Streaming a buffer
    kind: estimation
    level: junior
    minutes: 3
    prompt: How long does one pass over {{ size }} take on {{ gpu.name }}?
    estimate:
      solution: size / gpu.hbm_bandwidth
      unit: us
      gpu: h100_sxm
      gpus: [a100_sxm, h200]
      params:
        size: {value: 4, unit: GiB, values: [1, 16]}
    answer: |
      Memory bound: {{ size }} / {{ gpu.hbm_bandwidth }} = **{{ answer }}**.
    hints: [Count the bytes, then divide by the bandwidth.]
    rubric:
      strong_signals: [Divides bytes by HBM bandwidth, Uses GiB and GB correctly]
      red_flags: [Uses the compute rate]
      follow_ups: [What if the buffer fits in L2?]
"""


@pytest.fixture
def readme_bank(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    bank = tmp_path / "my-questions"
    (bank / "questions").mkdir(parents=True)
    (bank / "questions" / "my-topic.yaml").write_text(README_TOPIC)
    return bank


def test_the_readme_example_bank_passes_bank_check(readme_bank):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    result = CliRunner().invoke(app, ["bank", "check", "--bank", str(readme_bank)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok:")


def test_the_answer_command_that_show_suggests_works_for_a_question_from_an_extra_bank(
    readme_bank,
):
    import shlex

    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    runner = CliRunner()
    shown = runner.invoke(app, ["show", "my-topic-stream-time", "--bank", str(readme_bank)])
    suggested = shown.output.rsplit("(answer in us: ", 1)[1].rsplit(")", 1)[0]
    argv = shlex.split(suggested.replace('"..."', '"1282 us"'))
    assert argv[:2] == ["gpuprep", "answer"]
    graded = runner.invoke(app, argv[1:])
    assert graded.exit_code == 0, graded.output
    assert graded.output.startswith("correct")


@pytest.mark.parametrize("typed", ["0", "-5"])
def test_a_typed_parameter_of_zero_or_less_is_refused_with_its_name(tmp_path, monkeypatch, typed):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path))
    result = CliRunner().invoke(
        app, ["answer", "roofline-gemm-time", "1 ms", "--param", f"M={typed}"]
    )
    assert result.exit_code == 2
    assert f"parameter M must be greater than zero, not {typed}" in result.output


def test_a_typo_before_the_right_answer_does_not_lower_the_topic_accuracy():
    from datetime import UTC, datetime

    from gpuprep.bank.loader import load_bank
    from gpuprep.sessions.stats import progress
    from gpuprep.store.records import Attempt

    bank, _ = load_bank([])
    start = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    attempts = [
        Attempt(
            question_id="roofline-gemm-time",
            kind="estimation",
            verdict=verdict,
            started_at=start,
            seconds_taken=seconds,
        )
        for verdict, seconds in (("invalid", 5), ("correct", 30))
    ]
    roofline = next(t for t in progress(bank, {}, attempts, start).topics if t.topic == "roofline")
    assert (roofline.attempts, roofline.successes, roofline.accuracy) == (1, 1, 1.0)
    assert roofline.mean_seconds == 30


def test_bank_schema_into_a_folder_that_cannot_be_made_is_an_error_not_a_traceback(tmp_path):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = CliRunner().invoke(app, ["bank", "schema", "--out", str(blocker / "schemas")])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "cannot write" in result.output and "choose another folder" in result.output


@pytest.mark.parametrize(
    ("name", "expected"),
    [(".", "is a folder; give the .py file that defines vector_add"), ("notes.txt", "not a .py")],
)
def test_submit_says_what_file_it_needs_for_a_folder_or_a_non_python_file(
    tmp_path, monkeypatch, name, expected
):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    target = tmp_path / name
    if name != ".":
        target.write_text("def vector_add(x, y):\n    return x\n")
    result = CliRunner().invoke(app, ["submit", "vector_add", str(target), "--cpu"])
    assert result.exit_code == 2
    assert expected in result.output


def test_the_readme_calc_example_prints_what_the_readme_says():
    import re
    from pathlib import Path

    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    row = re.search(r'\| `gpuprep calc "(.+?)" --to (\w+)` \| .*?: `(.+?)` \|', readme)
    assert row is not None
    expression, unit, printed = row.groups()
    result = CliRunner().invoke(app, ["calc", expression, "--to", unit])
    assert result.output.strip() == printed


def test_hw_show_leaves_the_unit_of_a_count_blank_instead_of_printing_1(monkeypatch):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    monkeypatch.setenv("COLUMNS", "160")
    result = CliRunner().invoke(app, ["hw", "show", "h100_sxm"])
    sms = next(line for line in result.output.splitlines() if line.startswith("│ sms "))
    cells = [cell.strip() for cell in sms.strip("│").split("│")]
    assert cells[:3] == ["sms", "132", ""]


def test_an_answer_of_zero_is_called_zero_not_the_wrong_sign(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path))
    zero = CliRunner().invoke(app, ["answer", "roofline-gemm-time", "0 ms"])
    assert zero.output.startswith("wrong: 0 ms is zero; expected about 1.11 ms")
    negative = CliRunner().invoke(app, ["answer", "roofline-gemm-time", "--", "-1 ms"])
    assert "has the wrong sign" in negative.output


@pytest.mark.parametrize(
    ("argv", "printed"),
    [
        (["calc", "-1 GB + 3 GB"], "2 GB"),
        (["answer", "roofline-gemm-time", "-1 ms"], "wrong: -1 ms has the wrong sign"),
    ],
)
def test_an_expression_that_starts_with_a_minus_is_not_taken_for_an_option(
    tmp_path, monkeypatch, argv, printed
):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path))
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(printed)
    unknown = CliRunner().invoke(app, [*argv, "--bogus"])
    assert unknown.exit_code == 2


def test_show_of_a_coding_question_says_where_its_starters_are(tmp_path, monkeypatch):
    from pathlib import Path

    from typer.testing import CliRunner

    from gpuprep.cli.main import app

    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["show", "kernel-coding-vector-add"])
    assert result.exit_code == 0, result.output
    starters = [
        Path(line.removeprefix("(starter: ").removesuffix(")"))
        for line in result.output.splitlines()
        if line.startswith("(starter: ")
    ]
    assert {p.name for p in starters} == {"starter_triton.py", "starter_cuda.py"}
    assert all(p.is_file() for p in starters)


def test_a_hardware_figure_with_a_wrong_unit_is_reported_at_its_own_line(tmp_path):
    from gpuprep.bank.loader import load_bank
    from gpuprep.paths import builtin_folder

    table = (builtin_folder("hardware") / "h100_sxm.yaml").read_text()
    table = table.replace("id: h100_sxm", "id: my_gpu").replace(
        "hbm_bandwidth: {value: 3.35, unit: TB/s", "hbm_bandwidth: {value: 3.35, unit: TB"
    )
    (tmp_path / "hardware").mkdir()
    (tmp_path / "hardware" / "my_gpu.yaml").write_text(table)
    _bank, problems = load_bank([tmp_path])
    [problem] = problems
    line = next(n for n, text in enumerate(table.splitlines(), 1) if "hbm_bandwidth:" in text)
    assert (problem.line, problem.where) == (line, "specs.hbm_bandwidth")
    assert problem.what == "unit 'TB' is an amount of data, expected a bandwidth"


def test_a_saved_bank_folder_that_is_gone_points_at_the_settings_file_not_at_bank(
    tmp_path, monkeypatch
):
    from typer.testing import CliRunner

    from gpuprep.cli.main import app
    from gpuprep.settings import Settings, save_settings, settings_path

    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    save_settings(Settings(extra_banks=[tmp_path / "gone"]))
    result = CliRunner().invoke(app, ["bank", "stats"])
    assert result.exit_code == 1
    assert f"drop the folder from the extra_banks of {settings_path()}" in result.output
    assert "--bank" not in result.output
