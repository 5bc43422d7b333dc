"""`gpuprep calc | show | answer`: napkin math, questions filled in, answers graded.

Exit codes: 0 when the command did its job (a wrong answer is still a graded answer), 2 when
what was typed is at fault (an expression that does not parse, an unknown question, a GPU the
question does not allow, a bad --param), 1 when the bank itself cannot be read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gpuprep.cli.common import (
    USAGE_ERROR,
    BankOption,
    JsonOption,
    emit_json,
    extra_banks,
    fail,
)
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.question import Question
    from gpuprep.sessions.question_view import QuestionView

GpuOption = Annotated[
    str | None,
    typer.Option(
        "--gpu",
        help="GPU id (h100_sxm, a100_sxm ...): what `gpu.<field>` means. Default: the GPU saved in"
        " the settings where the question allows it, else the question's own.",
        show_default=False,
    ),
]
ParamOption = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        "-p",
        help="A parameter as NAME=VALUE, e.g. M=4096 or elem='4 B' (repeatable).",
        show_default=False,
    ),
]


def _load_bank(banks: list[Any] | None, as_json: bool) -> Bank:
    """The bank as loaded; faults elsewhere in it are a warning, not a stop, for one question."""
    from gpuprep.bank.loader import load_bank

    bank, problems = load_bank(extra_banks(banks))
    if problems and not as_json:
        typer.echo(
            f"warning: {counted(len(problems), 'problem')} in the bank; run `gpuprep bank check"
            f"{_bank_flags(banks)}`",
            err=True,
        )
    return bank


def _bank_flags(banks: list[Any] | None) -> str:
    """The --bank options to repeat in a suggested command, or it would not find the question."""
    import shlex

    return "".join(f" --bank {shlex.quote(str(folder))}" for folder in banks or [])


def _settings_gpu() -> str | None:
    """The GPU saved in the settings (the one the app assumes), whether or not a question allows it."""
    from gpuprep.settings import SettingsError, load_settings

    try:
        return load_settings().gpu
    except SettingsError as error:
        fail(str(error))


def _gpu_id(gpu: str | None, hardware: Mapping[str, Any], as_json: bool) -> str | None:
    """The GPU id `--gpu` means ('H100-SXM' is h100_sxm); an unknown one is a usage error."""
    from gpuprep.wording import match_name, unknown_name

    if gpu is None:
        return None
    found = match_name(gpu, hardware)
    if found is None:
        fail(unknown_name("GPU", gpu, hardware), code=USAGE_ERROR, as_json=as_json)
    return found


def _allowed_gpu(question: Question, gpu: str | None, as_json: bool) -> None:
    """An estimation question's figures are worked for the GPUs it lists: another is refused."""
    estimate = question.estimate
    if gpu is None or estimate is None or gpu in estimate.allowed_gpus():
        return
    allowed = estimate.allowed_gpus()
    if len(allowed) == 1:
        said = f"it is asked for {allowed[0]} only; drop --gpu"
    else:
        said = f"it allows {', '.join(allowed)}"
    fail(f"{question.id} is not asked for {gpu}; {said}", code=USAGE_ERROR, as_json=as_json)


def _question(bank: Bank, question_id: str, as_json: bool) -> Question:
    question = bank.questions.get(question_id)
    if question is None:
        from difflib import get_close_matches

        near = get_close_matches(question_id, list(bank.questions), n=3)
        hint = (
            f"; did you mean {', '.join(near)}?"
            if near
            else "; `gpuprep bank stats --json` lists the ids"
        )
        fail(f"unknown question {question_id!r}{hint}", code=USAGE_ERROR, as_json=as_json)
    return question


