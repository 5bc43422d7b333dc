"""`gpuprep export anki` as a user meets it: one note per question, stable GUIDs, escaped HTML."""

from __future__ import annotations

import json
import os
import sqlite3
import zipfile
from pathlib import Path

import genanki
import pytest
import yaml
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.exporters import anki as anki_export

runner = CliRunner()
BANK = Path(__file__).parent / "fixtures" / "export_bank"
TOPIC = ["--bank", str(BANK), "--topic", "markup"]
FIELDS = anki_export.FIELDS


def export(tmp_path: Path, *args: str, name: str = "deck.apkg") -> Path:
    out = tmp_path / name
    result = runner.invoke(app, ["export", "anki", *TOPIC, "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def read_notes(apkg: Path) -> dict[str, dict]:
    """Every note of a package by its Id field: guid, mod, tags, fields, deck name."""
    with zipfile.ZipFile(apkg) as archive:
        assert sorted(archive.namelist()) == ["collection.anki2", "media"]
        database = apkg.with_suffix(".anki2")
        database.write_bytes(archive.read("collection.anki2"))
    connection = sqlite3.connect(database)
    try:
        decks = json.loads(connection.execute("SELECT decks FROM col").fetchone()[0])
        notes = {}
        for note_id, guid, mod, tags, flds in connection.execute(
            "SELECT id, guid, mod, tags, flds FROM notes"
        ):
            fields = dict(zip(FIELDS, flds.split("\x1f"), strict=True))
            (deck_id,) = connection.execute(
                "SELECT did FROM cards WHERE nid = ?", (note_id,)
            ).fetchone()
            notes[fields["Id"]] = {
                "guid": guid,
                "mod": mod,
                "tags": tags.split(),
                "fields": fields,
                "deck": decks[str(deck_id)]["name"],
            }
    finally:
        connection.close()
    return notes


def test_each_question_becomes_one_note_with_its_fields_tags_and_topic_deck(tmp_path):
    notes = read_notes(export(tmp_path))

    assert sorted(notes) == [
        "markup-h200-only",
        "markup-literal",
        "markup-ncu-table",
        "markup-stream",
    ]
    stream = notes["markup-stream"]
    assert stream["deck"] == "gpuprep::Markup #1: $, *, _, @ and <tags>"
    assert stream["tags"] == ["gpuprep", "topic::markup", "kind::estimation", "level::junior"]
    assert stream["fields"]["Title"] == "Stream 4 GiB once"
    assert stream["fields"]["Level"] == "junior"
    assert stream["fields"]["Topic"] == "Markup #1: $, *, _, @ and &lt;tags&gt;"
    assert "Divide the bytes by the HBM bandwidth." in stream["fields"]["Hints"]
    assert "Divides bytes by HBM bandwidth" in stream["fields"]["Rubric"]
    assert "Red flags" in stream["fields"]["Rubric"]
    # A free tag with a space becomes one Anki tag.
    assert "tag::two_words" in notes["markup-literal"]["tags"]


def test_two_exports_are_byte_identical_and_guids_come_from_the_question_id(tmp_path):
    first = export(tmp_path, name="one.apkg")
    second = export(tmp_path, name="two.apkg")

    assert first.read_bytes() == second.read_bytes()
    notes = read_notes(first)
    for question_id, note in notes.items():
        assert note["guid"] == genanki.guid_for("gpuprep/question", question_id)


def test_an_edited_bank_keeps_every_guid_and_stamps_the_notes_newer(tmp_path, monkeypatch):
    bank = tmp_path / "bank" / "questions"
    bank.mkdir(parents=True)
    source = (BANK / "questions" / "markup.yaml").read_text(encoding="utf-8")
    (bank / "markup.yaml").write_text(source, encoding="utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    before = read_notes(_export_bank(tmp_path, bank.parent, "before.apkg"))

    data = yaml.safe_load(source)
    data["questions"][0]["answer"] = "A corrected answer."
    (bank / "markup.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    after = read_notes(_export_bank(tmp_path, bank.parent, "after.apkg"))

    assert {i: n["guid"] for i, n in after.items()} == {i: n["guid"] for i, n in before.items()}
    assert "A corrected answer." in after["markup-literal"]["fields"]["Answer"]
    # Anki keeps the newer copy of a note on import: the edited export must be newer.
    assert all(after[i]["mod"] > before[i]["mod"] for i in before)


def _export_bank(tmp_path: Path, bank: Path, name: str) -> Path:
    out = tmp_path / name
    result = runner.invoke(
        app, ["export", "anki", "--bank", str(bank), "--topic", "markup", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def test_markup_characters_are_escaped_math_is_left_for_mathjax_and_code_is_highlighted(
    tmp_path,
):
    literal = read_notes(export(tmp_path))["markup-literal"]["fields"]

    assert literal["Title"] == (
        "Literal #set, $x$, *stars*, _under_, @ref, &lt;b&gt;tag&lt;/b&gt; and \\back"
    )
    prompt = literal["Prompt"]
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in prompt
    assert "<script" not in prompt
    assert "#set page(width: 1cm)" in prompt and "$5 and $10" in prompt
    assert "\\(\\frac{2 M^3}{T} \\approx 1.1\\,\\mathrm{ms}\\)" in prompt
    assert "\\[ t = \\frac{B}{\\beta} + \\alpha \\]" in prompt
    assert "<strong>bold</strong>" in prompt and "<code>code #x $y</code>" in prompt
    # pygments with inline styles: the card carries its own colours.
    assert '<pre class="code" data-language="cuda">' in prompt
    assert 'style="color:' in prompt and "__global__" in prompt
    assert "&lt;tag&gt; is text" in literal["Hints"]


def test_an_ncu_excerpt_is_a_monospace_block_kept_line_for_line(tmp_path):
    artifact = read_notes(export(tmp_path))["markup-ncu-table"]["fields"]["Artifact"]

    assert artifact.startswith('<div class="gp-label">ncu</div><pre class="code"><code>')
    assert "scale&lt;float&gt;(float*, int) (1024, 1, 1)x(256, 1, 1)\n" in artifact
    assert "dram__bytes_read.sum              Mbyte        33.55" in artifact


def test_estimation_cards_show_the_worked_solution_for_the_chosen_gpu(tmp_path):
    notes = read_notes(export(tmp_path, "--gpu", "a100_sxm"))

    stream = notes["markup-stream"]["fields"]
    assert stream["GPU"] == "NVIDIA A100 SXM4 80GB · size = 4 GiB"
    assert "Worked solution (NVIDIA A100 SXM4 80GB)" in stream["Worked"]
    assert "answer = size / gpu.hbm_bandwidth = 4 GiB / 2039 GB/s = 2.11 ms" in stream["Worked"]
    assert "Expected: 2.11 ms on the NVIDIA A100 SXM4 80GB" in stream["Answer"]
    # Not asked for the A100: it keeps its own GPU rather than failing the export.
    assert notes["markup-h200-only"]["fields"]["GPU"].startswith("NVIDIA H200")
    # Other kinds have no GPU of their own and no worked solution.
    assert notes["markup-literal"]["fields"]["GPU"] == ""
    assert notes["markup-literal"]["fields"]["Worked"] == ""


def test_without_gpu_the_settings_gpu_is_used_where_the_question_allows_it(
    tmp_path, isolated_gpuprep_home
):
    (isolated_gpuprep_home / "settings.yaml").write_text("gpu: h200\n", encoding="utf-8")

    notes = read_notes(export(tmp_path))

    assert notes["markup-stream"]["fields"]["GPU"].startswith("NVIDIA H200")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--topic", "no-such-topic"], "unknown topic 'no-such-topic'"),
        (["--topic", "markup", "--kind", "essay"], "unknown kind 'essay'"),
        (["--topic", "markup", "--gpu", "h300"], "unknown GPU 'h300'; did you mean h200"),
        (
            ["--topic", "markup", "--kind", "coding"],
            "no question matches topic markup and kind coding",
        ),
    ],
    ids=["topic", "kind", "gpu", "nothing-left"],
)
def test_a_wrong_command_line_is_a_clear_error_with_exit_2(tmp_path, args, message):
    out = tmp_path / "deck.apkg"

    result = runner.invoke(app, ["export", "anki", "--bank", str(BANK), *args, "-o", str(out)])

    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/d.apkg", "does not exist"),
        ("a-file/d.apkg", "is not a folder"),
        (".", "is a folder"),
    ],
    ids=["missing-folder", "file-as-folder", "a-folder"],
)
def test_an_output_path_that_cannot_be_written_is_refused_with_exit_2(tmp_path, where, message):
    (tmp_path / "a-file").write_text("not a folder")

    result = runner.invoke(app, ["export", "anki", *TOPIC, "-o", str(tmp_path / where)])

    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through folder permissions")
def test_an_unwritable_folder_is_refused_with_exit_2(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = runner.invoke(app, ["export", "anki", *TOPIC, "-o", str(locked / "d.apkg")])
    finally:
        locked.chmod(0o700)

    assert result.exit_code == 2
    assert "permission denied" in result.output


def test_a_failed_export_leaves_the_previous_deck_whole_and_no_partial_file(tmp_path, monkeypatch):
    out = export(tmp_path)
    good = out.read_bytes()

    def broken(package, timestamp):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(anki_export, "package_bytes", broken)
    with pytest.raises(OSError, match="No space left on device"):
        anki_export.export_anki(_bank(), _questions(), out)

    assert out.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.apkg"]


def test_a_write_that_fails_midway_removes_its_temporary_file(tmp_path, monkeypatch):
    from gpuprep.exporters import files

    out = tmp_path / "deck.apkg"
    out.write_bytes(b"the good deck")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(files.ExportError, match="No space left on device"):
        files.write_atomically(out, b"new bytes")

    assert out.read_bytes() == b"the good deck"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.apkg"]


def test_json_output_reports_what_was_written(tmp_path):
    out = tmp_path / "deck.apkg"

    result = runner.invoke(app, ["export", "anki", *TOPIC, "-o", str(out), "--json"])

    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["notes"] == 4 and report["decks"] == 1
    assert report["bytes"] == out.stat().st_size


def _bank():
    from gpuprep.sessions.checked_bank import load_checked_bank

    return load_checked_bank([BANK])


def _questions():
    from gpuprep.exporters.view import select_questions

    return select_questions(_bank(), ["markup"])


@pytest.mark.parametrize(("usage", "code"), [(False, 1), (True, 2)])
def test_an_export_that_fails_says_why_and_exits_2_only_when_the_command_line_is_at_fault(
    tmp_path, monkeypatch, usage, code
):
    from gpuprep.exporters.view import ExportError

    def failing(*args, **kwargs):
        raise ExportError("the deck could not be made", usage=usage)

    monkeypatch.setattr(anki_export, "export_anki", failing)
    result = runner.invoke(app, ["export", "anki", *TOPIC, "-o", str(tmp_path / "deck.apkg")])
    assert result.exit_code == code
    assert "the deck could not be made" in result.output
