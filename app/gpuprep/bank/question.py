"""Questions: the model of `questions/<topic>.yaml`, one file per topic."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

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


class Tolerance(BankModel):
    """How far from the expected answer a given answer may be."""

    correct: float = Field(default=0.25, gt=0, lt=1)
    """Within this relative error (0.25 = 25%) the answer is correct."""
    close: float = Field(default=2.0, gt=1)
    """Within this factor either way the answer is close."""


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
    """Grading tolerance."""

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
