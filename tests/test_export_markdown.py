"""The exporters' Markdown: HTML for Anki, data for Typst, and LaTeX math turned into Typst math."""

from __future__ import annotations

import json

import pytest

from gpuprep.exporters.markdown import _parser, _plain, to_blocks, to_html
from gpuprep.exporters.typst_math import MathError, latex_to_typst


@pytest.mark.parametrize(
    ("latex", "typst"),
    [
        (r"x^2 \cdot y", "x^(2) dot.op y"),
        (r"\frac{2 M^3}{989\,\text{TFLOP/s}}", 'frac(2 M^(3), 989 thin "TFLOP/s")'),
        (r"a_{i,j} = \sum_{k=0}^{K-1} A_{ik}", "a_(i comma j) = sum_(k = 0)^(K - 1) A_(i k)"),
        (r"\sqrt[3]{x} \approx 3.35", "root(3, x) approx 3.35"),
        (r"\lceil N / 128 \rceil", "ceil.l N slash 128 ceil.r"),
        (r"\left( \frac{a}{b} \right)^2 \le \infty", "( frac(a, b) )^(2) lt.eq infinity"),
        # LaTeX reads x^23 as x squared times 3.
        (r"x^23", "x^(2) 3"),
    ],
)
def test_common_latex_becomes_typst_math(latex, typst):
    assert latex_to_typst(latex) == typst


@pytest.mark.parametrize("latex", [r"\weird{x}", r"\frac{a}", r"{a"])
def test_latex_it_cannot_read_is_refused_so_the_source_is_shown(latex):
    with pytest.raises(MathError, match="is not supported|ends too early"):
        latex_to_typst(latex)
    (block,) = to_blocks(f"\\[{latex}\\]")
    assert block == {"t": "math", "src": latex, "math": None}


def test_typst_code_in_math_stays_text_and_every_conversion_compiles():
    typst = pytest.importorskip("typst")
    hostile = r'#read("/etc/passwd") \# \$ "quoted" \_ x_1 \text{a "b" \ c}'
    formulas = [
        hostile,
        r"\frac{2 M^3}{T} \approx 1.1\,\mathrm{ms}",
        r"t = \frac{B}{\beta} + \alpha",
        r"\max(a, b) \log_2 N",
        r"\hat{x} \vec{v} \overline{z} \mathbf{W}",
    ]
    converted = [latex_to_typst(f) for f in formulas]
    assert converted[0].startswith('"#" r e a d ( "\\"" slash')
    source = b'#for m in json(bytes(sys.inputs.m)) { eval(m, mode: "math"); linebreak() }'

    pdf = typst.compile(source, sys_inputs={"m": json.dumps(converted)})

    assert pdf.startswith(b"%PDF")


def test_html_is_escaped_math_is_kept_for_mathjax_and_dollars_are_text():
    html = to_html('A <b>tag</b>, $5 and \\(a<b\\) & "quotes"')

    assert html == ("<p>A &lt;b&gt;tag&lt;/b&gt;, $5 and \\(a&lt;b\\) &amp; &quot;quotes&quot;</p>")


def test_markdown_becomes_blocks_of_plain_strings():
    blocks = to_blocks("**#set** `x` and *$y$*\n\n- one\n- two\n\n```python\nprint(1)\n```\n")

    assert blocks == [
        {
            "t": "p",
            "c": [
                {"t": "b", "c": ["#set"]},
                " ",
                {"t": "code", "text": "x"},
                " and ",
                {"t": "i", "c": ["$y$"]},
            ],
        },
        {"t": "ul", "start": 1, "items": [[{"t": "p", "c": ["one"]}], [{"t": "p", "c": ["two"]}]]},
        {"t": "code", "lang": "python", "text": "print(1)"},
    ]


def test_the_plain_text_shortcut_agrees_with_the_parser_on_the_whole_bank():
    from gpuprep.bank.loader import load_bank

    bank, _problems = load_bank()
    texts = [
        text
        for q in bank.questions.values()
        for text in (
            q.prompt,
            q.answer,
            *q.hints,
            *q.rubric.strong_signals,
            *q.rubric.red_flags,
            *q.rubric.follow_ups,
        )
    ]
    shortcut = [text for text in texts if _plain(text)]

    assert len(shortcut) > len(texts) / 2
    for text in shortcut:
        assert to_html(text) == _parser().render(text).strip(), text
