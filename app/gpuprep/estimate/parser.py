"""The napkin-math language: a tokenizer and a recursive-descent parser of our own.

Nothing here evaluates anything: the parser turns text into a small tree of the node types
below, and :mod:`gpuprep.estimate.evaluate` walks it. Python's `eval`, `ast` and attribute
lookup are never involved, so `().__class__` or `__import__('os')` are just text that does not
parse. Input length and nesting depth are bounded here; exponent size and overflow are
bounded where powers are computed.

Grammar (loosest first)::

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/" | "×" | "·") unary)*
    unary      := ("-" | "+") unary | power
    power      := primary (("^" | "**") exponent | "²" | "³")? unit?
    exponent   := like unary, but no unit may follow a number inside it
    primary    := NUMBER | NAME | NAME "." NAME | FUNCTION "(" expression ("," expression)* ")"
                | "(" expression ")"
    unit       := UNIT ("^" INT)? (("/" | "*" | "·") UNIT ("^" INT)?)*

A unit binds tightest, after a number or a sub-expression: `2 * M^3 FLOP` is 2·(M³ FLOP) and
`2*8192^3 FLOP / 989 TFLOP/s` is (2·8192³ FLOP) / (989 TFLOP/s).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.tokens import Token, tokenize
from gpuprep.units.table import DIMENSIONLESS, UNITS, Dimension

#: Deepest nesting of parentheses, signs, powers and calls.
MAX_DEPTH = 40
#: Largest power a unit may be raised to (`s^2` is fine, `s^99` is a typo).
MAX_UNIT_POWER = 6

FUNCTIONS: dict[str, tuple[int, int]] = {
    "min": (1, 16),
    "max": (1, 16),
    "sqrt": (1, 1),
    "log2": (1, 1),
    "log10": (1, 1),
    "ceil": (1, 1),
    "floor": (1, 1),
}
"""Function name -> (fewest, most) arguments."""

# --- The tree -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Number:
    value: float
    text: str
    position: int


@dataclass(frozen=True, slots=True)
class Name:
    name: str
    position: int


@dataclass(frozen=True, slots=True)
class Field:
    """`h100_sxm.hbm_bandwidth` or `gpu.bf16_dense`."""

    owner: str
    field: str
    position: int
    field_position: int


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node
    position: int


@dataclass(frozen=True, slots=True)
class Binary:
    operator: str  # + - * /
    left: Node
    right: Node
    position: int


@dataclass(frozen=True, slots=True)
class Power:
    base: Node
    exponent: Node
    position: int


@dataclass(frozen=True, slots=True)
class Call:
    function: str
    arguments: tuple[Node, ...]
    position: int


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """A (compound) unit as written, with its scale to base units and its dimension."""

    text: str
    scale: float
    dimension: Dimension


@dataclass(frozen=True, slots=True)
class WithUnit:
    value: Node
    unit: UnitSpec
    position: int


Node = Number | Name | Field | Negate | Binary | Power | Call | WithUnit


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed expression: its text and its tree."""

    text: str
    root: Node


def names_in(node: Node) -> set[str]:
    """Plain names an expression refers to (params, steps, bare units)."""
    if isinstance(node, Name):
        return {node.name}
    if isinstance(node, Negate):
        return names_in(node.operand)
    if isinstance(node, Binary):
        return names_in(node.left) | names_in(node.right)
    if isinstance(node, Power):
        return names_in(node.base) | names_in(node.exponent)
    if isinstance(node, Call):
        found: set[str] = set()
        for argument in node.arguments:
            found |= names_in(argument)
        return found
    if isinstance(node, WithUnit):
        return names_in(node.value)
    return set()


# --- The parser -----------------------------------------------------------------------------


