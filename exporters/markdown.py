"""The bank's Markdown, read once and written out two ways: HTML for Anki, data for Typst.

Questions are CommonMark with tables. Raw HTML is not passed through: `<b>` in a question is
text, shown as typed. Math is written as Anki writes it, `\\(...\\)` inline and `\\[...\\]` on
its own lines; a `$` is always a dollar sign (the bank's shell prompts and prices stay text).

- `to_html`: escaped HTML; math left as `\\(...\\)` / `\\[...\\]` for Anki's MathJax; fenced
  code highlighted by pygments with inline styles (no stylesheet to ship to a phone).
- `to_blocks`: a JSON-ready tree (paragraphs, lists, code, tables, math) that the Typst
  templates walk, so question text reaches Typst as data and never as markup: `#`, `$`, `*`,
  `_`, `@`, `<` and backslashes print as typed. Math becomes Typst math through `latex_to_typst`,
  which writes only what it understands (anything else falls back to the LaTeX source in mono).
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from typing import Any

# --- Parsing -----------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _parser() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.texmath import texmath_plugin

    parser = MarkdownIt("commonmark", {"html": False, "typographer": False})
    parser.enable(["table", "strikethrough"])
    parser.use(texmath_plugin, delimiters="brackets")
    parser.add_render_rule("math_inline", _html_math_inline)
    parser.add_render_rule("math_block", _html_math_block)
    parser.add_render_rule("math_block_eqno", _html_math_block)
    parser.add_render_rule("fence", _html_fence)
    parser.add_render_rule("code_block", _html_fence)
    return parser


def _tokens(text: str) -> list[Any]:
    return _parser().parse(text)


# --- HTML (Anki) -------------------------------------------------------------------------------


def _html_math_inline(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return "\\(" + escape(tokens[idx].content, quote=False) + "\\)"


def _html_math_block(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return '<div class="math">\\[' + escape(tokens[idx].content, quote=False) + "\\]</div>\n"


def _html_fence(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    language = token.info.strip().split(" ")[0] if token.info else ""
    return code_html(token.content, language)


#: Text with none of these (and not starting like a list, heading or quote) is one plain
#: paragraph; it skips the parser, which is most of an export's time for short items.
_MARKUP = re.compile(r"[*_`\[\]\\<>&~|!#\n]|^\s|^[-+=]|^\d+[.)]|\s$")


def _plain(text: str) -> bool:
    return bool(text) and _MARKUP.search(text) is None


def to_html(text: str) -> str:
    """Markdown to HTML for an Anki field: escaped, math for MathJax, code highlighted."""
    if _plain(text):
        return "<p>" + text.replace('"', "&quot;") + "</p>"
    return _parser().render(text).strip()


def inline_html(text: str) -> str:
    """A one-line Markdown item (a hint, a rubric signal) without its wrapping `<p>`."""
    html = to_html(text)
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return html[3:-4]
    return html


#: Bank languages to pygments lexer names.
_PYGMENTS_NAMES = {
    "cuda": "cuda",
    "triton": "python",
    "python": "python",
    "cpp": "cpp",
    "c++": "cpp",
}


@lru_cache(maxsize=1)
def _formatter() -> Any:
    from pygments.formatters import HtmlFormatter

    # Inline styles: a card carries its own colours, nothing depends on a stylesheet.
    return HtmlFormatter(noclasses=True, nowrap=True, style="default")


@lru_cache(maxsize=16)
def _lexer(language: str) -> Any:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(_PYGMENTS_NAMES.get(language, language), stripnl=False)
    except ClassNotFound:
        return None


def code_html(code: str, language: str = "") -> str:
    """A monospace block: highlighted with inline styles when pygments knows the language."""
    lexer = _lexer(language.lower()) if language and language.lower() != "text" else None
    if lexer is None:
        body = escape(code, quote=False)
    else:
        from pygments import highlight

        body = highlight(code, lexer, _formatter())
    body = body.rstrip("\n")
    attribute = f' data-language="{escape(language)}"' if language else ""
    return f'<pre class="code"{attribute}><code>{body}</code></pre>\n'


# --- Blocks (Typst) ----------------------------------------------------------------------------

Block = dict[str, Any]
Inline = str | dict[str, Any]


def to_blocks(text: str) -> list[Block]:
    """Markdown to a tree of plain data: blocks of inlines, for the Typst templates."""
    if _plain(text):
        return [{"t": "p", "c": [text]}]
    return _Blocks(_tokens(text)).blocks()


def inline_blocks(text: str) -> list[Inline]:
    """A one-line Markdown item's inlines (a paragraph's content), or its blocks when it has more."""
    blocks = to_blocks(text)
    if len(blocks) == 1 and blocks[0]["t"] == "p":
        return blocks[0]["c"]
    return [{"t": "blocks", "c": blocks}]


class _Blocks:
    """Walks markdown-it's flat token stream into nested blocks."""

    def __init__(self, tokens: list[Any]) -> None:
        self.tokens = tokens
        self.at = 0

    def blocks(self, until: str | None = None) -> list[Block]:
        out: list[Block] = []
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            if until is not None and token.type == until:
                self.at += 1
                return out
            self.at += 1
            kind = token.type
            if kind == "paragraph_open":
                inlines = _inlines(self.tokens[self.at].children or [])
                self.at += 2  # inline, paragraph_close
                out.append({"t": "p", "c": inlines})
            elif kind == "heading_open":
                inlines = _inlines(self.tokens[self.at].children or [])
                self.at += 2
                out.append({"t": "h", "level": int(token.tag[1:]), "c": inlines})
            elif kind in ("fence", "code_block"):
                language = token.info.strip().split(" ")[0] if token.info else ""
                out.append(code_block(token.content, language))
            elif kind in ("math_block", "math_block_eqno"):
                out.append({"t": "math", **math_data(token.content)})
            elif kind in ("bullet_list_open", "ordered_list_open"):
                items = []
                close = kind.replace("_open", "_close")
                while self.tokens[self.at].type != close:
                    self.at += 1  # list_item_open
                    items.append(self.blocks(until="list_item_close"))
                self.at += 1
                start = int(token.attrGet("start") or 1)
                out.append(
                    {
                        "t": "ol" if kind.startswith("ordered") else "ul",
                        "start": start,
                        "items": items,
                    }
                )
            elif kind == "blockquote_open":
                out.append({"t": "quote", "c": self.blocks(until="blockquote_close")})
            elif kind == "table_open":
                out.append(self.table())
            elif kind == "hr":
                out.append({"t": "hr"})
            elif kind == "html_block":
                out.append({"t": "p", "c": [token.content]})
        return out

    def table(self) -> Block:
        head: list[list[Inline]] = []
        rows: list[list[list[Inline]]] = []
        aligns: list[str] = []
        row: list[list[Inline]] | None = None
        in_head = False
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            if token.type == "table_close":
                break
            if token.type == "thead_open":
                in_head = True
            elif token.type == "thead_close":
                in_head = False
            elif token.type == "tr_open":
                row = []
            elif token.type == "tr_close" and row is not None:
                if in_head:
                    head = row
                else:
                    rows.append(row)
            elif token.type in ("th_open", "td_open") and row is not None:
                if in_head:
                    style = token.attrGet("style") or ""
                    aligns.append(style.removeprefix("text-align:") or "left")
                row.append(_inlines(self.tokens[self.at].children or []))
                self.at += 2  # inline, th/td_close
        width = max([len(head), *(len(r) for r in rows)], default=1)
        return {"t": "table", "head": head, "rows": rows, "align": (aligns or ["left"] * width)}


