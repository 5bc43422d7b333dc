"""The napkin-math language's tokenizer: text to numbers, names, operators and superscripts.

Leading words like "about" and "~" are dropped, Unicode operators (×, ·, −, ÷) and superscript
powers are read as their ASCII forms, and the text's length is bounded before anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpuprep.estimate.errors import EstimateError

#: Longest text the engine reads; answers and formulas are a line, not a program.
MAX_LENGTH = 500

_LEADING_WORDS = re.compile(
    r"\s*(?:~=?|≈|≃|about\b|around\b|roughly\b|approximately\b|approx\.?|circa\b)\s*", re.IGNORECASE
)
_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_µμ][A-Za-z0-9_µμ]*")
_SPACE = re.compile(r"[ \t\r\n\u00a0\u2009\u202f]+")
_SUPERSCRIPTS = {
    "⁰": "0",
    "¹": "1",
    "²": "2",
    "³": "3",
    "⁴": "4",
    "⁵": "5",
    "⁶": "6",
    "⁷": "7",
    "⁸": "8",
    "⁹": "9",
}
_OPERATORS = {
    "**": "^",
    "^": "^",
    "+": "+",
    "-": "-",
    "−": "-",
    "*": "*",
    "×": "*",
    "·": "*",
    "⋅": "*",
    "/": "/",
    "÷": "/",
    "(": "(",
    ")": ")",
    ",": ",",
    ".": ".",
}


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "number", "name", "op", "sup" (a superscript power) or "end"
    text: str
    position: int


def tokenize(text: str) -> list[Token]:
    """Split text into tokens; a leading '~', '≈' or 'about' is dropped."""
    if len(text) > MAX_LENGTH:
        raise EstimateError(
            f"the expression is {len(text)} characters long; the limit is {MAX_LENGTH}",
            MAX_LENGTH,
            text,
        )
    tokens: list[Token] = []
    position = 0
    leading = _LEADING_WORDS.match(text)
    if leading:
        position = leading.end()
    length = len(text)
    while position < length:
        char = text[position]
        space = _SPACE.match(text, position)
        if space:
            position = space.end()
            continue
        number = _NUMBER.match(text, position)
        if number:
            tokens.append(Token("number", number.group(), position))
            position = number.end()
            continue
        name = _NAME.match(text, position)
        if name:
            tokens.append(Token("name", name.group(), position))
            position = name.end()
            continue
        if char in _SUPERSCRIPTS:
            start = position
            digits = ""
            while position < length and text[position] in _SUPERSCRIPTS:
                digits += _SUPERSCRIPTS[text[position]]
                position += 1
            tokens.append(Token("sup", digits, start))
            continue
        two = text[position : position + 2]
        if two == "**":
            tokens.append(Token("op", "^", position))
            position += 2
            continue
        if char in _OPERATORS:
            tokens.append(Token("op", _OPERATORS[char], position))
            position += 1
            continue
        raise EstimateError(
            f"unexpected character {char!r}: expected a number, a unit, a name, an operator (+ - * / ^) or a parenthesis",
            position,
            text,
        )
    tokens.append(Token("end", "", length))
    return tokens