def _describe(token: Token) -> str:
    if token.kind == "end":
        return "the end"
    return repr(token.text)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.depth = 0

    # Token helpers
    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.index + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def is_op(self, *texts: str) -> bool:
        return self.token.kind == "op" and self.token.text in texts

    def error(self, expected: str, token: Token | None = None) -> EstimateError:
        token = token or self.token
        return EstimateError(
            f"expected {expected}, found {_describe(token)}", token.position, self.text
        )

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise EstimateError(
                f"the expression is nested more than {MAX_DEPTH} deep",
                self.token.position,
                self.text,
            )

    def leave(self) -> None:
        self.depth -= 1

    # Grammar
    def parse(self) -> Expression:
        if self.token.kind == "end":
            raise self.error("a number or an expression such as '1.1 ms'")
        root = self.expression()
        if self.token.kind != "end":
            if self.token.kind == "name" and self.token.text in UNITS:
                raise self.error("an operator (+ - * / ^) after the unit; a value takes one unit")
            if self.token.kind == "name":
                raise self.error(
                    f"an operator (+ - * / ^) or a unit ({self.token.text!r} is not a unit)"
                )
            if self.is_op(","):
                raise self.error(
                    "an operator or the end (write 1100, not 1,100: ',' separates arguments)"
                )
            raise self.error("an operator (+ - * / ^) or the end")
        return Expression(self.text, root)

    def expression(self) -> Node:
        self.enter()
        node = self.term()
        while self.is_op("+", "-"):
            operator = self.advance()
            node = Binary(operator.text, node, self.term(), operator.position)
        self.leave()
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.is_op("*", "/"):
            operator = self.advance()
            node = Binary(operator.text, node, self.unary(), operator.position)
        return node

    def unary(self, *, units: bool = True) -> Node:
        if self.is_op("-", "+"):
            sign = self.advance()
            self.enter()
            operand = self.unary(units=units)
            self.leave()
            return Negate(operand, sign.position) if sign.text == "-" else operand
        return self.power(units=units)

    def power(self, *, units: bool) -> Node:
        start = self.token.position
        node = self.primary()
        if self.is_op("^"):
            operator = self.advance()
            self.enter()
            node = Power(node, self.unary(units=False), operator.position)
            self.leave()
        elif self.token.kind == "sup":
            sup = self.advance()
            node = Power(node, Number(float(sup.text), sup.text, sup.position), sup.position)
        if units and self._unit_follows():
            node = WithUnit(node, self.unit(), start)
        return node

    def _unit_follows(self) -> bool:
        token = self.token
        if token.kind != "name" or token.text not in UNITS:
            return False
        # `min(` is the function, `5 min` the unit.
        return not (self.peek().kind == "op" and self.peek().text in ("(", "."))

    def unit(self) -> UnitSpec:
        start = self.token.position
        scale = 1.0
        dimension = list(DIMENSIONLESS)
        sign = 1
        end = start
        while True:
            name = self.advance()
            unit = UNITS[name.text]
            power = 1
            end = name.position + len(name.text)
            if self.is_op("^") and self.peek().kind in ("number", "op"):
                power, end = self.unit_power()
            elif self.token.kind == "sup":
                sup = self.advance()
                power, end = int(sup.text), sup.position + len(sup.text)
            if not 0 < abs(power) <= MAX_UNIT_POWER:
                raise EstimateError(
                    f"a unit power must be between -{MAX_UNIT_POWER} and {MAX_UNIT_POWER}, not {power}",
                    name.position,
                    self.text,
                )
            power *= sign
            scale *= unit.scale**power
            for axis in range(len(dimension)):
                dimension[axis] += unit.dimension[axis] * power
            following = self.peek()
            if (
                self.is_op("/", "*")
                and following.kind == "name"
                and following.text in UNITS
                and not (self.peek(2).kind == "op" and self.peek(2).text in ("(", "."))
            ):
                if self.advance().text == "/":
                    # As people write it: everything after the first '/' divides ('B/s/SM').
                    sign = -1
                continue
            break
        return UnitSpec(self.text[start:end], scale, tuple(dimension))  # type: ignore[arg-type]

    def unit_power(self) -> tuple[int, int]:
        self.advance()  # '^'
        negative = False
        if self.is_op("-"):
            self.advance()
            negative = True
        token = self.token
        if token.kind != "number" or not token.text.isdigit():
            raise self.error("a whole number after '^' in a unit")
        self.advance()
        value = int(token.text) if len(token.text) < 4 else 10**4
        return (-value if negative else value), token.position + len(token.text)

    def primary(self) -> Node:
        token = self.token
        if token.kind == "number":
            self.advance()
            try:
                value = float(token.text)
            except (ValueError, OverflowError):
                raise self.error("a number", token) from None
            if value == float("inf"):
                raise EstimateError(
                    f"the number {token.text} is too large", token.position, self.text
                )
            return Number(value, token.text, token.position)
        if token.kind == "name":
            self.advance()
            if self.is_op("("):
                return self.call(token)
            if self.is_op("."):
                self.advance()
                field = self.token
                if field.kind != "name":
                    raise self.error(
                        f"a field name after '{token.text}.', e.g. '{token.text}.hbm_bandwidth'"
                    )
                self.advance()
                return Field(token.text, field.text, token.position, field.position)
            return Name(token.text, token.position)
        if self.is_op("("):
            self.advance()
            node = self.expression()
            if not self.is_op(")"):
                raise self.error("')' to close the '(' at column " + str(token.position + 1))
            self.advance()
            return node
        if self.is_op(")"):
            raise self.error("a number, a name or '(' before ')'")
        return self._raise_primary()

    def _raise_primary(self) -> Node:
        raise self.error("a number, a name, a function such as max(...) or '('")

    def call(self, name: Token) -> Node:
        function = name.text
        if function not in FUNCTIONS:
            known = ", ".join(FUNCTIONS)
            raise EstimateError(
                f"unknown function {function!r}; the functions are {known}",
                name.position,
                self.text,
            )
        self.advance()  # '('
        self.enter()
        arguments: list[Node] = []
        if self.is_op(")"):
            raise self.error(f"an argument to {function}()")
        while True:
            arguments.append(self.expression())
            if self.is_op(","):
                self.advance()
                continue
            if self.is_op(")"):
                self.advance()
                break
            raise self.error(f"',' or ')' in the call to {function}()")
        self.leave()
        fewest, most = FUNCTIONS[function]
        if not fewest <= len(arguments) <= most:
            wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise EstimateError(
                f"{function}() takes {wanted} argument(s), not {len(arguments)}",
                name.position,
                self.text,
            )
        return Call(function, tuple(arguments), name.position)


def parse(text: str) -> Expression:
    """Parse napkin-math text into an :class:`Expression`; raises :class:`EstimateError`."""
    if not isinstance(text, str):
        raise EstimateError(f"expected text, got {type(text).__name__}")
    return _parse_cached(text)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Expression:
    # Bank formulas are parsed once per process however many GPUs and variants use them.
    return _Parser(text).parse()
