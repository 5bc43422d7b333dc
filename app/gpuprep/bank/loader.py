"""Loading a bank: the built-in folders plus any extra `--bank` folders, merged.

Loading never stops at the first fault: every file that parses is kept, and every fault
becomes a :class:`Problem` with its file and line. `check.py` adds the cross-file checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gpuprep.bank.drill import Drill
from gpuprep.bank.hardware import Hardware
from gpuprep.bank.plan import Plan
from gpuprep.bank.problems import Problem
from gpuprep.bank.question import Question, Topic
from gpuprep.bank.rubric_template import RubricTemplate
from gpuprep.bank.yaml_source import LineMap, Loc, YamlError, load_yaml
from gpuprep.paths import builtin_root

Model = TypeVar("Model", bound=BaseModel)


@dataclass(frozen=True)
class Origin:
    """Where a bank item was defined."""

    path: Path
    line: int


@dataclass(frozen=True)
class BankRoot:
    """One bank folder and its sub-folders; a folder of bare question files works too."""

    path: Path

    def folder(self, name: str) -> Path | None:
        candidate = self.path / name
        if candidate.is_dir():
            return candidate
        if name == "questions" and not any(
            (self.path / n).is_dir() for n in ("questions", "hardware", "rubrics", "drills")
        ):
            return self.path
        return None


@dataclass(frozen=True)
class Unvalidated:
    """An item that failed validation, kept as parsed so `bank check` can still resolve its references."""

    kind: str
    #: Its id when the id at least is text; references to it are then not "unknown".
    item_id: str | None
    #: How problems inside it are named, the same as its validation problems ('question x').
    where: str
    path: Path
    loc: Loc
    raw: dict[str, Any]


@dataclass
class Bank:
    """Everything gpuprep knows: topics, questions, rubric templates, GPUs, drills, plans."""

    roots: list[BankRoot] = field(default_factory=list)
    topics: dict[str, Topic] = field(default_factory=dict)
    questions: dict[str, Question] = field(default_factory=dict)
    rubrics: dict[str, RubricTemplate] = field(default_factory=dict)
    hardware: dict[str, Hardware] = field(default_factory=dict)
    drills: dict[str, Drill] = field(default_factory=dict)
    drill_dirs: dict[str, Path] = field(default_factory=dict)
    #: Collective drills (drills/<id>/collective.yaml, judged by gpuprep.collective, a layer
    #: above): only their folders, so that questions may point at them and `gpuprep submit`
    #: judges the one listed here.
    collective_dirs: dict[str, Path] = field(default_factory=dict)
    plans: dict[str, Plan] = field(default_factory=dict)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    #: Line maps of every loaded file, for checks that point inside an item.
    line_maps: dict[Path, LineMap] = field(default_factory=dict)
    #: (kind, id) -> location prefix inside its file, e.g. ('questions', 3).
    locs: dict[tuple[str, str], Loc] = field(default_factory=dict)
    #: Items that failed validation; their problems are reported, their references still checked.
    unvalidated: list[Unvalidated] = field(default_factory=list)

    def origin(self, kind: str, item_id: str) -> Origin:
        """File and line where an item ('question', 'hardware', ...) was defined."""
        return self.origins[(kind, item_id)]

    def line_in(self, kind: str, item_id: str, *inner: str | int) -> Origin:
        """File and line of a field inside an item, e.g. ('question', id, 'estimate', 'gpu')."""
        origin = self.origins[(kind, item_id)]
        line_map = self.line_maps.get(origin.path)
        if line_map is None:
            return origin
        return Origin(origin.path, line_map.line_of((*self.locs[(kind, item_id)], *inner)))

    def questions_in(self, topic: str) -> list[Question]:
        """The questions of one topic, in file order."""
        return [q for q in self.questions.values() if q.topic == topic]

    def kernels_ref_dir(self, drill_id: str) -> Path:
        """The folder holding a drill's reference ladder (kernels_ref/<id>/)."""
        return self.drill_dirs[drill_id].parent.parent / "kernels_ref" / drill_id


def _where(loc: Loc, prefix: str = "") -> str:
    text = prefix
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(file)"


