"""What a mock interview leaves behind: per question and per section, time, verdicts, self-scores,
and what to study next.

`gpuprep.sessions.mock.MockSession.report` builds a `MockReport`; the store keeps it as the JSON
of `to_json` (so a report reads the same after the bank changes), and `from_json` brings it
back for `gpuprep mock --report`, the PDF export and the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpuprep.sessions.mock_plan import MockPlan

#: Below this mean self-score a question sends its topic to "study next" (3 reads as solid in
#: the rubric templates' descriptors).
SOLID_SCORE = 3.0


@dataclass(frozen=True)
class QuestionResult:
    """One question in the report."""

    question_id: str
    title: str
    topic: str | None
    kind: str
    answer: str
    """What was typed (kept when the section timed out)."""
    verdict: str | None
    """Auto-graded parts: an estimate's grade (correct | close | wrong | invalid | unanswered), a
    drill's (passed | failed | not submitted); None for self-scored kinds."""
    verdict_message: str
    levels: dict[str, int]
    """Self-score, 1-4, per dimension of the rubric template."""
    dimensions: tuple[str, ...]
    """Every dimension of the template, scored or not."""
    signals_hit: tuple[str, ...]
    signals_missed: tuple[str, ...]
    red_flags: tuple[str, ...]
    """Red flags the candidate admitted to."""
    minutes: int = 0
    """The question's own estimate of its length (what the report's score is weighted by)."""

    @property
    def score(self) -> float | None:
        """The mean of the dimension levels given (1-4); None before any is given."""
        return sum(self.levels.values()) / len(self.levels) if self.levels else None

    @property
    def fully_scored(self) -> bool:
        return set(self.levels) == set(self.dimensions)

    def to_json(self) -> dict[str, Any]:
        return {
            "question_id": self.question_id,
            "title": self.title,
            "topic": self.topic,
            "kind": self.kind,
            "minutes": self.minutes,
            "answer": self.answer,
            "verdict": self.verdict,
            "verdict_message": self.verdict_message,
            "levels": dict(self.levels),
            "dimensions": list(self.dimensions),
            "score": self.score,
            "signals_hit": list(self.signals_hit),
            "signals_missed": list(self.signals_missed),
            "red_flags": list(self.red_flags),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QuestionResult:
        return cls(
            question_id=data["question_id"],
            title=data["title"],
            topic=data["topic"],
            kind=data["kind"],
            minutes=int(data.get("minutes", 0)),
            answer=data["answer"],
            verdict=data["verdict"],
            verdict_message=data["verdict_message"],
            levels={str(k): int(v) for k, v in data["levels"].items()},
            dimensions=tuple(data["dimensions"]),
            signals_hit=tuple(data["signals_hit"]),
            signals_missed=tuple(data["signals_missed"]),
            red_flags=tuple(data["red_flags"]),
        )


@dataclass(frozen=True)
class SectionResult:
    """One section in the report: the time it was given and used, and its questions."""

    kind: str
    title: str
    minutes: int
    """Minutes it was given."""
    seconds_used: float
    time_up: bool
    """It closed because its time ran out."""
    questions: tuple[QuestionResult, ...]
    reached: bool = True
    """It was opened (False: the mock ended before it)."""

    @property
    def score(self) -> float | None:
        """The mean self-score of its self-scored questions (None: none was scored)."""
        scores = [q.score for q in self.questions if q.score is not None]
        return sum(scores) / len(scores) if scores else None

    @property
    def verdicts(self) -> tuple[str, ...]:
        """The auto-graded verdicts of its questions (estimates and drills), in order."""
        return tuple(q.verdict for q in self.questions if q.verdict is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "minutes": self.minutes,
            "seconds_used": self.seconds_used,
            "time_up": self.time_up,
            "reached": self.reached,
            "score": self.score,
            "questions": [q.to_json() for q in self.questions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SectionResult:
        return cls(
            kind=data["kind"],
            title=data["title"],
            minutes=int(data["minutes"]),
            seconds_used=float(data["seconds_used"]),
            time_up=bool(data["time_up"]),
            reached=bool(data.get("reached", True)),
            questions=tuple(QuestionResult.from_json(q) for q in data["questions"]),
        )


@dataclass(frozen=True)
class StudyNext:
    """A topic to study after the mock, with the questions and reasons that point to it."""

    topic: str
    title: str
    question_ids: tuple[str, ...]
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "topic": self.topic,
            "title": self.title,
            "question_ids": list(self.question_ids),
            "reasons": list(self.reasons),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudyNext:
        return cls(
            data["topic"], data["title"], tuple(data["question_ids"]), tuple(data["reasons"])
        )


@dataclass(frozen=True)
class MockReport:
    """What the candidate reads at the end."""

    plan: MockPlan
    sections: tuple[SectionResult, ...]
    score: float | None
    """Self-scores (1-4) averaged over the scored questions, each weighted by its minutes."""
    study_next: tuple[StudyNext, ...]
    """Weakest first."""
    weak_dimensions: tuple[tuple[str, str, int], ...]
    """(template title, dimension, level) scored 1 or 2, lowest first."""
    gpu: str | None = None
    """The GPU the estimation questions were asked for (None: each question's own)."""

    @property
    def seconds_used(self) -> float:
        return sum(section.seconds_used for section in self.sections)

    @property
    def verdict_counts(self) -> dict[str, int]:
        """How many auto-graded questions got each verdict ('correct': 2, 'failed': 1 ...)."""
        counts: dict[str, int] = {}
        for section in self.sections:
            for verdict in section.verdicts:
                counts[verdict] = counts.get(verdict, 0) + 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "plan": self.plan.to_json(),
            "gpu": self.gpu,
            "score": self.score,
            "seconds_used": self.seconds_used,
            "sections": [section.to_json() for section in self.sections],
            "study_next": [item.to_json() for item in self.study_next],
            "weak_dimensions": [list(entry) for entry in self.weak_dimensions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MockReport:
        return cls(
            plan=MockPlan.from_json(data["plan"]),
            gpu=data.get("gpu"),
            score=data["score"],
            sections=tuple(SectionResult.from_json(s) for s in data["sections"]),
            study_next=tuple(StudyNext.from_json(s) for s in data["study_next"]),
            weak_dimensions=tuple(
                (str(title), str(name), int(level))
                for title, name, level in data["weak_dimensions"]
            ),
        )


def weighted_score(results: list[QuestionResult]) -> float | None:
    """Self-scores averaged over the scored questions, each weighted by its minutes (a 20-minute
    design question counts four times a 5-minute warm-up)."""
    weighted = [(q.score, max(q.minutes, 1)) for q in results if q.score is not None]
    if not weighted:
        return None
    return sum(score * minutes for score, minutes in weighted) / sum(m for _, m in weighted)


def study_next(
    results: list[QuestionResult], topic_titles: dict[str, str]
) -> tuple[StudyNext, ...]:
    """Topics to study, the one with the most reasons (then the lowest self-score) first."""
    reasons: dict[str, list[tuple[str, str]]] = {}
    lowest: dict[str, float] = {}
    for q in results:
        found = []
        if q.verdict in ("wrong", "close", "invalid"):
            found.append(f"estimate {q.verdict}: {q.verdict_message}")
        elif q.verdict == "failed":
            found.append(
                f"drill failed: {q.verdict_message}" if q.verdict_message else "drill failed"
            )
        elif q.verdict in ("unanswered", "not submitted"):
            found.append(q.verdict)
        elif q.kind != "coding" and not q.answer.strip():
            found.append("nothing typed")
        found += [f"red flag: {flag}" for flag in q.red_flags]
        if q.score is not None and q.score < SOLID_SCORE:
            found.append(f"self-scored {q.score:.1f}/4")
        if found and q.topic is not None:
            reasons.setdefault(q.topic, []).extend((q.question_id, r) for r in found)
            lowest[q.topic] = min(lowest.get(q.topic, 5.0), q.score or 0.0)
    ranked = sorted(reasons, key=lambda t: (-len(reasons[t]), lowest[t], t))
    return tuple(
        StudyNext(
            topic,
            topic_titles.get(topic, topic),
            tuple(dict.fromkeys(qid for qid, _ in reasons[topic])),
            tuple(f"{qid}: {reason}" for qid, reason in reasons[topic]),
        )
        for topic in ranked
    )