def _params(question: Question, pairs: list[str] | None, as_json: bool) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip():
            fail(
                f"--param {pair!r}: write NAME=VALUE, e.g. M=4096",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        params[name.strip()] = value.strip()
    if params and question.estimate is None:
        fail(
            f"{question.id} is a {question.kind} question and has no parameters",
            code=USAGE_ERROR,
            as_json=as_json,
        )
    return params


def _figure(quantity: Any, unit: str) -> dict[str, Any]:
    from gpuprep.units.display import tidy

    return {"value": tidy(quantity.to(unit)), "unit": unit}


def calc(
    expression: Annotated[
        str,
        typer.Argument(
            metavar="EXPR", help="Napkin math, e.g. '2*8192^3 FLOP / h100_sxm.bf16_dense'."
        ),
    ],
    gpu: GpuOption = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to", help="Unit to give the result in, e.g. ms or GB/s.", show_default=False
        ),
    ] = None,
    banks: BankOption = None,
    as_json: JsonOption = False,
) -> None:
    """Evaluate napkin math with units and hardware figures: `gpuprep calc "3.35 TB/s * 1 ms" --to GB`."""
    from gpuprep.bank.loader import load_hardware
    from gpuprep.estimate.errors import EstimateError
    from gpuprep.estimate.evaluate import Context, evaluate
    from gpuprep.units.display import natural_unit, plain_number
    from gpuprep.units.quantity import UnitError

    hardware, _problems = load_hardware(extra_banks(banks))
    gpu = _gpu_id(gpu, hardware, as_json)
    if gpu is None and (saved := _settings_gpu()) in hardware:
        gpu = saved
    context = Context(hardware=hardware, gpu=hardware.get(gpu) if gpu else None)
    try:
        result = evaluate(expression, context)
        unit = to if to is not None else natural_unit(result)
        value = result.to(unit)
    except EstimateError as error:
        fail(str(error), code=USAGE_ERROR, as_json=as_json)
    except UnitError as error:
        fail(f"--to {to}: {error}", code=USAGE_ERROR, as_json=as_json)
    if as_json:
        from gpuprep.units.display import tidy

        emit_json({"value": tidy(value), "unit": unit})
    else:
        typer.echo(f"{plain_number(value, 4)} {unit}".strip())


def show(
    question_id: Annotated[
        str, typer.Argument(metavar="ID", help="Question id, e.g. roofline-gemm-time.")
    ],
    gpu: GpuOption = None,
    param: ParamOption = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Pick a random variant with this seed: its params, and its GPU unless --gpu or"
            " the settings' GPU says which.",
            show_default=False,
        ),
    ] = None,
    answer: Annotated[
        bool,
        typer.Option("--answer", help="Add the worked answer, the worked solution and the rubric."),
    ] = False,
    banks: BankOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show a question with its GPU and parameters filled in; --answer adds the worked solution."""
    from gpuprep.estimate.errors import EstimateError
    from gpuprep.sessions.question_view import QuestionView

    bank = _load_bank(banks, as_json)
    question = _question(bank, question_id, as_json)
    gpu = _gpu_id(gpu, bank.hardware, as_json)
    _allowed_gpu(question, gpu, as_json)
    params: dict[str, Any] = {}
    drawn = None
    if seed is not None and question.estimate is not None:
        from gpuprep.estimate.variants import random_variant

        variant = random_variant(question, seed, bank)
        drawn = variant.gpu
        params.update(variant.params)
    params.update(_params(question, param, as_json))
    try:
        view = QuestionView.build(
            question,
            bank,
            gpu=gpu,
            preferred_gpu=_settings_gpu(),
            drawn_gpu=drawn,
            params=params,
        )
    except EstimateError as error:
        fail(str(error), code=USAGE_ERROR, as_json=as_json)
    if as_json:
        emit_json(_show_json(view, answer))
    else:
        from gpuprep.cli.show_text import print_view

        print_view(
            view,
            answer=answer,
            bank_flags=_bank_flags(banks),
            variant_flags=_variant_flags(view),
        )


def _show_json(view: QuestionView, answer: bool) -> dict[str, Any]:
    """`show --json`: the view's fields, figures as {value, unit}."""
    question = view.question
    estimate = question.estimate
    document: dict[str, Any] = {
        "id": question.id,
        "title": question.title,
        "topic": question.topic,
        "kind": question.kind,
        "level": question.level,
        "minutes": question.minutes,
        "tags": question.tags,
        "gpu": view.gpu,
        "params": {
            name: _figure(value, estimate.params[name].unit) for name, value in view.params.items()
        }
        if estimate
        else {},
        "prompt": view.prompt,
        "hints": view.hints,
    }
    if view.artifact is not None:
        document["artifact"] = view.artifact.model_dump()
    if view.drill is not None:
        document["drill"] = view.drill.drill_id
    if view.expected is not None and view.unit is not None and estimate is not None:
        document["expected"] = _figure(view.expected, view.unit)
        document["tolerance"] = estimate.tolerance.model_dump()
        document["traps"] = [
            {"name": trap.name, **_figure(trap.value, view.unit), "own": trap.own}
            for trap in view.traps
        ]
    if answer:
        document["answer"] = view.answer
        document["rubric"] = view.rubric.model_dump()
        if view.rubric_template is not None:
            document["rubric_template"] = view.rubric_template.model_dump()
        if view.worked is not None and estimate is not None:
            document["worked"] = [str(line) for line in view.worked.lines]
            document["steps"] = {
                step.name: _figure(view.steps[step.name], step.unit) if step.unit else None
                for step in estimate.steps
            }
    return document


