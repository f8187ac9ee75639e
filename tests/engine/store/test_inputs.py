import pytest

from engine.store import BadInput, title_from_question
from engine.store.inputs import as_json_dict, check_turn, check_user, fold, like_pattern, valid_id


def test_title_is_the_first_line_of_the_question():
    assert title_from_question("\n  What is the hotel cap?\nIn Paris please") == "What is the hotel cap?"


def test_long_title_is_cut_at_a_word():
    question = "What was the total revenue of the northern region during the third quarter of 2025 compared to 2024"
    title = title_from_question(question)
    assert title.endswith("…")
    assert len(title) <= 61
    assert question.startswith(title[:-1])
    assert question[len(title) - 1] == " "  # cut where a word ends


def test_title_of_one_long_word_is_cut_anyway():
    assert title_from_question("x" * 500) == "x" * 60 + "…"


def test_title_drops_control_characters():
    assert title_from_question("a\x00b\tc") == "a b c"


def test_fold_ignores_case_and_accents():
    assert fold("Résumé ÉTÉ") == "resume ete"


def test_like_pattern_takes_wildcards_literally():
    assert like_pattern("50%_a\\b") == "%50\\%\\_a\\\\b%"


@pytest.mark.parametrize("value", ["../etc/passwd", "a/b", "", "x" * 65, "id with space", None, 12])
def test_path_like_or_odd_ids_name_nothing(value):
    assert not valid_id(value)


@pytest.mark.parametrize("user", ["", "   ", "a\nb", "x" * 201, None])
def test_bad_user_names_are_refused_in_one_sentence(user):
    with pytest.raises(BadInput) as info:
        check_user(user)
    assert str(info.value).endswith(".")


def test_deeply_nested_turn_is_refused_readably():
    nested: dict = {}
    node = nested
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(BadInput, match="nested too deeply"):
        as_json_dict({"id": "t", "role": "user", "deep": nested}, "turn")


def test_huge_turn_is_refused_readably():
    with pytest.raises(BadInput, match="too large"):
        as_json_dict({"id": "t", "content": "x" * 100}, "turn", max_bytes=50)


def test_non_json_values_are_refused_readably():
    with pytest.raises(BadInput, match="not plain JSON"):
        check_turn({"id": "t", "role": "user", "when": object()})
    with pytest.raises(BadInput, match="not plain JSON"):
        check_turn({"id": "t", "role": "user", "x": float("nan")})


@pytest.mark.parametrize(
    "turn, message",
    [
        ({"role": "user"}, "id"),
        ({"id": "../x", "role": "user"}, "id"),
        ({"id": "t", "role": "system"}, "role"),
        ({"id": "t", "role": "user", "status": ""}, "status"),
        (["not", "a", "dict"], "JSON object"),
    ],
)
def test_malformed_turns_say_what_is_wrong(turn, message):
    with pytest.raises(BadInput, match=message):
        check_turn(turn)


def test_turn_without_status_is_answered():
    assert check_turn({"id": "t1", "role": "user"})["status"] == "answered"
