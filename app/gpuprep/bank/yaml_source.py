"""Safe YAML loading that remembers where each value came from.

`load_yaml` returns the data and a :class:`LineMap`, so that a pydantic error at
``questions.3.rubric.red_flags`` can be reported as ``questions/roofline.yaml:88``.
Only the safe constructor is used: a ``!!python/object`` tag is an error, never run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Loc = tuple[str | int, ...]


class YamlError(Exception):
    """A file that is not safe, valid YAML; carries the line of the fault."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass
class LineMap:
    """Maps a location inside a YAML document (keys and list indexes) to a 1-based line."""

    lines: dict[Loc, int] = field(default_factory=dict)

    def line_of(self, loc: Loc) -> int:
        """The line of the deepest known prefix of `loc` (a missing key points at its parent)."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get((), 1)


# libyaml's parser when the wheel has it: a 300-question bank must load in well under a second.
_SafeLineLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _walk(node: yaml.Node, loc: Loc, lines: dict[Loc, int], path: Path) -> None:
    lines[loc] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                raise YamlError(path, key_node.start_mark.line + 1, f"duplicate key {key!r}")
            seen.add(key)
            _walk(value_node, (*loc, key), lines, path)
            lines[(*loc, key)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*loc, index), lines, path)


def load_yaml(path: Path, text: str | None = None) -> tuple[Any, LineMap]:
    """Load one YAML document safely; raise :class:`YamlError` with the fault's line."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise YamlError(path, 1, f"not UTF-8 text ({error.reason})") from None
    loader = _SafeLineLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, LineMap({(): 1})
        lines: dict[Loc, int] = {}
        _walk(node, (), lines, path)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        problem = error.problem or str(error)
        if "could not determine a constructor" in problem:
            # The tag itself starts with 'tag:', so split at the first 'tag' only.
            problem = (
                f"tag not allowed: {problem.split('tag', 1)[-1].strip()} (only plain YAML is loaded)"
            )
        raise YamlError(path, line, f"YAML: {problem}") from None
    except yaml.YAMLError as error:
        raise YamlError(path, 1, f"YAML: {error}") from None
    finally:
        loader.dispose()
    return data, LineMap(lines)