def _validation_problems(
    error: ValidationError, path: Path, lines: LineMap, data: Any, base: Loc = ()
) -> list[Problem]:
    problems = []
    for item in error.errors():
        loc = (*base, *item["loc"])
        # Pydantic appends the validator's name for a model-level check; drop what is not a key.
        clean: list[str | int] = []
        node: Any = data
        for part in loc:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                if item["type"] in ("extra_forbidden", "missing"):
                    clean.append(part)
                break
            clean.append(part)
        where = _describe(tuple(clean), data)
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = f"unknown field {clean[-1]!r}"
        elif item["type"] == "missing":
            message = f"missing required field {clean[-1]!r}"
        elif item["type"] == "string_type" and isinstance(item.get("input"), dict):
            message = "expected text but found a mapping: quote text that contains ': '"
        elif item["type"] == "literal_error":
            message = f"bad value {item.get('input')!r}: {message}"
        elif item["type"] == "value_error":
            message = message.removeprefix("Value error, ")
            # A model-level check names the key it is about ("specs.hbm_bandwidth: ..."):
            # point at that key's line, not at the top of the model.
            named, sep, rest = message.partition(": ")
            keys = tuple(named.split("."))
            node = _at(data, tuple(clean))
            if sep and _at(node, keys) is not None:
                clean += keys
                where = _describe(tuple(clean), data)
                message = rest
        problems.append(Problem(path, lines.line_of(tuple(clean)), where, message))
    return problems


def _at(data: Any, keys: Loc) -> Any:
    """The node at `keys` in parsed YAML, or None when a key is missing."""
    node = data
    for key in keys:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return None
    return node


def _describe(loc: Loc, data: Any) -> str:
    """'question roofline-x: rubric.red_flags' when the location is inside a question."""
    if len(loc) >= 2 and loc[0] == "questions" and isinstance(loc[1], int):
        try:
            qid = data["questions"][loc[1]]["id"]
            return _where(loc[2:], f"question {qid}") if len(loc) > 2 else f"question {qid}"
        except (KeyError, IndexError, TypeError):
            pass
    return _where(loc)


class _Loading:
    def __init__(self) -> None:
        self.bank = Bank()
        self.problems: list[Problem] = []

    def read(self, path: Path) -> tuple[Any, LineMap] | None:
        try:
            data, lines = load_yaml(path)
        except YamlError as error:
            self.problems.append(Problem(path, error.line, "(file)", error.message))
            return None
        except OSError as error:
            self.problems.append(Problem(path, 1, "(file)", f"cannot read: {error.strerror}"))
            return None
        self.bank.line_maps[path] = lines
        if not isinstance(data, dict):
            self.problems.append(Problem(path, 1, "(file)", "expected a mapping at the top level"))
            return None
        return data, lines

    def validate(self, model: type[Model], data: Any, path: Path, lines: LineMap) -> Model | None:
        try:
            return model.model_validate(data)
        except ValidationError as error:
            self.problems.extend(_validation_problems(error, path, lines, data))
            return None

    def register(self, kind: str, item_id: str, path: Path, line: int, loc: Loc = ()) -> bool:
        key = (kind, item_id)
        if key in self.bank.origins:
            first = self.bank.origins[key]
            self.problems.append(
                Problem(
                    path,
                    line,
                    f"{kind} {item_id}",
                    f"duplicate id: already defined at {first.path}:{first.line}",
                )
            )
            return False
        self.bank.origins[key] = Origin(path, line)
        self.bank.locs[key] = loc
        return True

    def keep_unvalidated(self, kind: str, raw: Any, where: str, path: Path, loc: Loc) -> None:
        if isinstance(raw, dict):
            item_id = raw.get("id")
            item_id = item_id if isinstance(item_id, str) else None
            self.bank.unvalidated.append(Unvalidated(kind, item_id, where, path, loc, raw))

    def load_question_file(self, path: Path) -> None:
        loaded = self.read(path)
        if loaded is None:
            return
        data, lines = loaded
        topic_data = data.get("topic")
        topic = None
        if topic_data is not None:
            try:
                topic = Topic.model_validate(topic_data)
            except ValidationError as error:
                self.problems.extend(_validation_problems(error, path, lines, data, ("topic",)))
                self.keep_unvalidated("topic", topic_data, "topic", path, ("topic",))
        else:
            self.problems.append(Problem(path, 1, "topic", "missing required field 'topic'"))
        raw_questions = data.get("questions", [])
        unknown = sorted(set(data) - {"topic", "questions"})
        for key in unknown:
            self.problems.append(
                Problem(path, lines.line_of((key,)), key, f"unknown field {key!r}")
            )
        if topic is not None and self.register(
            "topic", topic.id, path, lines.line_of(("topic",)), ("topic",)
        ):
            self.bank.topics[topic.id] = topic
        if not isinstance(raw_questions, list):
            self.problems.append(
                Problem(
                    path, lines.line_of(("questions",)), "questions", "expected a list of questions"
                )
            )
            return
        for index, raw in enumerate(raw_questions):
            loc: Loc = ("questions", index)
            try:
                question = Question.model_validate(raw)
            except ValidationError as error:
                self.problems.extend(_validation_problems(error, path, lines, data, loc))
                self.keep_unvalidated("question", raw, _describe(loc, data), path, loc)
                continue
            if question.topic is None and topic is not None:
                question.topic = topic.id
            if self.register("question", question.id, path, lines.line_of(loc), loc):
                self.bank.questions[question.id] = question

    def load_single(
        self, kind: str, model: type[Model], path: Path, expected_id: str | None
    ) -> Model | None:
        loaded = self.read(path)
        if loaded is None:
            return None
        data, lines = loaded
        item = self.validate(model, data, path, lines)
        if item is None:
            item_id = data.get("id")
            where = f"{kind} {item_id if isinstance(item_id, str) else expected_id or path.stem}"
            self.keep_unvalidated(kind, data, where, path, ())
            return None
        item_id = item.id  # type: ignore[attr-defined]
        if expected_id is not None and item_id != expected_id:
            self.problems.append(
                Problem(
                    path,
                    lines.line_of(("id",)),
                    f"{kind} {item_id}",
                    f"id {item_id!r} must match its file or folder name {expected_id!r}",
                )
            )
        if not self.register(kind, item_id, path, lines.line_of(("id",)) if "id" in data else 1):
            return None
        return item

    def load_root(self, root: BankRoot) -> None:
        self.bank.roots.append(root)
        questions = root.folder("questions")
        if questions is not None:
            for path in sorted(questions.glob("*.yaml")):
                self.load_question_file(path)
            plans = questions / "plans"
            for path in sorted(plans.glob("*.yaml")) if plans.is_dir() else []:
                if (plan := self.load_single("plan", Plan, path, path.stem)) is not None:
                    self.bank.plans[plan.id] = plan
        if (rubrics := root.folder("rubrics")) is not None:
            for path in sorted(rubrics.glob("*.yaml")):
                if (
                    template := self.load_single("rubric", RubricTemplate, path, path.stem)
                ) is not None:
                    self.bank.rubrics[template.id] = template
        if (hardware := root.folder("hardware")) is not None:
            for path in sorted(hardware.glob("*.yaml")):
                if (gpu := self.load_single("hardware", Hardware, path, path.stem)) is not None:
                    self.bank.hardware[gpu.id] = gpu
        if (drills := root.folder("drills")) is not None:
            for path in sorted(drills.glob("*/drill.yaml")):
                if (drill := self.load_single("drill", Drill, path, path.parent.name)) is not None:
                    self.bank.drills[drill.id] = drill
                    self.bank.drill_dirs[drill.id] = path.parent
            for path in sorted(drills.glob("*/collective.yaml")):
                self.bank.collective_dirs[path.parent.name] = path.parent


