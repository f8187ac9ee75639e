"""Tolerant Action Input: repaired before any reformat retry."""

import pytest

from engine.errors import FormatError
from engine.react.protocols.action_input import parse_action_input, strip_fence


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"expression": "17 * 23"}', {"expression": "17 * 23"}),
        ("{'expression': '17 * 23'}", {"expression": "17 * 23"}),  # single quotes
        ('{"expression": "17 * 23",}', {"expression": "17 * 23"}),  # trailing comma
        ('{"expression": "17 * 23"', {"expression": "17 * 23"}),  # not closed
        ('{"text": "line one\nline two"}', {"text": "line one\nline two"}),  # a literal newline in a string
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('```\n{"a": 1}', {"a": 1}),  # an opening fence whose closing fence was cut off
        ('Here: {"a": {"b": 2}} thanks', {"a": {"b": 2}}),
    ],
)
def test_json_is_read_or_repaired(text, expected):
    assert parse_action_input(text, "tool", None) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("17 * 23", "17 * 23"),
        ("'quoted'", "'quoted'"),
        ("`code`", "`code`"),
        ('"a JSON string"', "a JSON string"),
        ("```\n`inline` and text\n```", "`inline` and text"),
    ],
)
def test_a_bare_string_keeps_its_quotes_and_backticks(text, expected):
    assert parse_action_input(text, "calculator", "expression") == {"expression": expected}


def test_a_fence_is_removed_whole_or_not_at_all():
    assert strip_fence("use ``` here") == "use ``` here"
    assert strip_fence("```python\nx = 1\n```") == "x = 1"
    assert strip_fence("text ```") == "text ```"


def test_hopeless_input_is_a_retry_naming_the_tool():
    with pytest.raises(FormatError, match="Action Input for statistics is not valid JSON"):
        parse_action_input("{{{", "statistics", None)
    with pytest.raises(FormatError, match="is empty"):
        parse_action_input("   ", "statistics", None)
