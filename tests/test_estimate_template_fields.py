"""An estimation question whose formula does not evaluate has nothing to render with, yet
`bank check` still reports the hardware fields its prompt and answer misspell."""

from __future__ import annotations

import shutil
from pathlib import Path

from gpuprep.bank.loader import load_bank, load_hardware
from gpuprep.estimate.bank_check import check_bank
from gpuprep.estimate.template_fields import FieldRead, field_faults, field_reads

FIXTURE_HARDWARE = Path(__file__).parent / "tui" / "fixtures" / "bank" / "hardware"

BROKEN_FORMULA = """\
topic: {id: tf, title: Template fields, summary: Fields read by a question that cannot be solved.}
questions:
  - id: tf-unsolved
    title: A formula that names a step nobody defined
    kind: estimation
    level: junior
    minutes: 3
    prompt: |
      One {{ gpu.name }} moves {{ gpu.hbm_bandwith }} from its {{ hw.h100_sx.hbm_capacity }}.
      {# {{ gpu.not_read_in_a_comment }} #}How long for {{ size }}?
    estimate:
      solution: size / no_such_step
      unit: ms
      gpu: h100_sxm
      params:
        size: {value: 1, unit: GB}
    answer: |
      **{{ answer }}**, at {{ gpu.hbm_bandwidth.as_unit("GB/s") }}.
    rubric:
      strong_signals: [Divides bytes by bandwidth.]
      red_flags: [Uses the L2 bandwidth.]
"""


def test_the_reads_of_a_template_are_its_gpu_and_hw_fields_in_order_and_not_its_comments():
    source = (
        "{{ gpu.name }} and {{ hw.h100_sxm.sms }}\n"
        "{# {{ gpu.hidden }} #}{{ 'gpu.quoted' }} {{ gpu.hbm_bandwidth.as_unit('GB/s') }}"
    )
    assert field_reads(source) == (
        FieldRead("gpu", "name", 1),
        FieldRead("h100_sxm", "sms", 1),
        FieldRead("gpu", "hbm_bandwidth", 2),
    )


def test_an_unsolvable_question_still_has_its_misspelt_field_and_gpu_reported(tmp_path):
    shutil.copytree(FIXTURE_HARDWARE, tmp_path / "hardware")
    (tmp_path / "questions").mkdir()
    path = tmp_path / "questions" / "tf.yaml"
    path.write_text(BROKEN_FORMULA)
    bank, problems = load_bank([tmp_path], builtin=False)
    assert problems == []

    found = [(p.line, p.what) for p in check_bank(bank)]

    assert found == [
        (
            9,
            "prompt: unknown GPU 'h100_sx' in hw.h100_sx; did you mean h100_sxm?; "
            "the GPUs are h100_sxm",
        ),
        (
            9,
            "prompt: unknown hardware field 'hbm_bandwith' of h100_sxm; did you mean hbm_bandwidth?",
        ),
        (12, "solution: no_such_step is not a parameter or an earlier step"),
    ]


def test_a_figure_one_gpu_lacks_is_left_to_rendering_which_knows_the_branch_taken():
    # training-time-to-train reads fp8_dense only on a GPU that has fp8; the A100 has neither.
    hardware, _problems = load_hardware()
    guarded = "{% if gpu.fp8 %}{{ gpu.fp8_dense }}{% endif %}{{ gpu.fp8_dens }}"

    faults = field_faults(guarded, "answer", hardware, hardware["a100_sxm"])

    assert [error.message for _read, error in faults] == [
        "answer: unknown hardware field 'fp8_dens' of a100_sxm; did you mean fp8_dense?"
    ]
