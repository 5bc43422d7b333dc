"""`gpuprep export pdf` typeset by the real typst package, read back with pypdf."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app

pypdf = pytest.importorskip("pypdf", reason="pypdf is in the test extra")

runner = CliRunner()
BANK = Path(__file__).parent / "fixtures" / "export_bank"
TOPIC = ["--bank", str(BANK), "--topic", "markup"]
IDS = ["markup-literal", "markup-stream", "markup-h200-only", "markup-ncu-table"]


def export(tmp_path: Path, *args: str, name: str = "book.pdf") -> Path:
    out = tmp_path / name
    result = runner.invoke(app, ["export", "pdf", *TOPIC, "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def pages_text(pdf: Path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(pdf).pages]


def flat(text: str) -> str:
    """Text with line breaks and runs of spaces made single spaces (PDF text wraps)."""
    return re.sub(r"\s+", " ", text)


def test_the_study_book_has_a_title_page_contents_the_questions_and_the_hardware(tmp_path):
    pages = pages_text(export(tmp_path, "--book", "study"))
    text = flat(" ".join(pages))

    assert "Study book" in pages[0] and "4 questions in 1 topic" in flat(pages[0])
    assert "Contents" in pages[1]
    for question_id in IDS:
        assert question_id in text
    assert "Stream 4 GiB once" in text
    assert "Answers: Markup #1" in text
    assert "Appendix: the hardware" in text
    # The roofline charts are drawn for every GPU the bank has, with their ridge points.
    for name in ("NVIDIA H100 SXM5 80GB", "NVIDIA H200 SXM 141GB", "AMD Instinct MI300X"):
        assert name in text
    assert "bf16: 989.4 TFLOP/s, ridge 295 FLOP/B" in text


def test_question_text_prints_literally_in_every_markup_language(tmp_path):
    text = flat(" ".join(pages_text(export(tmp_path, "--book", "study"))))

    for literal in (
        "Literal #set, $x$, *stars*, _under_, @ref, <b>tag</b> and \\back",
        "#set page(width: 1cm) and #sys.inputs as text, $5 and $10 as prices",
        '<script>alert("x")</script>',
        "a backslash \\ and \\LaTeX",
        "Look for #hash and $dollar in the source.",
        "A <tag> is text, not HTML.",
        "scale<float>(float*, int) (1024, 1, 1)x(256, 1, 1)",
        "__global__ void add(const float* x, float* y, int n) { // #define NOPE $x$",
        "ü, Ω, ≈",
    ):
        assert literal in text, literal
    # Math is typeset, not shown as source; what cannot be converted is shown as written.
    assert "\\frac" not in text
    assert "\\weird{x}" in text


def test_the_interviewer_packet_has_rubrics_level_descriptors_and_a_scorecard_per_question(
    tmp_path,
):
    pages = pages_text(export(tmp_path, "--book", "interviewer"))
    text = flat(" ".join(pages))

    scorecards = [page for page in pages if flat(page).startswith("Scorecard: ")]
    assert len(scorecards) == len(IDS)
    for question_id in IDS:
        assert any(question_id in page for page in scorecards)
    assert "MODEL ANSWER" in text and "STRONG SIGNALS" in text and "RED FLAGS" in text
    assert "FOLLOW-UPS" in text and "What about a line starting with = Heading?" in text
    # The estimation rubric's level-4 descriptor for its first dimension.
    assert "Also says which assumptions are optimistic" in text
    assert "Candidate" in scorecards[0] and "Strong yes" in scorecards[0]


def test_the_answer_key_has_each_worked_answer_for_the_chosen_gpu(tmp_path):
    text = flat(" ".join(pages_text(export(tmp_path, "--book", "answers", "--gpu", "a100_sxm"))))

    assert "Answer key" in text
    assert "answer = size / gpu.hbm_bandwidth = 4 GiB / 2039 GB/s = 2.11 ms" in text
    assert "Expected: 2.11 ms on the NVIDIA A100 SXM4 80GB" in text
    # Not asked for the A100: worked for its own GPU.
    assert "on the NVIDIA H200" in text


def test_the_same_bank_gives_the_same_pdf_bytes(tmp_path):
    first = export(tmp_path, "--book", "answers", name="one.pdf")
    second = export(tmp_path, "--book", "answers", name="two.pdf")

    assert first.read_bytes() == second.read_bytes()


def test_json_output_counts_questions_and_pages(tmp_path):
    out = tmp_path / "book.pdf"

    result = runner.invoke(app, ["export", "pdf", *TOPIC, "-o", str(out), "--json"])

    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["questions"] == 4
    assert report["pages"] == len(pypdf.PdfReader(out).pages) > 4


def test_the_default_output_is_named_after_the_book(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    result = runner.invoke(app, ["export", "pdf", *TOPIC, "--book", "answers"])

    assert result.exit_code == 0, result.output
    assert (tmp_path / "gpuprep-answers.pdf").stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--book", "novel"], 2, "'novel' is not one of"),
        (["--gpu", "h300"], 2, "unknown GPU 'h300'"),
        (["-o", "/no/such/folder/book.pdf"], 2, "does not exist"),
    ],
    ids=["book", "gpu", "output"],
)
def test_a_wrong_command_line_exits_2(tmp_path, args, code, message):
    result = runner.invoke(app, ["export", "pdf", *TOPIC, *args])

    assert result.exit_code == code, result.output
    assert message in result.output


def test_a_typst_failure_is_an_error_that_leaves_the_old_book_in_place(tmp_path, monkeypatch):
    from gpuprep.exporters import book_typ

    out = export(tmp_path, "--book", "answers")
    good = out.read_bytes()
    monkeypatch.setattr(book_typ, "SOURCE", book_typ.SOURCE + "\n#undefined-function()\n")

    result = runner.invoke(app, ["export", "pdf", *TOPIC, "--book", "answers", "-o", str(out)])

    assert result.exit_code == 1
    assert "typst could not typeset the book" in result.output
    assert out.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["book.pdf"]
