"""LaTeX math, as the bank writes it between `\\(` and `\\)`, turned into Typst math.

Only a known subset is converted (Greek letters, operators, fractions, roots, sub- and
superscripts, styles, text); anything else raises `MathError` and the book shows the LaTeX
as it was written.
"""

from __future__ import annotations

import re

class MathError(ValueError):
    """LaTeX this converter does not understand; the source is shown as it was written."""


# fmt: off
_GREEK = {
    "alpha", "beta", "gamma", "delta", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
    "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma",
    "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega",
}
_SYMBOLS = {
    "epsilon": "epsilon.alt", "varepsilon": "epsilon", "vartheta": "theta.alt",
    "varphi": "phi", "cdot": "dot.op", "times": "times", "div": "div", "pm": "plus.minus",
    "mp": "minus.plus", "approx": "approx", "sim": "tilde.op", "simeq": "tilde.eq",
    "le": "lt.eq", "leq": "lt.eq", "ge": "gt.eq", "geq": "gt.eq", "ne": "eq.not", "neq": "eq.not",
    "equiv": "equiv", "ll": "lt.double", "gg": "gt.double", "to": "arrow.r",
    "rightarrow": "arrow.r", "leftarrow": "arrow.l", "Rightarrow": "arrow.r.double",
    "Leftarrow": "arrow.l.double", "leftrightarrow": "arrow.l.r", "mapsto": "arrow.r.bar",
    "infty": "infinity", "ldots": "dots.h", "dots": "dots.h", "cdots": "dots.c",
    "vdots": "dots.v", "propto": "prop", "in": "in", "notin": "in.not", "subset": "subset",
    "subseteq": "subset.eq", "cup": "union", "cap": "sect", "forall": "forall",
    "exists": "exists", "sum": "sum", "prod": "product", "int": "integral",
    "partial": "partial", "nabla": "nabla", "lceil": "ceil.l", "rceil": "ceil.r",
    "lfloor": "floor.l", "rfloor": "floor.r", "langle": "angle.l", "rangle": "angle.r",
    "quad": "quad", "qquad": "wide", ",": "thin", ";": "med", ":": "med", " ": "thick",
    "ell": "ell", "hbar": "planck.reduce", "circ": "compose", "star": "star.op",
    "mid": "divides", "vert": "bar.v", "|": "bar.v.double", "neg": "not", "land": "and",
    "lor": "or", "oplus": "plus.circle", "otimes": "times.circle", "deg": "degree",
}
_OPERATORS = {
    "log", "ln", "exp", "sin", "cos", "tan", "max", "min", "lim", "sup", "inf", "arg", "det",
    "gcd", "Pr", "sinh", "cosh", "tanh", "mod", "dim",
}
_STYLES = {"mathbf": "bold", "boldsymbol": "bold", "mathit": "italic", "mathcal": "cal",
           "mathbb": "bb", "mathsf": "sans", "mathtt": "mono"}
_TEXT = {"text", "textrm", "mathrm", "operatorname", "textbf", "textit", "texttt"}
_DROPPED = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
            "displaystyle", "textstyle", "limits", "nolimits", "!", "mathrlap", "mathllap"}
_FRACTIONS = {"frac", "dfrac", "tfrac", "cfrac"}
_UNICODE = {"·": "dot.op", "×": "times", "≈": "approx", "≤": "lt.eq", "≥": "gt.eq",
            "≠": "eq.not", "→": "arrow.r", "∞": "infinity", "−": "minus", "…": "dots.h"}
# fmt: on
_PLAIN = set("+-=<>()[]|,.;:!'*")
_ESCAPED = set("{}%$#&_~^")

