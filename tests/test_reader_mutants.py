"""How a typed answer is read, pinned to the exact rewrite and the notes the user is shown.

Written to kill the mutants `./dev mutate estimate.reader` found alive (issue 19): a note that
misstates how '8.5 billion' was read, or a percent flag lost, changes what the grade says.
"""

from __future__ import annotations

from gpuprep.estimate.reader import TypedAnswer, read_typed
from gpuprep.estimate.tokens import MAX_LENGTH


def test_a_count_reads_a_trailing_b_as_a_billion_unless_told_it_is_not_a_count():
    assert read_typed("8.5 B") == TypedAnswer(
        "8.5 B", "(8.5*1e9)", False, ("8.5 B read as 8.5 × 1e9",)
    )
    assert read_typed("8.5 B", counts=False).expression == "8.5 B"


def test_a_number_word_is_noted_with_the_words_as_typed_and_the_factor():
    assert read_typed("8.5 billion").notes == ("8.5 billion read as 8.5 × 1e9",)
    assert read_typed("3 bn").notes == ("3 bn read as 3 × 1e9",)


def test_commas_group_thousands_except_inside_a_call_where_they_separate_arguments():
    assert read_typed("1,000").expression == "1000"
    assert read_typed("max(1,000)").expression == "max(1,000)"


def test_a_trailing_word_is_a_label_unless_one_of_its_words_is_a_unit():
    assert read_typed("2 GPUs") == TypedAnswer("2 GPUs", "2", False, ("'GPUs' taken as a label",))
    assert read_typed("5 ms total") == TypedAnswer("5 ms total", "5 ms total", False, ())


def test_only_a_percent_sign_makes_a_percentage():
    assert read_typed("55%").percent is True
    assert read_typed("55%").expression == "(55/100)"
    assert read_typed("55").percent is False


def test_the_answer_as_typed_is_kept_beside_its_rewrite():
    assert read_typed("468k").typed == "468k"


def test_an_answer_at_the_length_limit_is_read_and_one_over_is_passed_through_untouched():
    at_limit = "468k".ljust(MAX_LENGTH)
    assert read_typed(at_limit).expression.strip() == "(468*1e3)"
    over = "468k".ljust(MAX_LENGTH + 1)
    assert read_typed(over) == TypedAnswer(over, over)
