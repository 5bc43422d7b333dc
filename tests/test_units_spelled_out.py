"""Time units spelled out, as people type them in answers: 'about 1.1 seconds', '3 usec'."""

from __future__ import annotations

import pytest

from gpuprep.units.quantity import parse_unit


@pytest.mark.parametrize(
    "word, seconds",
    [("seconds", 1.0), ("sec", 1.0), ("milliseconds", 1e-3), ("msec", 1e-3), ("usec", 1e-6),
     ("microseconds", 1e-6), ("nanoseconds", 1e-9), ("minutes", 60.0), ("hour", 3600.0)],
)
def test_a_spelled_out_time_unit_is_the_time_it_names(word, seconds):
    scale, dimension = parse_unit(word)
    assert scale == pytest.approx(seconds) and dimension == parse_unit("s")[1]


def test_no_unit_shadows_a_parameter_or_step_name_of_the_bank():
    from gpuprep.sessions.checked_bank import load_clean_bank
    from gpuprep.units.table import UNITS

    bank = load_clean_bank()
    for question in bank.questions.values():
        if question.estimate is None:
            continue
        names = set(question.estimate.params) | {step.name for step in question.estimate.steps}
        assert not names & set(UNITS), (question.id, names & set(UNITS))
