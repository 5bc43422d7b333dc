"""One question as every front end shows it: the GPU it is asked for, its text, its answers.

`gpuprep show` (text and --json), the TUI's browse and practice screens and the exporters render
a `QuestionView`; none of them picks a GPU, fills a template or solves a formula itself, so the
same question with the same settings reads the same everywhere. A view solves its question
once: the prompt, the worked answer, the step-by-step worked solution, the preview of a typed
answer and its grade all come from that one `Solution`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.grading import Grade, grade_solved
from gpuprep.estimate.render import ParamFigure, RenderedQuestion, render_question
from gpuprep.estimate.template_gpus import TemplateGpus, template_gpus
from gpuprep.estimate.traps import TrapValue, usable_traps
from gpuprep.estimate.worked import WorkedSolution, worked_from
from gpuprep.sessions.answers import AnswerPreview, preview_answer
from gpuprep.wording import unknown_name

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Artifact, Question, Rubric
    from gpuprep.bank.rubric_template import RubricTemplate
    from gpuprep.estimate.solve import ParamValue, Solution
    from gpuprep.estimate.variants import Variant
    from gpuprep.units.quantity import Quantity


def question_gpu(
    question: Question,
    bank: Bank,
    *,
    chosen: str | None = None,
    preferred: str | None = None,
    drawn: str | None = None,
) -> str | None:
    """The GPU a question is shown for: one rule for the CLI, the TUI and practice sessions.

    1. `chosen` (`--gpu`), for any question; one the question does not allow is an error when
       the view is built, never quietly replaced;
    2. for an estimation question, `preferred` (the settings' GPU, or this machine's) when the
       bank has its table and the question allows it;
    3. `drawn`, a random variant's GPU (`show --seed`, a practice session);
    4. the question's own GPU; a question without an `estimate` block has none.
    """
    if chosen is not None:
        return chosen
    estimate = question.estimate
    if estimate is None:
        return None
    if (
        preferred is not None
        and preferred in bank.hardware
        and preferred in estimate.allowed_gpus()
    ):
        return preferred
    return drawn or estimate.gpu


@dataclass(frozen=True)
class DrillHint:
    """Where a coding question's kernel drill begins."""

    drill_id: str
    title: str | None
    """The drill's title; None when no bank folder has the drill (`bank check` reports it)."""
    starters: tuple[Path, ...]
    """The starter files to copy and fill in (the harness checks the copy)."""