def _variant_flags(view: QuestionView) -> str:
    """The flags that reproduce a variant when it is not the question as written."""
    estimate = view.question.estimate
    if estimate is None:
        return ""
    flags = ""
    if view.gpu != estimate.gpu:
        flags += f" --gpu {view.gpu}"
    for name, text in view.param_texts.items():
        spec = estimate.params[name]
        if view.params[name].to(spec.unit) != spec.value:
            flags += f" --param '{name}={text}'" if " " in text else f" --param {name}={text}"
    return flags


def answer(
    question_id: Annotated[
        str, typer.Argument(metavar="ID", help="Question id, e.g. roofline-gemm-time.")
    ],
    given: Annotated[
        str,
        typer.Argument(
            metavar="ANSWER", help="Your answer, e.g. '1.1 ms' or '2*8192^3 FLOP / 989 TFLOP/s'."
        ),
    ],
    gpu: GpuOption = None,
    param: ParamOption = None,
    banks: BankOption = None,
    as_json: JsonOption = False,
) -> None:
    """Grade an answer to an estimation question: correct, close, wrong or invalid, and why."""
    from gpuprep.estimate.errors import EstimateError
    from gpuprep.estimate.grading import grade
    from gpuprep.sessions.question_view import question_gpu

    bank = _load_bank(banks, as_json)
    question = _question(bank, question_id, as_json)
    if question.estimate is None:
        fail(
            f"{question.id} is a {question.kind} question; only estimation questions are graded "
            f"(`gpuprep show {question.id} --answer` shows its worked answer and rubric)",
            code=USAGE_ERROR,
            as_json=as_json,
        )
    params = _params(question, param, as_json)
    gpu = _gpu_id(gpu, bank.hardware, as_json)
    _allowed_gpu(question, gpu, as_json)
    gpu = question_gpu(question, bank, chosen=gpu, preferred=_settings_gpu())
    try:
        result = grade(question, given, bank, gpu, params)
    except EstimateError as error:
        fail(str(error), code=USAGE_ERROR, as_json=as_json)
    if as_json:
        emit_json(result.to_json())
    else:
        typer.echo(result.message)
        for note in result.notes:
            typer.echo(f"({note})")
    if result.verdict == "invalid":
        # Nothing was graded: the answer did not parse or is the wrong kind of quantity.
        raise typer.Exit(USAGE_ERROR)


def register(app: typer.Typer) -> None:
    """Add `calc`, `show` and `answer` to the app."""
    app.command("calc", context_settings={"ignore_unknown_options": True})(calc)
    app.command("show")(show)
    # A negative answer ("-1 ms") would otherwise be taken for an unknown option.
    app.command("answer", context_settings={"ignore_unknown_options": True})(answer)
