"""An interviewer's scorecard: a candidate scored live against each question's rubric.

Per question the interviewer ticks the strong signals heard and the red flags seen, gives each
dimension of the question's rubric template a level from 1 (weak) to 4 (strong), and writes
notes. Every change is saved at once (`ScorecardStore.save_scores`), so a crash loses nothing.

The recommendation is computed from the scores by :data:`RULE`, which the screen and the docs
show word for word. It knows nothing of screens: the TUI, the CLI and the exporters read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import mean
from typing import TYPE_CHECKING, Any

from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.store.scorecards import SavedScorecard, ScorecardStore

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.bank.rubric_template import RubricTemplate

STRONG_HIRE, HIRE, LEAN_NO_HIRE, NO_HIRE = "strong hire", "hire", "lean no hire", "no hire"

#: How the recommendation follows from the scores (shown on the screen and in the exports).
RULE = (
    "Each question's score is the mean of its dimension levels (1-4); the overall score is the "
    "mean of the question scores, each question counting once. Red flags are counted over all "
    "questions. No hire: overall below 2.0, or 3 or more red flags. Strong hire: overall 3.5 or "
    "more, no red flag and no dimension at level 1. Hire: overall 2.75 or more, at most 1 red "
    "flag and no question below 2.0. Lean no hire: anything else. Until every dimension of every "
    "question is scored, the recommendation is provisional."
)


class ScorecardError(ValueError):
    """A change the scorecard cannot take (an unknown question, dimension or level)."""


@dataclass
class QuestionScore:
    """What the interviewer recorded for one question."""

    signals: set[int] = field(default_factory=set)
    """Indices of the rubric's strong signals heard."""
    red_flags: set[int] = field(default_factory=set)
    """Indices of the rubric's red flags seen."""
    levels: dict[str, int] = field(default_factory=dict)
    """Dimension name to level, 1 (weak) to 4 (strong)."""
    notes: str = ""

    @property
    def score(self) -> float | None:
        """The mean of the levels given; None before any."""
        return mean(self.levels.values()) if self.levels else None

    def to_json(self) -> dict[str, Any]:
        return {
            "signals": sorted(self.signals),
            "red_flags": sorted(self.red_flags),
            "levels": dict(sorted(self.levels.items())),
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QuestionScore:
        return cls(
            signals={int(i) for i in data.get("signals", [])},
            red_flags={int(i) for i in data.get("red_flags", [])},
            levels={str(k): int(v) for k, v in data.get("levels", {}).items()},
            notes=str(data.get("notes", "")),
        )


@dataclass(frozen=True)
class Recommendation:
    """The verdict the scores lead to, with the figures behind it."""

    verdict: str
    """strong hire | hire | lean no hire | no hire; '' before any level is given."""
    overall: float | None
    """Mean of the question scores."""
    red_flags: int
    signals: int
    """Strong signals heard, over all questions."""
    scored: int
    """Dimensions scored, over all questions."""
    to_score: int
    """Dimensions there are to score, over all questions."""
    reasons: tuple[str, ...]
    """Which parts of the rule decided it."""

    @property
    def provisional(self) -> bool:
        return self.scored < self.to_score

    def describe(self) -> str:
        if not self.verdict:
            return "No recommendation yet: score at least one dimension (keys 1-4)."
        text = f"{self.verdict.upper()} (overall {self.overall:.2f}, {self.red_flags} red flag"
        text += "s)" if self.red_flags != 1 else ")"
        if self.provisional:
            text += f", provisional: {self.scored} of {self.to_score} dimensions scored"
        return text + ". " + "; ".join(self.reasons)


def recommend(
    scores: dict[str, QuestionScore], dimensions: dict[str, tuple[str, ...]]
) -> Recommendation:
    """Apply :data:`RULE` to the scores of the questions in `dimensions` (id -> dimension names)."""
    per_question = [s.score for qid in dimensions if (s := scores.get(qid)) and s.score is not None]
    red = sum(len(s.red_flags) for qid, s in scores.items() if qid in dimensions)
    heard = sum(len(s.signals) for qid, s in scores.items() if qid in dimensions)
    levels = [
        level for qid in dimensions for level in scores.get(qid, QuestionScore()).levels.values()
    ]
    scored = sum(
        1
        for qid, names in dimensions.items()
        for n in names
        if n in scores.get(qid, QuestionScore()).levels
    )
    to_score = sum(len(names) for names in dimensions.values())
    if not per_question:
        return Recommendation("", None, red, heard, scored, to_score, ())
    overall = mean(per_question)
    reasons: list[str] = []
    if overall < 2.0 or red >= 3:
        if overall < 2.0:
            reasons.append(f"overall {overall:.2f} is below 2.0")
        if red >= 3:
            reasons.append(f"{red} red flags (3 or more)")
        verdict = NO_HIRE
    elif overall >= 3.5 and red == 0 and 1 not in levels:
        verdict = STRONG_HIRE
        reasons.append("overall 3.5 or more, no red flag, no dimension at 1")
    elif overall >= 2.75 and red <= 1 and min(per_question) >= 2.0:
        verdict = HIRE
        reasons.append("overall 2.75 or more, at most 1 red flag, no question below 2.0")
    else:
        verdict = LEAN_NO_HIRE
        if overall < 2.75:
            reasons.append(f"overall {overall:.2f} is below 2.75")
        if red > 1:
            reasons.append(f"{red} red flags (more than 1)")
        if min(per_question) < 2.0:
            reasons.append(f"a question scored {min(per_question):.2f} (below 2.0)")
        if not reasons:
            reasons.append("a dimension at level 1 or a red flag keeps it from strong hire")
    return Recommendation(verdict, overall, red, heard, scored, to_score, tuple(reasons))


def template_of(bank: Bank, question: Question) -> RubricTemplate | None:
    """The rubric template a question is scored against: its own, else its kind's."""
    return bank.rubrics.get(question.rubric_template or question.kind)


class ScorecardSession:
    """One candidate's scorecard, saved on every change."""

    def __init__(
        self, bank: Bank, store: ScorecardStore, saved: SavedScorecard, clock: Clock = system_clock
    ) -> None:
        self.bank = bank
        self.store = store
        self.clock = clock
        self.id = saved.id
        self.candidate = saved.candidate
        self.set_name = saved.set_name
        self.created_at = saved.created_at
        self.updated_at = saved.updated_at
        missing = [qid for qid in saved.question_ids if qid not in bank.questions]
        self.missing = tuple(missing)
        """Questions of the scorecard the bank no longer has (kept in the store, not shown)."""
        self.question_ids = tuple(qid for qid in saved.question_ids if qid in bank.questions)
        stored = saved.scores.get("questions", {})
        self.scores = {
            qid: QuestionScore.from_json(stored.get(qid, {})) for qid in saved.question_ids
        }
        self.notes = str(saved.scores.get("notes", ""))

    @classmethod
    def start(
        cls,
        bank: Bank,
        store: ScorecardStore,
        candidate: str,
        question_ids: tuple[str, ...],
        *,
        set_name: str = "",
        clock: Clock = system_clock,
    ) -> ScorecardSession:
        """Create a scorecard for `candidate` over the questions, saved before it is returned."""
        candidate = candidate.strip()
        if not candidate:
            raise ScorecardError("a scorecard needs the candidate's name")
        unknown = [qid for qid in question_ids if qid not in bank.questions]
        if unknown:
            raise ScorecardError(f"unknown question(s): {', '.join(unknown)}")
        if not question_ids:
            raise ScorecardError("a scorecard needs at least one question")
        scorecard_id = store.create(candidate, set_name, question_ids, clock())
        saved = store.scorecard(scorecard_id)
        assert saved is not None
        return cls(bank, store, saved, clock)

    @classmethod
    def open(
        cls, bank: Bank, store: ScorecardStore, scorecard_id: int, clock: Clock = system_clock
    ) -> ScorecardSession:
        saved = store.scorecard(scorecard_id)
        if saved is None:
            known = ", ".join(str(s.id) for s in store.scorecards()) or "none yet"
            raise ScorecardError(f"no scorecard {scorecard_id} (saved: {known})")
        return cls(bank, store, saved, clock)

    # -- what is scored --------------------------------------------------------------------------

    def question(self, question_id: str) -> Question:
        if question_id not in self.question_ids:
            raise ScorecardError(f"{question_id} is not on this scorecard")
        return self.bank.questions[question_id]

    def template(self, question_id: str) -> RubricTemplate | None:
        return template_of(self.bank, self.question(question_id))

    def dimensions(self, question_id: str) -> tuple[str, ...]:
        template = self.template(question_id)
        return tuple(d.name for d in template.dimensions) if template is not None else ()

    @property
    def recommendation(self) -> Recommendation:
        return recommend(self.scores, {qid: self.dimensions(qid) for qid in self.question_ids})

    # -- changes, each saved at once ---------------------------------------------------------

    def toggle_signal(self, question_id: str, index: int) -> bool:
        """Tick or untick a strong signal; returns whether it is now ticked."""
        count = len(self.question(question_id).rubric.strong_signals)
        return self._toggle(self.scores[question_id].signals, index, count, "strong signal")

    def toggle_red_flag(self, question_id: str, index: int) -> bool:
        """Tick or untick a red flag; returns whether it is now ticked."""
        count = len(self.question(question_id).rubric.red_flags)
        return self._toggle(self.scores[question_id].red_flags, index, count, "red flag")

    def _toggle(self, ticked: set[int], index: int, count: int, what: str) -> bool:
        if not 0 <= index < count:
            raise ScorecardError(f"no {what} {index + 1} (there are {count})")
        ticked.symmetric_difference_update({index})
        self._save()
        return index in ticked

    def score(self, question_id: str, dimension: str, level: int | None) -> None:
        """Give a dimension a level from 1 to 4 (None clears it)."""
        names = self.dimensions(question_id)
        if dimension not in names:
            raise ScorecardError(
                f"{dimension!r} is not a dimension of {question_id}: {list(names)}"
            )
        levels = self.scores[question_id].levels
        if level is None:
            levels.pop(dimension, None)
        elif level not in (1, 2, 3, 4):
            raise ScorecardError(f"a level is 1 to 4, not {level}")
        else:
            levels[dimension] = level
        self._save()

    def note(self, question_id: str, text: str) -> None:
        """Replace the notes on one question."""
        self.question(question_id)
        self.scores[question_id].notes = text
        self._save()

    def set_notes(self, text: str) -> None:
        """Replace the overall notes."""
        self.notes = text
        self._save()

    def to_json(self) -> dict[str, Any]:
        """The scores document the store keeps."""
        return {
            "notes": self.notes,
            "questions": {qid: score.to_json() for qid, score in self.scores.items()},
        }

    def _save(self) -> None:
        self.updated_at = self.clock()
        self.store.save_scores(self.id, self.to_json(), self.updated_at)
