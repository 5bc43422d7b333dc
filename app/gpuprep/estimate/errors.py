"""The engine's one error type: every parse, unit and evaluation failure is an EstimateError."""

from __future__ import annotations

#: How many characters either side of the fault `str()` shows of a long text.
_WINDOW = 60


class EstimateError(ValueError):
    """A napkin-math expression that cannot be parsed or evaluated.

    `position` is the 0-based index in `text` of the fault (None when it is not tied to one
    place, e.g. an unknown GPU passed on the command line). `str()` shows the text with a
    caret under the position, then the message, which says what was expected.
    """

    def __init__(self, message: str, position: int | None = None, text: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.text = text

    def __str__(self) -> str:
        if self.position is None or not self.text:
            return self.message
        text = self.text.replace("\n", " ").replace("\t", " ")
        position = min(max(self.position, 0), len(text))
        start = max(0, position - _WINDOW)
        end = min(len(text), position + _WINDOW)
        shown = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
        caret = " " * (position - start + (1 if start else 0)) + "^"
        return f"{self.message} (at column {position + 1})\n  {shown}\n  {caret}"

    def with_text(self, text: str, offset: int = 0) -> EstimateError:
        """The same error placed inside a larger text (a formula inside a question)."""
        position = None if self.position is None else self.position + offset
        return EstimateError(self.message, position, text)
