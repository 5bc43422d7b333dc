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

from gpuprep.exporters.typst_math import MathError, latex_to_typst

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
    tokens: list[Any] = _parser().parse(text)
    return tokens


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
    return str(_parser().render(text)).strip()


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
        inlines: list[Inline] = blocks[0]["c"]
        return inlines
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
