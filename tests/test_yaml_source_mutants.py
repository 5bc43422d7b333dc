"""Where `bank check` says a fault is: the YAML loader's lines and errors, pinned down exactly.

Written to kill the mutants `./dev mutate bank.yaml_source` found alive (issue 19): a wrong line
or a missing path in these errors sends a user to the wrong place in their own file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuprep.bank.yaml_source import LineMap, YamlError, load_yaml

BANK_FILE = Path("questions/roofline.yaml")


def _fault(text: str) -> YamlError:
    with pytest.raises(YamlError) as caught:
        load_yaml(BANK_FILE, text)
    return caught.value


def test_an_error_reads_path_line_message_and_keeps_each_part():
    error = YamlError(BANK_FILE, 7, "duplicate key 'id'")
    assert str(error) == "questions/roofline.yaml:7: duplicate key 'id'"
    assert (error.path, error.line, error.message) == (BANK_FILE, 7, "duplicate key 'id'")


def test_a_duplicate_key_deep_in_a_list_is_reported_at_the_second_key_in_this_file():
    error = _fault("questions:\n  - id: a\n    rubric:\n      why: x\n      why: y\n")
    assert (error.path, error.line, error.message) == (BANK_FILE, 5, "duplicate key 'why'")


def test_a_duplicate_key_in_a_nested_mapping_names_this_file():
    error = _fault("topic:\n  id: t\n  id: u\n")
    assert (error.path, error.line) == (BANK_FILE, 3)


def test_a_missing_key_points_at_the_document_start_when_nothing_nearer_is_known():
    _data, lines = load_yaml(BANK_FILE, "# a comment\n\ntopic: t\n")
    assert lines.line_of(("questions", 0, "id")) == 3


def test_an_empty_map_and_an_empty_document_point_at_line_one():
    assert LineMap().line_of(("topic",)) == 1
    data, lines = load_yaml(BANK_FILE, "# nothing but a comment\n")
    assert data is None
    assert lines.line_of(("topic",)) == 1
    assert lines.line_of(()) == 1


def test_a_file_that_is_not_utf8_is_an_error_at_line_one_naming_the_file(tmp_path: Path):
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes("topic: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(YamlError) as caught:
        load_yaml(latin1)
    error = caught.value
    assert (error.path, error.line) == (latin1, 1)
    assert error.message == "not UTF-8 text (invalid continuation byte)"


def test_a_utf8_file_is_read_from_disk_with_its_lines(tmp_path: Path):
    source = tmp_path / "ok.yaml"
    source.write_bytes("topic: caf\u00e9\nquestions:\n  - id: q\n".encode())
    data, lines = load_yaml(source)
    assert data == {"topic": "caf\u00e9", "questions": [{"id": "q"}]}
    assert lines.line_of(("questions", 0, "id")) == 3


def test_a_syntax_error_gives_the_problem_alone_at_its_line():
    error = _fault("topic: t\nquestions: [1,\n")
    assert (error.path, error.line) == (BANK_FILE, 3)
    assert error.message == "YAML: did not find expected node content"


def test_a_python_tag_names_the_whole_tag_it_refused():
    error = _fault("topic: t\nrun: !!python/object/apply:os.system ['true']\n")
    assert (error.path, error.line) == (BANK_FILE, 2)
    assert error.message == (
        "YAML: tag not allowed: 'tag:yaml.org,2002:python/object/apply:os.system'"
        " (only plain YAML is loaded)"
    )


def test_a_control_character_is_an_error_in_this_file_with_its_position():
    error = _fault("topic: t\n\x07id: q\n")
    assert (error.path, error.line) == (BANK_FILE, 1)
    assert error.message.startswith("YAML: unacceptable character #x0007")
    assert "position 9" in error.message
