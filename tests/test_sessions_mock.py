"""Mock interviews without any UI: how a loop is composed, how its sections time out on a fake
clock, self-scoring against the rubric templates, the report, and resuming."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from gpuprep.estimate.render import render_question
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.mock import MockSession, SectionClosed
from gpuprep.sessions.mock_plan import (
    MOCK_MINUTES,
    SECTION_ORDER,
    TRACK_TOPICS,
    TRACKS,
    MockError,
    MockPlan,
    MockSection,
    choose_mock,
    compose,
    needs_cuda_gpu,  # imported there from sessions.coding
    on_track,
)
from gpuprep.store.records import Attempt

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


# --- Composition ----------------------------------------------------------------------------


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("minutes", MOCK_MINUTES)
def test_a_loop_fits_its_minutes_in_the_order_real_loops_run(builtin_bank, minutes, track):
    for seed in range(12):
        plan = compose(builtin_bank, minutes=minutes, track=track, seed=seed)

        kinds = [section.kind for section in plan.sections]
        assert kinds == [k for k in SECTION_ORDER if k in kinds], "sections out of order"
        assert kinds[:3] == ["concept", "estimation", "debugging"]
        assert {"coding", "design"} & set(kinds), "a loop has a drill or a design question"
        for section in plan.sections:
            questions = [builtin_bank.questions[q] for q in section.question_ids]
            assert questions and all(q.kind == section.kind for q in questions)
            assert section.minutes == sum(q.minutes for q in questions)
        assert minutes - 5 <= plan.total_minutes <= minutes, (seed, plan.total_minutes)
        assert len(set(plan.question_ids)) == len(plan.question_ids), "a question asked twice"


def test_every_section_kind_appears_once_the_loop_has_room_for_it(builtin_bank):
    plan = compose(builtin_bank, minutes=90, track="general", seed=5)

    assert [s.kind for s in plan.sections] == list(SECTION_ORDER)
    debugging = next(s for s in plan.sections if s.kind == "debugging")
    assert all(builtin_bank.questions[q].artifact is not None for q in debugging.question_ids)
    drill = next(s for s in plan.sections if s.kind == "coding")
    assert all(builtin_bank.questions[q].drill in builtin_bank.drills for q in drill.question_ids)


def test_a_45_minute_loop_leaves_out_the_section_its_track_values_least_and_says_why(builtin_bank):
    kernel = compose(builtin_bank, minutes=45, track="kernel", seed=1)
    inference = compose(builtin_bank, minutes=45, track="inference", seed=1)

    assert "coding" in {s.kind for s in kernel.sections}
    assert "design" not in {s.kind for s in kernel.sections}
    assert any("design" in note for note in kernel.notes)
    assert "design" in {s.kind for s in inference.sections}
    assert "coding" not in {s.kind for s in inference.sections}


def drills_drawn(
    bank,
    *,
    cuda_gpu: bool,
    tracks: tuple[str, ...] = TRACKS,
    lengths: tuple[int, ...] = MOCK_MINUTES,
    level: str | None = None,
) -> set[str]:
    """Every kernel drill question the loops of these tracks and lengths (at `level` or easier,
    or any level) ask over 40 seeds."""
    return {
        qid
        for track in tracks
        for minutes in lengths
        for seed in range(40)
        for section in compose(
            bank, minutes=minutes, track=track, level=level, seed=seed, cuda_gpu=cuda_gpu
        ).sections
        if section.kind == "coding"
        for qid in section.question_ids
    }


def test_without_a_cuda_gpu_no_mock_asks_for_a_cuda_kernel(builtin_bank):
    cuda_kernels = {
        q.id
        for q in builtin_bank.questions.values()
        if q.kind == "coding" and "cuda" in q.tags and "triton" not in q.tags
    }
    assert "kernel-coding-vector-add-cuda-float4" in cuda_kernels

    drawn = drills_drawn(builtin_bank, cuda_gpu=False)

    assert drawn, "loops without a GPU still have a kernel drill"
    assert not drawn & cuda_kernels
    assert "kernel-coding-transpose-skinny-shapes" in drawn, "Triton or CUDA: Triton runs here"


def test_with_a_cuda_gpu_a_mock_can_ask_for_a_cuda_kernel(builtin_bank):
    drawn = drills_drawn(builtin_bank, cuda_gpu=True)

    assert "kernel-coding-vector-add-cuda-float4" in drawn
    assert any(needs_cuda_gpu(builtin_bank.questions[qid]) for qid in drawn)


def test_a_plan_without_a_cuda_gpu_says_why_its_drill_is_not_a_cuda_one(builtin_bank):
    without = compose(builtin_bank, minutes=45, track="kernel", seed=2, cuda_gpu=False)
    with_gpu = compose(builtin_bank, minutes=45, track="kernel", seed=2, cuda_gpu=True)

    assert any("no CUDA GPU" in note for note in without.notes)
    assert not any("CUDA" in note for note in with_gpu.notes)


def test_choose_mock_passes_the_machine_s_gpu_on_to_the_composition(builtin_bank):
    for cuda_gpu in (False, True):
        chosen = choose_mock(builtin_bank, minutes=90, track="kernel", seed=4, cuda_gpu=cuda_gpu)
        assert chosen == compose(
            builtin_bank, minutes=90, track="kernel", seed=4, cuda_gpu=cuda_gpu
        )


def test_every_coding_question_that_asks_for_cuda_c_is_one_a_gpu_less_mock_leaves_out(
    builtin_bank,
):
    # The mock reads a question's language from its tags; a CUDA question tagged otherwise
    # would be drawn on a machine that cannot run it.
    for question in builtin_bank.questions.values():
        if question.kind == "coding" and "in CUDA C through CuPy" in question.prompt:
            assert needs_cuda_gpu(question), question.id


def test_a_long_drill_does_not_squeeze_the_warm_up_to_its_shortest_question(builtin_bank):
    sizes = Counter()
    for seed in range(30):
        plan = compose(builtin_bank, minutes=45, track="general", seed=seed)
        sizes.update({s.kind: s.minutes for s in plan.sections})
    assert sizes["coding"] / 30 <= 20
    assert sizes["concept"] / 30 >= 6 and sizes["debugging"] / 30 >= 7


def test_the_same_seed_gives_the_same_interview_and_another_seed_another(builtin_bank):
    first = compose(builtin_bank, minutes=60, track="general", seed=42)

    assert compose(builtin_bank, minutes=60, track="general", seed=42) == first
    others = {
        compose(builtin_bank, minutes=60, track="general", seed=s).question_ids for s in range(10)
    }
    assert len(others) > 5


@pytest.mark.parametrize("track", ["kernel", "inference", "training"])
def test_a_track_draws_its_topics(builtin_bank, track):
    asked = [
        builtin_bank.questions[q]
        for seed in range(10)
        for section in compose(builtin_bank, minutes=90, track=track, seed=seed).sections
        if section.kind != "coding"
        for q in section.question_ids
    ]
    on = sum(on_track(q, track) for q in asked)
    assert on / len(asked) >= 0.9, f"{len(asked) - on} of {len(asked)} off the {track} track"


def test_every_track_topic_is_in_the_bank(builtin_bank):
    assert {t for topics in TRACK_TOPICS.values() for t in topics} <= set(builtin_bank.topics)


def test_a_level_asks_that_level_or_easier_and_a_junior_loop_has_no_design(builtin_bank):
    for seed in range(10):
        plan = compose(builtin_bank, minutes=60, track="general", level="mid", seed=seed)
        levels = {builtin_bank.questions[q].level for q in plan.question_ids}
        assert levels <= {"mid", "junior"}
        assert Counter(builtin_bank.questions[q].level for q in plan.question_ids)["mid"] >= 3
    junior = compose(builtin_bank, minutes=60, track="general", level="junior", seed=1)
    assert {builtin_bank.questions[q].level for q in junior.question_ids} == {"junior"}
    assert "design" not in {s.kind for s in junior.sections}
    assert any("no design question at junior level" in note for note in junior.notes)


def test_bad_choices_are_refused_in_words(builtin_bank):
    with pytest.raises(MockError, match="45, 60, 90 minutes, not 50"):
        compose(builtin_bank, minutes=50, seed=1)
    with pytest.raises(MockError, match="unknown track 'gpu'"):
        compose(builtin_bank, track="gpu", seed=1)
    with pytest.raises(MockError, match="unknown level 'staff'"):
        compose(builtin_bank, level="staff", seed=1)


def _failed_history(builtin_bank, topic: str) -> tuple[dict, list[Attempt]]:
    """Two wrong estimates in `topic` and two right ones elsewhere: `topic` is the weak one."""
    wrong = [q for q in builtin_bank.questions_in(topic) if q.kind == "estimation"][:2]
    right = [q for q in builtin_bank.questions_in("roofline") if q.kind == "estimation"][:2]
    attempts = [
        Attempt(q.id, q.kind, verdict, START - timedelta(days=1), 60.0)
        for qs, verdict in ((wrong, "wrong"), (right, "correct"))
        for q in qs
    ]
    return {}, attempts


def test_without_a_seed_every_interview_asks_about_the_weak_topic_of_the_history(builtin_bank):
    history = _failed_history(builtin_bank, "quantization")

    def asks_about_quantization(history) -> list[bool]:
        plans = [
            choose_mock(
                builtin_bank, minutes=60, history=history, now=START, entropy=random.Random(draw)
            )
            for draw in range(20)
        ]
        return [
            any(builtin_bank.questions[q].topic == "quantization" for q in p.question_ids)
            for p in plans
        ]

    assert choose_mock(builtin_bank, history=history, now=START).weak_topics == ("quantization",)
    assert all(asks_about_quantization(history))
    assert sum(asks_about_quantization(({}, []))) <= 5


def test_a_seed_gives_the_same_interview_whatever_the_history(builtin_bank):
    history = _failed_history(builtin_bank, "quantization")

    with_history = choose_mock(builtin_bank, seed=7, history=history, now=START)

    assert with_history == choose_mock(builtin_bank, seed=7, history=({}, []), now=START)
    assert with_history.weak_topics == ()


# --- Timing on a fake clock ------------------------------------------------------------------


def _first(builtin_bank, kind: str, **where) -> str:
    return next(
        q.id
        for q in builtin_bank.questions.values()
        if q.kind == kind and all(getattr(q, k) == v for k, v in where.items())
    )


def test_sections_time_out_in_order_and_what_was_typed_is_kept(builtin_bank, mock_plan):
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, mock_plan, clock=clock)
    warm_up, estimate, scenario = (s.question_ids[0] for s in mock_plan.sections)
    mock.start()
    mock.type_answer(warm_up, "the ridge point is peak FLOP/s over bandwidth")

    clock.advance(minutes=4, seconds=59)
    assert mock.current.section.kind == "concept"
    assert mock.remaining() == timedelta(seconds=1)
    clock.advance(seconds=1)
    assert mock.current.section.kind == "estimation"
    assert mock.remaining() == timedelta(minutes=10)
    with pytest.raises(SectionClosed, match="warm-up concepts section is over"):
        mock.type_answer(warm_up, "too late")
    with pytest.raises(SectionClosed, match="debugging scenario section has not begun"):
        mock.type_answer(scenario, "too early")
    mock.type_answer(estimate, "1 ms")

    closed = (clock.advance(minutes=30), mock.tick())[1]

    assert [run.section.kind for run in closed] == ["estimation", "debugging"]
    assert mock.finished
    assert mock.answer(warm_up) == "the ridge point is peak FLOP/s over bandwidth"
    assert mock.answer(estimate) == "1 ms"
    used = [section.seconds_used for section in mock.report().sections]
    assert used == [300, 600, 480]
    assert all(section.time_up for section in mock.report().sections)


def test_moving_on_early_keeps_the_time_for_the_rest(builtin_bank, mock_plan):
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, mock_plan, clock=clock)
    mock.start()
    assert mock.total_remaining() == timedelta(minutes=23)

    clock.advance(minutes=2)
    mock.next_section()
    clock.advance(minutes=3)

    assert mock.current.section.kind == "estimation"
    assert mock.remaining() == timedelta(minutes=7)
    assert mock.total_remaining() == timedelta(minutes=15)
    mock.end()
    report = mock.report()
    assert [s.seconds_used for s in report.sections] == [120, 180, 0]
    assert [s.time_up for s in report.sections] == [False, False, False]
    assert report.seconds_used == 300


def test_a_killed_mock_resumes_with_the_time_it_had_used(builtin_bank, mock_plan):
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, mock_plan, clock=clock)
    mock.start()
    clock.advance(minutes=6)  # the warm-up timed out after 5; 1 minute into the estimation
    mock.type_answer(mock_plan.sections[1].question_ids[0], "2 ms")
    saved = mock.snapshot()

    clock.advance(hours=3)  # the terminal was closed; the time away is not counted
    resumed = MockSession.resume(builtin_bank, saved, clock=clock)

    assert resumed.current.section.kind == "estimation"
    assert resumed.remaining() == timedelta(minutes=9)
    assert resumed.answer(mock_plan.sections[1].question_ids[0]) == "2 ms"
    clock.advance(minutes=9)
    assert resumed.current.section.kind == "debugging"
    assert [r.elapsed(clock()).total_seconds() for r in resumed.runs[:2]] == [300, 600]


# --- Self-scoring and the report --------------------------------------------------------------


def _expected_answer(builtin_bank, question_id: str) -> str:
    rendered = render_question(builtin_bank.questions[question_id], builtin_bank)
    return f"{rendered.expected_value} {rendered.unit}"


def test_self_scoring_follows_the_rubric_template_and_starts_when_the_mock_is_over(
    builtin_bank, mock_plan
):
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, mock_plan, clock=clock)
    warm_up = mock_plan.sections[0].question_ids[0]
    mock.start()
    with pytest.raises(MockError, match="when the mock is over"):
        mock.score(warm_up, mock.template(warm_up).dimensions[0].name, 3)
    mock.end()

    dimensions = [d.name for d in mock.template(warm_up).dimensions]
    assert mock.template(warm_up).kind == "concept"
    assert all(set(d.levels) == {1, 2, 3, 4} for d in mock.template(warm_up).dimensions)
    with pytest.raises(MockError, match="not a dimension"):
        mock.score(warm_up, "Charisma", 3)
    with pytest.raises(MockError, match="1 to 4"):
        mock.score(warm_up, dimensions[0], 5)
    with pytest.raises(MockError, match="no #99"):
        mock.tick_signal(warm_up, 99)


def test_the_report_gives_time_verdicts_scores_signals_and_what_to_study_next(
    builtin_bank, mock_plan
):
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, mock_plan, clock=clock)
    warm_up, estimate, scenario = (s.question_ids[0] for s in mock_plan.sections)
    mock.start()
    mock.type_answer(warm_up, "FLOPs per byte where the roofs meet")
    clock.advance(minutes=3)
    mock.next_section()
    mock.type_answer(estimate, _expected_answer(builtin_bank, estimate))
    clock.advance(minutes=10)  # the estimation times out; the scenario gets nothing typed
    clock.advance(minutes=8)
    mock.tick()
    for name in [d.name for d in mock.template(warm_up).dimensions]:
        mock.score(warm_up, name, 4)
    for name in [d.name for d in mock.template(scenario).dimensions]:
        mock.score(scenario, name, 2)
    mock.tick_signal(warm_up, 0)
    mock.tick_red_flag(scenario, 0)

    report = mock.report()

    assert [(s.kind, s.seconds_used, s.time_up) for s in report.sections] == [
        ("concept", 180, False),
        ("estimation", 600, True),
        ("debugging", 480, True),
    ]
    warm, est, debug = (s.questions[0] for s in report.sections)
    assert est.verdict == "correct" and warm.verdict is None
    assert warm.score == 4 and warm.fully_scored and debug.score == 2
    assert warm.signals_hit == (builtin_bank.questions[warm_up].rubric.strong_signals[0],)
    assert debug.red_flags == (builtin_bank.questions[scenario].rubric.red_flags[0],)
    minutes = {q: builtin_bank.questions[q].minutes for q in (warm_up, scenario)}
    assert report.score == pytest.approx(
        (4 * minutes[warm_up] + 2 * minutes[scenario]) / (minutes[warm_up] + minutes[scenario])
    )
    study = {item.topic: item for item in report.study_next}
    assert list(study)[0] == builtin_bank.questions[scenario].topic
    assert any("nothing typed" in r for r in study[builtin_bank.questions[scenario].topic].reasons)
    assert any("red flag" in r for r in study[builtin_bank.questions[scenario].topic].reasons)
    assert all(warm_up not in item.question_ids for item in report.study_next)
    assert {level for _, _, level in report.weak_dimensions} == {2}


def test_a_wrong_estimate_and_a_failed_drill_send_their_topics_to_study_next(builtin_bank):
    estimate = _first(builtin_bank, "estimation", topic="matmul")
    drill = _first(builtin_bank, "coding")
    plan = MockPlan(
        60,
        "kernel",
        None,
        0,
        (),
        (
            MockSection("estimation", "Estimation", (estimate,), 8),
            MockSection("coding", "Kernel drill", (drill,), 20),
        ),
    )
    clock = FrozenClock(START)
    mock = MockSession(builtin_bank, plan, clock=clock)
    mock.start()
    # 10x off is wrong; 1000x off would be a unit slip, graded invalid with a hint (issue 13).
    mock.type_answer(estimate, "10 * (" + _expected_answer(builtin_bank, estimate) + ")")
    clock.advance(minutes=8)
    mock.record_drill(drill, passed=False, summary="wrong output at 70002 elements")
    mock.end()

    report = mock.report()

    verdicts = [s.questions[0].verdict for s in report.sections]
    assert verdicts == ["wrong", "failed"]
    reasons = [r for item in report.study_next for r in item.reasons]
    assert any(r.startswith(f"{estimate}: estimate wrong") for r in reasons)
    assert f"{drill}: drill failed: wrong output at 70002 elements" in reasons