@dataclass(frozen=True)
class QuestionView:
    """A question filled in for one GPU and one set of params, with everything shown about it.

    Build it with :meth:`build` (or :meth:`for_variant`); it raises `EstimateError` when the
    GPU, a param or a template is not valid.
    """

    question: Question
    rendered: RenderedQuestion
    """The prompt and worked answer with their figures, and the solution they came from."""
    hardware: Hardware | None
    """The table of the GPU the question is asked for (None: a question with no GPU)."""
    rubric_template: RubricTemplate | None
    """How an interviewer scores this kind of question (rubrics/<template>.yaml), if the bank has it."""
    drill: DrillHint | None
    """For a coding question: its drill and starters."""
    bank: Bank = field(repr=False, compare=False)
    """Every GPU an answer or a worked solution may name (`h100_sxm.hbm_bandwidth`)."""
    unused_gpu: str | None = None
    """A GPU asked for (`--gpu`) that the text does not read: a question written around named
    GPUs (`hw.h100_sxm`) reads the same on any other, so it is not shown as asked for that one."""

    @classmethod
    def build(
        cls,
        question: Question,
        bank: Bank,
        *,
        gpu: str | None = None,
        preferred_gpu: str | None = None,
        drawn_gpu: str | None = None,
        params: Mapping[str, ParamValue] | None = None,
    ) -> QuestionView:
        """The question for the GPU :func:`question_gpu` picks and `params` (the rest at default)."""
        chosen = question_gpu(question, bank, chosen=gpu, preferred=preferred_gpu, drawn=drawn_gpu)
        unused = None
        if (
            question.estimate is None
            and chosen is not None
            and not template_gpus(question.prompt, question.answer).reads_chosen
        ):
            if chosen not in bank.hardware:
                raise EstimateError(unknown_name("GPU", chosen, bank.hardware))
            unused, chosen = chosen, None
        rendered = render_question(question, bank, chosen, params)
        template_id = question.rubric_template or question.kind
        drill = None
        if question.drill is not None:
            known = bank.drills.get(question.drill)
            folder = bank.drill_dirs.get(question.drill)
            drill = DrillHint(
                question.drill,
                known.title if known is not None else None,
                tuple(sorted(folder.glob("starter*.py"))) if folder is not None else (),
            )
        return cls(
            question=question,
            rendered=rendered,
            hardware=bank.hardware[rendered.gpu] if rendered.gpu is not None else None,
            rubric_template=bank.rubrics.get(template_id),
            drill=drill,
            bank=bank,
            unused_gpu=unused,
        )

    @classmethod
    def for_variant(cls, question: Question, bank: Bank, variant: Variant | None) -> QuestionView:
        """The question as a practice session drew it (None: as written, for a non-estimation one)."""
        if variant is None:
            return cls.build(question, bank)
        return cls.build(question, bank, drawn_gpu=variant.gpu, params=variant.params)

    # What is shown

    @property
    def id(self) -> str:
        return self.question.id

    @property
    def title(self) -> str:
        return self.question.title

    @property
    def gpu(self) -> str | None:
        """The id of the GPU the question is asked for."""
        return self.rendered.gpu

    @property
    def gpu_name(self) -> str | None:
        """'NVIDIA H100 SXM5 80GB'."""
        return self.hardware.name if self.hardware is not None else None

    @property
    def gpu_heading(self) -> str | None:
        """The GPU the text is about and whether the question may be asked for another:
        'NVIDIA H200 SXM 141GB (asked for this GPU only)', 'NVIDIA H100 SXM5 80GB (also asked
        for a100_sxm, h200)'; None when the question is asked for no GPU."""
        if self.gpu_name is None:
            return None
        allowed = self.allowed_gpus
        if len(allowed) == 1:
            return f"{self.gpu_name} (asked for this GPU only)"
        others = [gpu for gpu in allowed if gpu != self.gpu]
        return f"{self.gpu_name} (also asked for {', '.join(others)})" if others else self.gpu_name

    @property
    def param_lines(self) -> list[tuple[str, str]]:
        """Each param as shown, with what it means: ('dur = 1.65', 'Duration in ms, as ncu
        printed it'); the description is '' where the bank gives none."""
        estimate = self.question.estimate
        if estimate is None:
            return []
        return [
            (f"{name} = {text}", estimate.params[name].description)
            for name, text in self.param_texts.items()
        ]

    @property
    def allowed_gpus(self) -> list[str]:
        """The GPUs an estimation question may be asked for, its own first ([] for other kinds)."""
        estimate = self.question.estimate
        return estimate.allowed_gpus() if estimate is not None else []

    @cached_property
    def text_gpus(self) -> TemplateGpus:
        """What the prompt and worked answer read of the hardware: `gpu`, and `hw.<id>` by name."""
        return template_gpus(self.question.prompt, self.question.answer)

    @property
    def named_gpus(self) -> list[str]:
        """The names of the GPUs the text reads by id (`hw.h100_sxm`), as the bank has them."""
        hardware = self.bank.hardware
        return [hardware[gpu].name for gpu in self.text_gpus.named if gpu in hardware]

    @property
    def prompt(self) -> str:
        return self.rendered.prompt

    @property
    def answer(self) -> str:
        """The worked answer, in Markdown, with its figures filled in."""
        return self.rendered.answer

    @property
    def hints(self) -> list[str]:
        return self.question.hints

    @property
    def artifact(self) -> Artifact | None:
        return self.question.artifact

    @property
    def rubric(self) -> Rubric:
        return self.question.rubric

    @property
    def is_estimation(self) -> bool:
        return self.rendered.solution is not None

    @property
    def params(self) -> dict[str, Quantity]:
        """Each param's value (estimation questions)."""
        return self.rendered.params

    @property
    def param_texts(self) -> dict[str, str]:
        """Each param as the prompt shows it, every digit given: {'M': '8192', 'elem': '2 B'}."""
        estimate = self.question.estimate
        if estimate is None:
            return {}
        return {
            name: str(ParamFigure(value, estimate.params[name].unit or ""))
            for name, value in self.params.items()
        }

    @property
    def steps(self) -> dict[str, Quantity]:
        return self.rendered.steps

    @property
    def unit(self) -> str | None:
        """The unit the answer is asked in (estimation questions)."""
        return self.rendered.unit

    @property
    def expected(self) -> Quantity | None:
        """The expected answer (estimation questions)."""
        return self.rendered.expected

    @property
    def expected_value(self) -> float | None:
        """The expected answer in `unit`."""
        return self.rendered.expected_value

    @property
    def solution(self) -> Solution:
        """The one solution every figure of the view comes from (estimation questions only)."""
        solution = self.rendered.solution
        if solution is None:
            raise ValueError(
                f"{self.id} is a {self.question.kind} question; only estimation questions are solved"
            )
        return solution

    @cached_property
    def worked(self) -> WorkedSolution | None:
        """Each step with its numbers substituted, from the view's own solution (None: not an estimation)."""
        if self.rendered.solution is None:
            return None
        return worked_from(self.question, self.rendered.solution, self.bank)

    @cached_property
    def traps(self) -> list[TrapValue]:
        """The slips graded wrong for this variant, the question's own first (estimation only)."""
        if self.rendered.solution is None:
            return []
        return usable_traps(self.question, self.rendered.solution, self.bank.hardware)

    # Answering

    def preview(self, answer_text: str) -> AnswerPreview:
        """What a typed answer reads as, without saying whether it is right."""
        return preview_answer(answer_text, self.solution, self.bank.hardware, self.question)

    def grade(self, answer_text: str, *, open_book: bool = False) -> Grade:
        """Grade a typed answer against the figure this view shows.

        Closed book unless told otherwise (practice and mock): an answer that reads a figure
        from the hardware table is marked `from_table`, with the figures to learn.
        """
        return grade_solved(
            self.question, self.solution, answer_text, self.bank.hardware, open_book=open_book
        )
