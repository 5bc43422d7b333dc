"""`gpuprep show` and the TUI show one question alike: the same GPU, the same numbers, the same text."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.bank.loader import load_bank
from gpuprep.cli.main import app as cli
from gpuprep.settings import Settings, save_settings
from gpuprep.tui.screens.practice import PracticeScreen
from gpuprep.tui.screens.question import QuestionScreen

SIZE = (120, 36)
QUESTIONS = textwrap.dedent(
    """\
    topic: {id: parity, title: Parity}
    questions:
      - id: parity-copy
        title: Copy a matrix
        kind: estimation
        level: junior
        minutes: 3
        prompt: |
          Copy a {{ M }} x {{ M }} matrix of {{ elem }} elements on one {{ gpu.name }}.
        estimate:
          solution: bytes / gpu.hbm_bandwidth
          unit: us
          gpu: h100_sxm
          gpus: [a100_sxm]
          params:
            M: {value: 8192, values: [4096, 16384]}
            elem: {value: 2, unit: B}
          steps:
            - {name: bytes, formula: "2 * M^2 * elem", unit: MB, label: "read and written"}
        answer: |
          {{ bytes }} / {{ gpu.hbm_bandwidth }} = **{{ answer }}**.
        rubric:
          strong_signals: [counts the write]
          red_flags: [forgets the write]
    """
)


@pytest.fixture(scope="module")
def bank_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("parity-bank")
    (root / "questions").mkdir()
    (root / "questions" / "parity.yaml").write_text(QUESTIONS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def bank(bank_dir):
    loaded, _problems = load_bank([bank_dir])  # the built-in bank's hardware, and the question
    return loaded


def gpuprep_show(bank_dir: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["show", "parity-copy", "--bank", str(bank_dir), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    ("saved_gpu", "shown_gpu"),
    [("a100_sxm", "a100_sxm"), ("t4", "h100_sxm"), (None, "h100_sxm")],
    ids=["saved GPU the question allows", "saved GPU it does not allow", "nothing saved"],
)
async def test_show_and_the_browse_screen_show_the_same_gpu_and_numbers(
    bank, bank_dir, build_app, saved_gpu, shown_gpu
):
    save_settings(Settings(gpu=saved_gpu))
    document = json.loads(gpuprep_show(bank_dir, "--json", "--answer"))
    text = gpuprep_show(bank_dir)
    gpu_line = next(line for line in text.splitlines() if line.startswith("GPU: "))

    app = build_app(bank=bank)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3", "slash", *"parity-copy", "enter", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QuestionScreen)
        view = screen.view
        assert view.gpu == document["gpu"] == shown_gpu
        assert view.prompt == document["prompt"]
        assert view.expected_value == pytest.approx(document["expected"]["value"], rel=1e-9)
        assert {name: figure.magnitude for name, figure in view.params.items()} == {
            "M": document["params"]["M"]["value"],
            "elem": document["params"]["elem"]["value"],
        }
        await pilot.press("a")
        await pilot.pause()
        shown = screen.query_one("#question-text").source
        assert gpu_line in shown
        assert document["answer"].strip() in shown
        assert all(line in shown for line in document["worked"])

        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)
        practised = app.screen.session.view()
        # A session draws its params at random, and its GPU among the allowed ones unless the
        # settings name one the question allows: then it asks on that GPU too.
        if saved_gpu == shown_gpu:
            assert practised.gpu == shown_gpu
        assert practised.gpu_name in str(app.screen.query_one("#where").render())
