"""Questions: the model of `questions/<topic>.yaml`, one file per topic."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, WithJsonSchema, field_validator, model_validator

from gpuprep.bank.base import ID_PATTERN, BankModel

Kind = Literal["concept", "estimation", "debugging", "design", "coding"]
Level = Literal["junior", "mid", "senior"]
KINDS: tuple[str, ...] = ("concept", "estimation", "debugging", "design", "coding")
LEVELS: tuple[str, ...] = ("junior", "mid", "senior")


class Topic(BankModel):
    """The topic a question file covers."""

    id: str = Field(pattern=ID_PATTERN)
    """Topic id, used by `gpuprep drill --topic ID` and by prep plans."""
    title: str
    """Human title, e.g. 'Roofline and arithmetic intensity'."""
    summary: str = ""
    """One or two sentences on what the topic covers."""


class Rubric(BankModel):
    """What an interviewer listens for."""

    strong_signals: list[str] = Field(min_length=1)
    """Concrete things a strong answer says or does ('names HBM bandwidth as the bound')."""
    red_flags: list[str] = Field(min_length=1)
    """Concrete mistakes that should worry an interviewer."""
    follow_ups: list[str] = Field(default_factory=list)
    """Questions to ask next, to probe depth."""


class Param(BankModel):
    """A named parameter of an estimation question (a matrix size, a batch, a byte width)."""

    value: float
    """Default value, in `unit`."""
    unit: str = ""
    """Unit of the value ('' for a plain number, 'B', 'GiB', 'us' ...)."""
    values: list[float] = Field(default_factory=list)
    """Other values a random variant may pick (the default is always allowed)."""
    description: str = ""
    """What the parameter means, shown beside it."""


class Step(BankModel):
    """A named intermediate quantity of the worked solution ('bytes moved', 'FLOPs')."""

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    """Name usable in later steps, in `solution` and in the answer text."""
    formula: str
    """Expression in the napkin-math language over params, `gpu.*` and earlier steps."""
    unit: str = ""
    """Unit to show this step in ('' keeps the formula's natural unit)."""
    label: str = ""
    """How the step is said in words ('bytes moved')."""


#: Generic traps the grader knows (gpuprep.estimate.traps): ids for `generic_traps`.
GENERIC_TRAP_IDS: tuple[str, ...] = (
    "bits_vs_bytes",
    "ms_vs_us",
    "gb_vs_gib",
    "forgot_the_write",
    "link_direction",
)
GenericTrapId = Literal["bits_vs_bytes", "ms_vs_us", "gb_vs_gib", "forgot_the_write", "link_direction"]


def _fraction_or_factor(value: object) -> object:
    """'10%' reads as 0.10 and '2x' as 2.0, so a tolerance can be written the way it is said."""
    if isinstance(value, str):
        text = value.strip().lower()
        try:
            if text.endswith("%"):
                return float(text[:-1]) / 100
            if text.endswith("x"):
                return float(text[:-1])
        except ValueError:
            pass
    return value


#: In the JSON Schema (for editors), a band may also be written '10%' or '2x'.
_PERCENT_OR_FACTOR = WithJsonSchema(
    {
        "anyOf": [
            {"type": "number", "exclusiveMinimum": 0},
            {"type": "string", "pattern": r"^\s*[0-9]*\.?[0-9]+\s*(%|x)\s*$"},
        ]
    }
)


class Tolerance(BankModel):
    """How far from the expected answer a given answer may be.

    Either relative bands (`correct`, `close`) or, for an answer that is a whole number,
    `integer`; not both.
    """

    correct: Annotated[float, _PERCENT_OR_FACTOR] = Field(default=0.25, gt=0, lt=1)
    """Within this relative error (0.25 or '25%') the answer is correct."""
    close: Annotated[float, _PERCENT_OR_FACTOR] = Field(default=2.0, gt=0)
    """Close band: below 1 a relative error like `correct` (0.30 or '30%' = within 30%); above 1
    a factor either way (2.0 or '2x' = within 2x). It must be wider than `correct`."""
    integer: Literal["exact", "at_least"] | None = None
    """A whole-number answer: `exact` = the solution rounded; `at_least` = the smallest whole
    number not below the solution ('how many GPUs': 1.86 -> 2). Any other number is wrong, and a
    fraction (1.86) is not a valid answer."""

    @field_validator("correct", "close", mode="before")
    @classmethod
    def _read_percent(cls, value: object) -> object:
        return _fraction_or_factor(value)

    @model_validator(mode="after")
    def _bands_make_sense(self) -> Tolerance:
        if self.integer is not None and self.model_fields_set & {"correct", "close"}:
            raise ValueError(
                "an integer tolerance has no bands: give `integer` or `correct`/`close`, not both"
            )
        if self.close == 1:
            raise ValueError("close: 1 is ambiguous; write 1.0x as a factor above 1 or a fraction below 1")
        if self.close_factor <= 1 + self.correct:
            raise ValueError(
                f"close ({self.close:g}) must be wider than correct ({self.correct:g})"
            )
        return self

    @property
    def close_factor(self) -> float:
        """The close band as a factor above 1 (a relative 0.30 is 1.30)."""
        return self.close if self.close > 1 else 1 + self.close

    def close_allows(self, ratio: float) -> bool:
        """Whether given/expected = `ratio` (> 0) lies in the close band."""
        if self.close > 1:
            return 1 / self.close <= ratio <= self.close
        return abs(ratio - 1) <= self.close


class Trap(BankModel):
    """A named misconception of one question and the answer it leads to."""

    name: str = Field(min_length=1, max_length=80)
    """Short name shown to the user ('both PCIe directions')."""
    solution: str
    """The value the slip produces: a formula in the same language as the question's `solution`,
    over params, steps and `gpu.*` figures, in the question's dimension."""
    explain: str = Field(min_length=1)
    """One or two sentences shown on a wrong answer: why the slip is wrong."""


class GenericTraps(BankModel):
    """Which of the grader's generic traps apply to this question (all but `forgot_the_write` by
    default)."""

    exclude: list[GenericTrapId] = Field(default_factory=list)
    """Generic traps that do not apply here (an answer 8x off is not a bits/bytes slip)."""
    include: list[GenericTrapId] = Field(default_factory=list)
    """Opt-in generic traps: `forgot_the_write` for copy-like questions (read and write)."""

    def applies(self, trap_id: str) -> bool:
        """Whether the generic trap `trap_id` is checked for this question."""
        if trap_id in self.exclude:
            return False
        return trap_id != "forgot_the_write" or trap_id in self.include

    @model_validator(mode="after")
    def _not_both(self) -> GenericTraps:
        both = sorted(set(self.include) & set(self.exclude))
        if both:
            raise ValueError(f"{', '.join(both)} is both included and excluded")
        return self


class Estimate(BankModel):
    """The graded part of an estimation question."""

    solution: str
    """Formula for the expected answer over params, `gpu.<field>` and steps."""
    unit: str
    """Unit the question asks for; a bare number is read in this unit."""
    gpu: str
    """Default GPU id (a file under hardware/)."""
    gpus: list[str] = Field(default_factory=list)
    """Every GPU the question may be asked for (the default GPU is always included)."""
    params: dict[str, Param] = Field(default_factory=dict)
    """Named parameters with defaults and variant values."""
    steps: list[Step] = Field(default_factory=list)
    """Intermediate quantities, shown in the worked solution."""
    tolerance: Tolerance = Field(default_factory=Tolerance)
    """Grading tolerance (default: correct within 25%, close within 2x)."""
    traps: list[Trap] = Field(default_factory=list)
    """This question's own misconceptions: an answer nearer a trap than the solution is wrong."""
    generic_traps: GenericTraps = Field(default_factory=GenericTraps)
    """Opt out of (or into) the grader's generic traps by id."""

    def allowed_gpus(self) -> list[str]:
        """The default GPU first, then the others, without repeats."""
        return list(dict.fromkeys([self.gpu, *self.gpus]))


class Artifact(BankModel):
    """The thing a debugging question shows: code, a profiler excerpt, a log."""

    kind: Literal["code", "ncu", "nsys", "log", "trace"]
    """What the artifact is."""
    language: str = ""
    """Syntax highlighting language for code ('cuda', 'python', 'triton')."""
    text: str
    """The artifact itself."""


class Question(BankModel):
    """One question with its worked answer and rubric."""

    id: str = Field(pattern=ID_PATTERN)
    """Unique across the bank (and any extra banks)."""
    title: str
    """Short title shown in lists."""
    topic: str | None = None
    """Topic id; defaults to the file's topic."""
    tags: list[str] = Field(default_factory=list)
    """Free tags for filtering ('hbm', 'gemm', 'h100')."""
    kind: Kind
    """concept | estimation | debugging | design | coding."""
    level: Level
    """junior | mid | senior."""
    minutes: int = Field(ge=1, le=120)
    """Time an interviewer would give it."""
    prompt: str
    """The question, in Markdown. `{{ gpu.field }}`, `{{ hw.<id>.<field> }}` and params render."""
    answer: str
    """Worked answer, in Markdown, the way a strong candidate would say it."""
    hints: list[str] = Field(default_factory=list, max_length=5)
    """Progressive hints, the gentlest first."""
    rubric: Rubric
    """Strong signals, red flags, follow-ups."""
    rubric_template: str | None = None
    """Rubric template id under rubrics/ (defaults to the question's kind)."""
    estimate: Estimate | None = None
    """Required for estimation questions: the formula the answer is graded against."""
    artifact: Artifact | None = None
    """For debugging questions: the code or profile with the planted problem."""
    drill: str | None = None
    """For coding questions: the drill id under drills/."""

    @model_validator(mode="after")
    def _kind_specific_parts(self) -> Question:
        if self.kind == "estimation" and self.estimate is None:
            raise ValueError(
                "an estimation question needs an `estimate` block (solution, unit, gpu)"
            )
        if self.kind != "estimation" and self.estimate is not None:
            raise ValueError(f"`estimate` is only for estimation questions, not {self.kind}")
        if self.kind == "debugging" and self.artifact is None:
            raise ValueError(
                "a debugging question needs an `artifact` (the code or profile to debug)"
            )
        if self.kind == "coding" and self.drill is None:
            raise ValueError("a coding question needs a `drill` id")
        return self


class QuestionFile(BankModel):
    """A file under questions/: one topic and its questions."""

    topic: Topic
    """The topic this file covers."""
    questions: list[Question] = Field(default_factory=list)
    """The questions."""