def load_bank(
    extra: list[Path] | None = None, *, builtin: bool = True
) -> tuple[Bank, list[Problem]]:
    """Load the built-in bank (unless `builtin=False`) merged with extra bank folders.

    Returns the bank of everything that loaded and the problems found; it never raises for
    a fault in a file.
    """
    loading = _Loading()
    roots = ([BankRoot(builtin_root())] if builtin else []) + [
        BankRoot(Path(p)) for p in extra or []
    ]
    for root in roots:
        if not root.path.is_dir():
            loading.problems.append(Problem(root.path, 0, "(bank)", "not a folder"))
            continue
        before = len(loading.bank.origins) + len(loading.problems)
        loading.load_root(root)
        if len(loading.bank.origins) + len(loading.problems) == before:
            # An empty folder (or a typo'd one) would otherwise merge silently as "ok".
            loading.problems.append(
                Problem(
                    root.path,
                    0,
                    "(bank)",
                    "no bank files here: expected questions/*.yaml (or *.yaml topic files), "
                    "hardware/, rubrics/ or drills/",
                )
            )
    return loading.bank, loading.problems


def load_hardware(extra: list[Path] | None = None) -> tuple[dict[str, Hardware], list[Problem]]:
    """Only the hardware tables of the built-in bank and extra folders (`gpuprep calc` needs no more)."""
    loading = _Loading()
    for root in [BankRoot(builtin_root())] + [BankRoot(Path(p)) for p in extra or []]:
        hardware = root.folder("hardware") if root.path.is_dir() else None
        for path in sorted(hardware.glob("*.yaml")) if hardware is not None else []:
            if (gpu := loading.load_single("hardware", Hardware, path, path.stem)) is not None:
                loading.bank.hardware[gpu.id] = gpu
    return loading.bank.hardware, loading.problems