_TOKEN = re.compile(r"\\([A-Za-z]+|.)|(\s+)|(.)", re.DOTALL)


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Math:
    """A recursive-descent reader of the LaTeX math people write in prose."""

    def __init__(self, latex: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        for match in _TOKEN.finditer(latex):
            command, space, char = match.groups()
            if command is not None:
                self.tokens.append(("cmd", command))
            elif space is not None:
                self.tokens.append(("space", " "))
            else:
                self.tokens.append(("char", char))
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise MathError("the formula ends too early")
        self.at += 1
        return token

    def _digit_after(self) -> bool:
        following = self.tokens[self.at + 1] if self.at + 1 < len(self.tokens) else None
        return following is not None and following[0] == "char" and following[1].isdigit()

    def skip_space(self) -> None:
        while (token := self.peek()) is not None and token[0] == "space":
            self.at += 1

    def sequence(self, closing: str | None = None) -> str:
        parts: list[str] = []
        while (token := self.peek()) is not None:
            if token == ("char", "}") or (closing is not None and token == ("char", closing)):
                break
            if token[0] == "space":
                self.at += 1
                continue
            if token in (("char", "^"), ("char", "_")):
                # A script attaches to what precedes it, with no space between.
                self.at += 1
                script = token[1] + "(" + self.argument() + ")"
                if parts and parts[-1]:
                    parts[-1] += script
                else:
                    parts.append('""' + script)
                continue
            parts.append(self.atom())
        return " ".join(part for part in parts if part)

    def group(self) -> str:
        """`{...}`: its contents."""
        self.skip_space()
        if self.take() != ("char", "{"):
            raise MathError("expected {")
        inner = self.sequence()
        if self.take() != ("char", "}"):
            raise MathError("unbalanced braces")
        return inner

    def argument(self) -> str:
        """A command's argument: a group, or the single next token."""
        self.skip_space()
        token = self.peek()
        if token == ("char", "{"):
            return self.group()
        return self.atom(single=True)

    def raw_group(self) -> str:
        """`{...}` as text (for \\text)."""
        self.skip_space()
        if self.take() != ("char", "{"):
            raise MathError("expected {")
        depth, text = 1, ""
        while True:
            kind, value = self.take()
            if (kind, value) == ("char", "{"):
                depth += 1
            elif (kind, value) == ("char", "}"):
                depth -= 1
                if depth == 0:
                    return text
            text += (
                "\\" + value
                if kind == "cmd" and not value.isalpha()
                else value
                if kind != "cmd"
                else "\\" + value
            )

    def atom(self, single: bool = False) -> str:
        kind, value = self.take()
        if kind == "char" and value.isdigit():
            # 3.35 is one number; `x^23` (single) is x squared times 3, as in LaTeX.
            while (
                not single
                and (token := self.peek()) is not None
                and token[0] == "char"
                and (token[1].isdigit() or (token[1] == "." and self._digit_after()))
            ):
                value += self.take()[1]
            return value
        if kind == "char":
            if value == "{":
                inner = self.sequence()
                if self.take() != ("char", "}"):
                    raise MathError("unbalanced braces")
                return "(" + inner + ")" if inner else ""
            if value.isascii() and value.isalpha():
                return value
            if value == "/":
                return "slash"
            if value == "&":
                return "&"
            if value in _PLAIN:
                return {",": "comma", ";": "semi"}.get(value, value)
            if value in _UNICODE:
                return _UNICODE[value]
            return _string(value)
        # A command.
        if value in _GREEK:
            return value
        if value in _SYMBOLS:
            return _SYMBOLS[value]
        if value in _OPERATORS:
            return f"op({_string(value)})"
        if value in _DROPPED:
            return ""
        if value in _FRACTIONS:
            return f"frac({self.argument()}, {self.argument()})"
        if value == "sqrt":
            self.skip_space()
            if self.peek() == ("char", "["):
                self.at += 1
                index = self.sequence(closing="]")
                self.take()
                return f"root({index}, {self.argument()})"
            return f"sqrt({self.argument()})"
        if value in _TEXT:
            text = self.raw_group()
            return f"upright({_string(text)})" if value != "text" else _string(text)
        if value in _STYLES:
            return f"{_STYLES[value]}({self.argument()})"
        if value in ("hat", "bar", "overline", "tilde", "vec", "dot"):
            accent = {
                "overline": "overline",
                "hat": "hat",
                "bar": "macron",
                "tilde": "tilde",
                "vec": "arrow",
                "dot": "dot",
            }[value]
            return f"{accent}({self.argument()})"
        if value == "\\":
            return "\\"
        if value in _ESCAPED:
            return _string(value)
        raise MathError(f"\\{value} is not supported")


def latex_to_typst(latex: str) -> str:
    """Typst math for LaTeX math (the common subset); raises :class:`MathError` otherwise."""
    reader = _Math(latex)
    converted = reader.sequence()
    if reader.peek() is not None:
        raise MathError("unbalanced braces")
    return converted
