"""`bank check` evaluates every estimation formula on every allowed GPU and renders every template."""

from __future__ import annotations

import textwrap
from pathlib import Path

from gpuprep.bank.loader import load_bank
from gpuprep.bank.problems import Problem
from gpuprep.estimate.bank_check import check_estimates

GOOD = """\
  - id: {qid}
    title: Copy time
    kind: estimation
    level: junior
    minutes: 3
    prompt: |
      Copy {{{{ M }}}} elements on one {{{{ gpu.name }}}} ({{{{ gpu.hbm_bandwidth }}}}).
    estimate:
      solution: {solution}
      unit: {unit}
      gpu: h100_sxm
      gpus: [{gpus}]
      params:
        {param}: {{value: 1024, values: [2048]}}
        elem: {{value: 2, unit: B}}
      steps:
        - {{name: bytes, formula: "{step}", unit: MB}}
    answer: |
      Bytes {{{{ bytes }}}} over {{{{ gpu.hbm_bandwidth }}}} = **{{{{ answer }}}}**.
    rubric:
      strong_signals: [reads and writes]
      red_flags: [forgets the write]
"""


def write_bank(tmp_path: Path, *questions: str, extra: str = "") -> Path:
    folder = tmp_path / "bank" / "questions"
    folder.mkdir(parents=True)
    text = "topic: {id: planted-topic, title: Planted}\nquestions:\n" + "".join(questions) + extra
    (folder / "planted.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "bank"


def question(qid: str = "planted-copy", **fields: str) -> str:
    values = {
        "qid": qid,
        "solution": "bytes / gpu.hbm_bandwidth",
        "unit": "us",
        "gpus": "a100_sxm",
        "param": "M",
        "step": "2 * M^2 * elem",
    }
    values.update(fields)
    return GOOD.format(**values)


def planted_problems(root: Path) -> list[Problem]:
    bank, problems = load_bank([root])
    mine = [p for p in problems if root in p.path.parents]
    assert mine == [], mine
    return [p for p in check_estimates(bank) if root in p.path.parents]


def line_of(root: Path, needle: str) -> int:
    lines = (root / "questions" / "planted.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def test_a_good_question_has_no_problems(tmp_path: Path) -> None:
    assert planted_problems(write_bank(tmp_path, question())) == []


def test_a_solution_in_the_wrong_unit_is_reported_at_the_solution(tmp_path: Path) -> None:
    root = write_bank(tmp_path, question(unit="GB/s"))
    (problem,) = planted_problems(root)
    assert problem.line == line_of(root, "solution:")
    assert "gives a time but the unit 'GB/s' is a bandwidth" in problem.what


def test_a_missing_hardware_field_names_the_gpu(tmp_path: Path) -> None:
    root = write_bank(
        tmp_path, question(solution="bytes / gpu.fp4_dense * 1 FLOP/B", gpus="h100_sxm")
    )
    problems = planted_problems(root)
    assert problems, "h100_sxm has no fp4 figure"
    assert any("h100_sxm has no fp4_dense figure" in p.what for p in problems)
    assert all(p.line == line_of(root, "solution:") for p in problems if "fp4" in p.what)


def test_a_parse_error_is_reported_with_the_caret_at_the_step(tmp_path: Path) -> None:
    root = write_bank(tmp_path, question(step="2 * M^2 * * elem"))
    problems = planted_problems(root)
    assert [p.line for p in problems] == [line_of(root, "- {name: bytes")]
    assert "^" in problems[0].what


def test_a_param_named_like_a_unit_is_refused(tmp_path: Path) -> None:
    root = write_bank(tmp_path, question(param="s", step="2 * s^2 * elem"))
    problems = planted_problems(root)
    assert any("parameter name 's' is the unit 's'" in p.what for p in problems)


def test_an_unknown_name_in_a_formula_is_reported(tmp_path: Path) -> None:
    root = write_bank(tmp_path, question(step="2 * N^2 * elem"))
    problems = planted_problems(root)
    assert any("N is not a parameter or an earlier step" in p.what for p in problems)


def test_an_undefined_template_placeholder_is_reported_at_its_line(tmp_path: Path) -> None:
    concept = textwrap.dedent(
        """\
          - id: planted-concept
            title: Ridge
            kind: concept
            level: junior
            minutes: 3
            prompt: |
              The {{ hw.h100_sxm.name }} ridge point.
              Compare with {{ hw.no_such_gpu.ridge_bf16 }}.
            answer: |
              {{ hw.h100_sxm.bf16_dense }} / {{ hw.h100_sxm.hbm_bandwidth }}
            rubric:
              strong_signals: [ratio]
              red_flags: [none]
        """
    )
    concept = textwrap.indent(concept, "  ")
    root = write_bank(tmp_path, concept)
    (problem,) = planted_problems(root)
    assert "unknown GPU 'no_such_gpu'" in problem.what
    assert problem.line == line_of(root, "no_such_gpu")


def test_the_worked_answer_must_show_the_bold_answer(tmp_path: Path) -> None:
    text = question().replace("= **{{ answer }}**", "= {{ answer }}")
    (problem,) = planted_problems(write_bank(tmp_path, text))
    assert "**{{ answer }}**" in problem.what


def test_300_clean_estimation_questions_check_clean(tmp_path: Path) -> None:
    # How long this takes is measured in benchmarks/estimate_bench.py, not asserted here.
    root = write_bank(tmp_path, *(question(qid=f"planted-{i}") for i in range(300)))
    bank, _ = load_bank([root])
    problems = check_estimates(bank)
    assert [p for p in problems if root in p.path.parents] == []
    assert sum(1 for q in bank.questions if q.startswith("planted-")) == 300


def test_bank_check_does_not_import_sympy() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from gpuprep.bank.loader import load_bank\n"
        "from gpuprep.estimate.bank_check import check_bank\n"
        "bank, problems = load_bank()\n"
        "check_bank(bank)\n"
        "print('sympy' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_a_placeholder_missing_on_a_variant_gpu_is_reported(tmp_path: Path) -> None:
    text = question().replace("({{ gpu.hbm_bandwidth }})", "({{ gpu.fp8_dense }})")
    root = write_bank(tmp_path, text)
    (problem,) = planted_problems(root)
    assert "a100_sxm has no fp8_dense figure" in problem.what
    assert "(on a100_sxm)" in problem.what
    assert problem.line == line_of(root, "gpu.fp8_dense")