def _inlines(children: list[Any]) -> list[Inline]:
    out: list[Inline] = []
    stack: list[tuple[list[Inline], dict[str, Any]]] = []

    def add(item: Inline) -> None:
        if item == "":
            return
        if isinstance(item, str) and out and isinstance(out[-1], str):
            out[-1] += item
        else:
            out.append(item)

    for token in children:
        kind = token.type
        if kind == "text":
            add(token.content)
        elif kind == "softbreak":
            add(" ")
        elif kind == "hardbreak":
            add({"t": "br"})
        elif kind == "code_inline":
            add({"t": "code", "text": token.content})
        elif kind == "math_inline":
            add({"t": "m", **math_data(token.content)})
        elif kind == "html_inline":
            add(token.content)
        elif kind in ("strong_open", "em_open", "s_open", "link_open"):
            node: dict[str, Any] = {
                "t": {"strong_open": "b", "em_open": "i", "s_open": "s", "link_open": "a"}[kind]
            }
            if kind == "link_open":
                node["href"] = token.attrGet("href") or ""
            stack.append((out, node))
            out = []
        elif kind in ("strong_close", "em_close", "s_close", "link_close") and stack:
            parent, node = stack.pop()
            node["c"] = out
            out = parent
            out.append(node)
        elif kind == "image":
            add(token.content or token.attrGet("alt") or "")
    while stack:  # unbalanced (cannot happen with markdown-it, but never lose text)
        parent, node = stack.pop()
        node["c"] = out
        out = parent
        out.append(node)
    return out


#: Bank languages to the names Typst's highlighter knows.
_TYPST_LANGUAGES = {"cuda": "cpp", "triton": "python", "c++": "cpp"}


def code_block(code: str, language: str = "") -> Block:
    """A code or profiler block for Typst: highlighted by Typst itself where it knows the language."""
    language = language.lower()
    return {
        "t": "code",
        "lang": _TYPST_LANGUAGES.get(language, language) if language != "text" else "",
        "text": code.rstrip("\n"),
    }


def math_data(latex: str) -> dict[str, Any]:
    """{'src': the LaTeX, 'math': Typst math or None when it cannot be converted}."""
    try:
        converted: str | None = latex_to_typst(latex)
    except MathError:
        converted = None
    return {"src": latex.strip(), "math": converted}


# --- LaTeX math to Typst math ------------------------------------------------------------------


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
