"""The answers people type, rewritten into the napkin-math language before it reads them.

`468,000`, `468k`, `8.5 billion`, `55%`, `32-way`, `3.5x` and digits grouped with thin spaces
are how numbers are said; the expression language knows none of them. Each rewrite is a regular
expression without nested repetition (linear in the text, which the tokenizer bounds anyway), so
no answer can make the reader slow, and each one that fires leaves a note so the user sees how
their answer was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpuprep.estimate.tokens import MAX_LENGTH
from gpuprep.units.table import UNITS

_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
#: Digit groups joined by a thin, narrow or non-breaking space, an underscore or an apostrophe.
_GROUPED = re.compile(r"(?<=\d)[\u2009\u202f\u00a0_'](?=\d{3}(?!\d))")
#: '468 000' with plain spaces, only as the whole answer (elsewhere a space separates things).
_SPACED = re.compile(r"^(\s*(?:(?:~|≈|about)\s*)?)(\d{1,3}(?: \d{3})+)(\.\d+)?\s*$")
#: 468,000 or 1,234,567.5: commas every three digits (only outside function calls).
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:,\d{3})+)(?![\d,])")
_WORDS = {"thousand": "1e3", "million": "1e6", "billion": "1e9", "trillion": "1e12"}
_WORD_SUFFIX = re.compile(
    rf"(?<![\w.])({_NUMBER})\s*(thousand|million|billion|trillion|bn|mn)s?\b", re.IGNORECASE
)
#: 468k, 2.3M, 8.5B: a letter right after the digits with nothing of a unit after it.
_LETTER_SUFFIX = re.compile(rf"(?<![\w.])({_NUMBER})([kKMGT]|B(?=\s*$))(?![A-Za-z0-9_/^*.(])")
_LETTERS = {"k": "1e3", "K": "1e3", "M": "1e6", "G": "1e9", "B": "1e9", "T": "1e12"}
#: '8.5 B' or '2 M' at the very end of a count: a billion, a million (never bytes there).
_LETTER_AT_END = re.compile(rf"(?<![\w.])({_NUMBER})\s+([kKMGTB])\s*$")
#: '2 GPUs', '32 warps': a label after a count, words that are not units.
_LABEL = re.compile(r"^(.*?[\d)])\s+([A-Za-z]{2,}(?:[\s-]+[A-Za-z]+)*)\s*$")
_WAY = re.compile(rf"(?<![\w.])({_NUMBER})\s*-?\s*ways?\b", re.IGNORECASE)
_TIMES = re.compile(
    rf"(?<![\w.])({_NUMBER})\s*[xX×]\s*(?:faster|slower|speed-?up|more|less|fewer)?\s*$",
    re.IGNORECASE,
)
_PERCENT = re.compile(rf"(?<![\w.])({_NUMBER})\s*%")
_WORD_NAMES = {"bn": "billion", "mn": "million"}


@dataclass(frozen=True)
class TypedAnswer:
    """An answer as typed, and the expression it was rewritten to."""

    typed: str
    expression: str
    """What the napkin-math evaluator reads."""
    percent: bool = False
    """The answer was a percentage (`55%` is read as 0.55; a percent question rescales it)."""
    notes: tuple[str, ...] = ()
    """How the rewrites read it ('468k read as 468000'), for the grade to show."""


def _scaled(number: str, power: str) -> str:
    return f"({number}*{power})"


def read_typed(text: str, *, counts: bool = True) -> TypedAnswer:
    """Rewrite the ways people write numbers into the expression language.

    `counts` says the question asks for a plain number, so a trailing `B` is a billion rather
    than a byte. Text the rewrites do not touch is passed through for the parser to judge.
    """
    if len(text) > MAX_LENGTH:
        return TypedAnswer(text, text)  # the tokenizer refuses it, with the limit
    notes: list[str] = []
    expression = _GROUPED.sub("", text)
    expression = _SPACED.sub(
        lambda m: m.group(1) + m.group(2).replace(" ", "") + (m.group(3) or ""), expression
    )
    if "(" not in expression:
        # Inside a call, 'min(1,000)' is two arguments, not a thousand.
        grouped = _THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(",", ""), expression)
        if grouped != expression:
            expression = grouped

    def word(match: re.Match[str]) -> str:
        name = match.group(2).lower()
        name = _WORD_NAMES.get(name, name)
        notes.append(f"{match.group(0).strip()} read as {match.group(1)} × {_WORDS[name]}")
        return _scaled(match.group(1), _WORDS[name])

    expression = _WORD_SUFFIX.sub(word, expression)

    def letter(match: re.Match[str]) -> str:
        suffix = match.group(2)
        if suffix == "B" and not counts:
            return match.group(0)
        notes.append(f"{match.group(0)} read as {match.group(1)} × {_LETTERS[suffix]}")
        return _scaled(match.group(1), _LETTERS[suffix])

    expression = _LETTER_SUFFIX.sub(letter, expression)
    if counts:
        expression = _LETTER_AT_END.sub(letter, expression)
    expression = _WAY.sub(lambda m: m.group(1), expression)
    expression = _TIMES.sub(lambda m: m.group(1), expression)
    if counts:
        label = _LABEL.match(expression)
        if label and not any(word in UNITS for word in re.split(r"[\s-]+", label.group(2))):
            notes.append(f"'{label.group(2)}' taken as a label")
            expression = label.group(1)
    percent = False
    if _PERCENT.search(expression):
        percent = True
        expression = _PERCENT.sub(lambda m: f"({m.group(1)}/100)", expression)
    return TypedAnswer(text, expression, percent, tuple(notes))
