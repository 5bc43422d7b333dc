"""A mock interview kept in the store, without any UI: graded against the question it showed,
saved on every change, resumed after a kill with the time it had used, finished into a report
that `--history`, `--report` and the review queue read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gpuprep.sessions import question_view
from gpuprep.sessions.clock import FrozenClock, ScaledClock, clock_scale
from gpuprep.sessions.mock import MockSession
from gpuprep.sessions.mock_markdown import clock_text, report_markdown
from gpuprep.sessions.mock_plan import MockError, MockPlan, MockSection
from gpuprep.sessions.mock_report import MockReport
from gpuprep.sessions.mock_run import MockRun, history, saved_report
from gpuprep.store.database import Store

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
ESTIMATE = "roofline-gemv-time"  # the estimate `mock_plan` (tests/conftest.py) asks


def _ids(mock_plan: MockPlan) -> tuple[str, str, str]:
    warm_up, estimate, scenario = (s.question_ids[0] for s in mock_plan.sections)
    return warm_up, estimate, scenario


# --- Grading against what was shown -------------------------------------------------------------


def test_an_estimate_is_graded_against_the_gpu_the_mock_showed_it_for(builtin_bank, mock_plan):
    clock = FrozenClock(START)
    on_h200 = MockSession(builtin_bank, mock_plan, clock=clock, gpu="h200")
    on_default = MockSession(builtin_bank, mock_plan, clock=clock)
    h200 = on_h200.view(ESTIMATE)
    assert h200.gpu == "h200" and on_default.view(ESTIMATE).gpu == "h100_sxm"
    assert h200.expected_value != pytest.approx(on_default.view(ESTIMATE).expected_value, rel=0.2)
    right_on_h200 = f"{h200.expected_value} {h200.unit}"
    for mock in (on_h200, on_default):
        mock.start()
        clock.advance(minutes=5)
        mock.type_answer(ESTIMATE, right_on_h200)
        mock.end()
        clock.advance(minutes=1)

    graded = [m.report().sections[1].questions[0] for m in (on_h200, on_default)]

    assert graded[0].verdict == "correct"
    assert graded[1].verdict != "correct", "the H100 figure is not the H200's"
    assert on_h200.report().gpu == "h200"


def test_the_question_is_solved_once_however_often_the_report_is_read(
    builtin_bank, mock_plan, monkeypatch
):
    builds = []
    real_build = question_view.QuestionView.build.__func__

    def counting_build(cls, question, *args, **kwargs):
        builds.append(question.id)
        return real_build(cls, question, *args, **kwargs)

    monkeypatch.setattr(question_view.QuestionView, "build", classmethod(counting_build))
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, mock_plan, clock=clock)
    mock.start()
    prompt = mock.view(ESTIMATE).prompt
    clock.advance(minutes=6)
    mock.type_answer(ESTIMATE, "1 ms")
    mock.end()

    for _ in range(3):
        mock.report()

    assert prompt
    assert builds.count(ESTIMATE) == 1


# --- Saved on every change, resumed after a kill ------------------------------------------------


def test_every_answer_is_saved_as_it_is_typed_and_a_killed_mock_resumes_with_its_time(
    builtin_bank, mock_plan, tmp_path
):
    warm_up, estimate, _scenario = _ids(mock_plan)
    clock = FrozenClock(START)
    first = Store(tmp_path / "progress.db")
    run = MockRun.begin(first, builtin_bank, mock_plan, clock=clock, now=clock)
    run.session.start()
    run.session.type_answer(warm_up, "peak FLOP/s over bandwidth")
    clock.advance(minutes=7)  # the warm-up timed out at 5; 2 minutes into the estimation
    run.session.type_answer(estimate, "0.6 ms")
    clock.advance(seconds=30)
    run.save()  # the front end's periodic save: the time used is on disk
    # The process is killed here: nothing is closed, nothing more is written.
    clock.advance(hours=2)

    second = Store(tmp_path / "progress.db")
    resumed = MockRun.resume(second, builtin_bank, clock=clock, now=clock)

    assert resumed.id == run.id
    session = resumed.session
    assert session.current.section.kind == "estimation"
    assert session.remaining() == timedelta(minutes=7, seconds=30)
    assert session.answer(warm_up) == "peak FLOP/s over bandwidth"
    assert session.answer(estimate) == "0.6 ms"
    assert session.runs[0].time_up
    first.close()
    second.close()


def test_a_typed_answer_reaches_the_store_before_any_periodic_save(builtin_bank, mock_plan, store):
    warm_up, _estimate, _scenario = _ids(mock_plan)
    clock = FrozenClock(START)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    run.session.start()

    run.session.type_answer(warm_up, "the ridge point")

    resumed = MockRun.resume(store, builtin_bank, clock=clock, now=clock)
    assert resumed.session.answer(warm_up) == "the ridge point"


def test_resume_says_why_when_there_is_nothing_to_resume(builtin_bank, mock_plan, store):
    clock = FrozenClock(START)
    with pytest.raises(MockError, match="no interrupted mock to resume"):
        MockRun.resume(store, builtin_bank, clock=clock)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    run.session.start()
    run.finish()
    with pytest.raises(MockError, match=f"mock #{run.id} is finished"):
        MockRun.resume(store, builtin_bank, run.id, clock=clock)
    with pytest.raises(MockError, match="no interrupted mock to resume"):
        MockRun.resume(store, builtin_bank, clock=clock)
    with pytest.raises(MockError, match="no mock #99"):
        MockRun.resume(store, builtin_bank, 99, clock=clock)


# --- Finished: the report, the history, the review queue ------------------------------------------


def _finished_run(builtin_bank, mock_plan, store, clock) -> MockRun:
    warm_up, estimate, scenario = _ids(mock_plan)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    session = run.session
    session.start()
    session.type_answer(warm_up, "FLOPs per byte where the roofs meet")
    clock.advance(minutes=2)
    session.next_section()
    session.type_answer(estimate, "1000 s")  # far off: wrong
    clock.advance(minutes=10)  # the estimation times out; the scenario gets nothing typed
    clock.advance(minutes=8)
    session.tick()
    for dimension in session.template(warm_up).dimensions:
        session.score(warm_up, dimension.name, 4)
    for dimension in session.template(scenario).dimensions:
        session.score(scenario, dimension.name, 2)
    session.tick_red_flag(scenario, 0)
    run.finish()
    return run


def test_a_finished_mock_keeps_its_report_and_history_lists_it_with_its_score(
    builtin_bank, mock_plan, store
):
    clock = FrozenClock(START)
    run = _finished_run(builtin_bank, mock_plan, store, clock)

    saved = saved_report(store, run.id)
    [summary] = history(store)

    assert saved == run.report
    assert saved.sections[1].questions[0].verdict == "wrong"
    assert (summary.id, summary.finished, summary.seconds_used) == (run.id, True, 120 + 600 + 480)
    assert summary.score == pytest.approx(run.report.score)
    assert summary.verdicts == {"wrong": 1}
    assert summary.study_next[0] == builtin_bank.questions[_ids(mock_plan)[2]].topic


def test_an_interrupted_mock_is_in_the_history_without_a_score_and_has_no_report(
    builtin_bank, mock_plan, store
):
    clock = FrozenClock(START)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    run.session.start()
    clock.advance(minutes=3)
    run.save()

    [summary] = history(store)

    assert (summary.finished, summary.seconds_used, summary.score) == (False, 180, None)
    with pytest.raises(MockError, match="interrupted; `gpuprep mock --resume`"):
        saved_report(store, run.id)


def test_the_weak_topics_questions_are_due_for_review_when_the_mock_ends(
    builtin_bank, mock_plan, store
):
    clock = FrozenClock(START)
    warm_up, estimate, scenario = _ids(mock_plan)

    run = _finished_run(builtin_bank, mock_plan, store, clock)

    cards = store.cards()
    assert set(run.queued) == {estimate, scenario}, "the warm-up scored 4/4 and stays out"
    assert {estimate, scenario} <= set(cards) and warm_up not in cards
    assert all(cards[q].due <= clock() for q in (estimate, scenario))


def test_a_card_scheduled_later_is_brought_forward_and_one_due_sooner_is_left(
    builtin_bank, mock_plan, store
):
    from gpuprep.sessions.srs import card_id_for
    from gpuprep.store.mocks import MockStore

    records = MockStore(store)
    later, sooner = START + timedelta(days=20), START - timedelta(days=2)
    records.queue_for_review(["a"], {"a": card_id_for("a")}, later)
    records.queue_for_review(["b"], {"b": card_id_for("b")}, sooner)

    moved = records.queue_for_review(["a", "b"], {q: card_id_for(q) for q in "ab"}, START)

    cards = store.cards()
    assert moved == 1
    assert cards["a"].due == START and cards["b"].due == sooner


def test_a_report_reads_back_from_its_json_unchanged(builtin_bank, mock_plan, store):
    run = _finished_run(builtin_bank, mock_plan, store, FrozenClock(START))

    assert MockReport.from_json(run.report.to_json()) == run.report


def test_the_markdown_report_gives_time_outcomes_and_what_to_study(builtin_bank, mock_plan, store):
    run = _finished_run(builtin_bank, mock_plan, store, FrozenClock(START))
    scenario = _ids(mock_plan)[2]

    text = report_markdown(run.report, mock_id=run.id, started_at=START)

    assert text.startswith(f"# Mock interview #{run.id}\n")
    assert "| 1 | Warm-up concepts | 5:00 | 2:00 | moved on | 4.0/4 |" in text
    assert "| 2 | Estimation | 10:00 | 10:00 | time up | wrong |" in text
    assert "| 3 | Debugging scenario | 8:00 | 8:00 | time up | 2.0/4 |" in text
    assert "time used 20:00 of 23:00" in text
    topic = builtin_bank.questions[scenario].topic
    assert f"1. **{builtin_bank.topics[topic].title}** (`{topic}`)" in text
    assert f"red flag: {builtin_bank.questions[scenario].rubric.red_flags[0]}" in text
    assert "*(nothing typed)*" in text


def test_a_table_cell_with_a_pipe_stays_in_its_cell(builtin_bank, mock_plan):
    section = MockSection("concept", "A | B", mock_plan.sections[0].question_ids, 5)
    mock = MockSession(
        builtin_bank, MockPlan(45, "general", None, 1, (), (section,)), clock=FrozenClock(START)
    )
    mock.start()
    mock.end()

    assert "| 1 | A \\| B | 5:00 |" in report_markdown(mock.report())


# --- The sped-up clock ---------------------------------------------------------------------------


def test_a_clock_scale_of_60_makes_a_45_minute_mock_pass_in_45_seconds():
    real = FrozenClock(START)
    fast = ScaledClock(60, real)

    real.advance(seconds=45)

    assert fast() - START == timedelta(minutes=45)
    assert clock_text((fast() - START).total_seconds()) == "45:00"


def test_a_bad_clock_scale_names_the_variable():
    assert clock_scale(None) == clock_scale("") == 1.0
    assert clock_scale("60") == 60.0
    for bad in ("fast", "0", "-2", "inf", "nan"):
        with pytest.raises(ValueError, match=r"GPUPREP_CLOCK_SCALE=.*positive number"):
            clock_scale(bad)
