"""The built-in bank meets the content bar: coverage, rubrics that name concrete signals, no near-duplicates."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

import pytest

from gpuprep.sessions.checked_bank import load_clean_bank

#: Issue 4: topic id -> the fewest questions it must hold.
PART_ONE_TOPICS = {
    "roofline": 15,
    "latency-hiding": 12,
    "memory-hierarchy": 12,
    "coalescing": 8,
    "shared-memory": 10,
    "warps": 10,
    "atomics-sync": 8,
    "streams": 8,
    "tensor-cores": 10,
    "hopper-blackwell": 10,
    "triton": 12,
    "host-device": 6,
    "profiling": 8,
}
#: Issue 12: the bank of part two, in all.
PART_TWO_QUESTIONS = 300
PART_TWO_KINDS = {"estimation": 100, "concept": 70, "debugging": 45, "design": 8, "coding": 8}
PART_TWO_TOPIC_COUNT = 20
PART_TWO_PLANS = 5
#: Issue 12: each new topic and the fewest questions it must hold ("design (8 in all)" lives in
#: the system-design topic; the debugging topic holds the scenarios with an artifact).
PART_TWO_TOPICS = {
    "matmul": 8,
    "flash-attention": 6,
    "scan": 5,
    "layernorm": 5,
    "training": 15,
    "inference": 18,
    "quantization": 8,
    "distributed": 12,
    "debugging": 10,
    "experience": 5,
    "system-design": 8,
}
VAGUE = re.compile(r"\b(good|solid|deep|strong|clear) (understanding|grasp|knowledge)\b", re.I)
NEAR_DUPLICATE = 0.5


@pytest.fixture(scope="module")
def bank():
    return load_clean_bank()


def _trigrams(text: str) -> set[tuple[str, str, str]]:
    words = re.findall(r"[a-z0-9]+", re.sub(r"\{\{.*?\}\}", " ", text.lower()))
    return set(zip(words, words[1:], words[2:], strict=False))


def test_part_one_topics_have_their_questions(bank):
    counts = Counter(q.topic for q in bank.questions.values())
    short = {
        topic: (counts.get(topic, 0), least)
        for topic, least in PART_ONE_TOPICS.items()
        if counts.get(topic, 0) < least
    }
    assert not short, f"topic: (have, need) {short}"
    assert sum(counts[t] for t in PART_ONE_TOPICS) >= 130


def test_part_one_has_enough_estimation_questions(bank):
    estimation = [
        q for q in bank.questions.values() if q.topic in PART_ONE_TOPICS and q.kind == "estimation"
    ]
    assert len(estimation) >= 55


def test_part_two_bank_has_its_questions_topics_and_plans(bank):
    topics = {q.topic for q in bank.questions.values()}
    assert len(bank.questions) >= PART_TWO_QUESTIONS, len(bank.questions)
    assert len(topics) >= PART_TWO_TOPIC_COUNT, sorted(topics)
    assert len(bank.plans) >= PART_TWO_PLANS, sorted(bank.plans)


def test_part_two_has_enough_questions_of_each_kind(bank):
    kinds = Counter(q.kind for q in bank.questions.values())
    short = {
        kind: (kinds.get(kind, 0), least)
        for kind, least in PART_TWO_KINDS.items()
        if kinds.get(kind, 0) < least
    }
    assert not short, f"kind: (have, need) {short}"


def test_part_two_topics_have_their_questions(bank):
    counts = Counter(q.topic for q in bank.questions.values())
    short = {
        topic: (counts.get(topic, 0), least)
        for topic, least in PART_TWO_TOPICS.items()
        if counts.get(topic, 0) < least
    }
    assert not short, f"topic: (have, need) {short}"


def test_every_rubric_names_concrete_signals(bank):
    for question in bank.questions.values():
        rubric = question.rubric
        assert len(rubric.strong_signals) >= 3, question.id
        assert len(rubric.red_flags) >= 2, question.id
        assert len(rubric.follow_ups) >= 1, question.id
        for line in rubric.strong_signals + rubric.red_flags:
            assert not VAGUE.search(line), f"{question.id}: vague rubric line {line!r}"
            assert len(line.split()) >= 3, (
                f"{question.id}: rubric line too thin to act on: {line!r}"
            )


def test_every_question_has_one_to_three_hints(bank):
    for question in bank.questions.values():
        assert 1 <= len(question.hints) <= 3, question.id


def test_estimation_questions_offer_several_gpus_where_the_bank_allows(bank):
    estimation = [q for q in bank.questions.values() if q.kind == "estimation"]
    multi = [q for q in estimation if len(q.estimate.allowed_gpus()) > 1]
    assert len(multi) >= 0.6 * len(estimation), (
        f"only {len(multi)} of {len(estimation)} allow more than one GPU"
    )


def test_levels_are_spread(bank):
    levels = Counter(q.level for q in bank.questions.values())
    assert all(
        levels[level] >= 0.15 * len(bank.questions) for level in ("junior", "mid", "senior")
    ), levels


def test_no_two_prompts_are_near_duplicates(bank):
    prompts = {q.id: _trigrams(q.prompt) for q in bank.questions.values()}
    offenders = []
    for (a, grams_a), (b, grams_b) in combinations(prompts.items(), 2):
        smaller = min(len(grams_a), len(grams_b))
        if smaller >= 8 and len(grams_a & grams_b) / smaller > NEAR_DUPLICATE:
            offenders.append((a, b, round(len(grams_a & grams_b) / smaller, 2)))
    assert not offenders, offenders


def test_the_near_duplicate_check_catches_a_reworded_copy():
    original = "How long does a bf16 GEMM with M = N = K = 8192 take on one H100, and which roof bounds it?"
    copy = "How long does a bf16 GEMM with M = N = K = 4096 take on one A100, and which roof bounds it?"
    grams_a, grams_b = _trigrams(original), _trigrams(copy)
    assert len(grams_a & grams_b) / min(len(grams_a), len(grams_b)) > NEAR_DUPLICATE
