"""The record of a run: the engine's own steps and the blocks the turn showed, kept whole
through JSON; a turn stored before it had one is read back from its raw stream; a stored
record that is not one is left aside, never an error."""

import json
from pathlib import Path

import pytest

from engine.llm.base import Usage
from engine.react.parser import parse_blocks
from engine.react.record import (
    MAX_RECORD_ITEMS,
    RecordBlock,
    TurnRecord,
    compact,
    from_stream,
    read_record,
    run_record,
    steps_from_blocks,
    stored_record,
)
from engine.react.step import ObservationStatus
from engine.react.types import ReActBlock, ReActType
from engine.tools.toolkits import general_toolkit
from tests.engine.react.test_stream import BigTable
from tests.helpers import call, make_engine, run

OLD_TURNS = json.loads((Path(__file__).parents[2] / "components" / "old_turns.json").read_text(encoding="utf-8"))


def old_turn(turn_id: str) -> dict:
    return next(t for t in OLD_TURNS["turns"] if t["id"] == turn_id)


def recorded_run():
    engine = make_engine(
        [call("calculator", {"expression": "1/0"}), call("calculator", {"expression": "6*7"}), "Answer: It is 42."],
        tools=general_toolkit(),
    )
    text = run(engine)
    result = engine.result
    return text, result, run_record(result.steps, result.blocks, text, result.answer, result.grounding, result.usage)


def test_the_record_keeps_the_engines_steps_and_comes_back_equal_from_json():
    text, result, record = recorded_run()
    assert record.resolved(text).steps == result.steps  # the engine's own steps, not rebuilt from the text
    assert {"thought", "text", "answer"} <= {field for _, _, field, _ in record.shown}
    stored = json.loads(compact(record))["steps"]  # what the blocks show is not kept again in the steps
    assert not any("thought" in s or "answer" in s or "model_text" in s for s in stored)
    assert len(record.model_spans) == 3
    assert [o["text"] for s in stored for o in s.get("observations", [])] == ["", ""]
    statuses = [o.status for s in record.steps for o in s.observations]
    assert statuses == [ObservationStatus.ERROR, ObservationStatus.OK]  # what the stream never says
    assert all(b.span is not None and not b.text for b in record.blocks)  # where each block is in the stream
    assert record.resolved(text).react_blocks() == parse_blocks(text)
    assert record.answer == "It is 42." and record.usage == result.usage and record.usage.total_tokens > 0
    again = TurnRecord.model_validate_json(record.model_dump_json())
    assert again == record and again.source == "engine"


def test_a_table_and_a_chart_are_data_in_the_record_and_the_same_json_in_the_stream():
    turn = old_turn("a1")
    record = from_stream(turn["content"], turn["answer"])
    shown = {b.type: b.content for b in parse_blocks(turn["content"])}
    table, chart = record.tables(), record.charts()
    assert [t.columns for t in table] == [["quarter", "revenue"]] and table[0].rows[2] == ["Q3 | best", 12.0]
    assert chart[0]["mark"]["type"] == "bar"
    typed = {b.type: b for b in record.blocks}
    assert typed[ReActType.TABLE].text == "" and typed[ReActType.TABLE].content == shown[ReActType.TABLE]
    assert typed[ReActType.CHART].content == shown[ReActType.CHART]


def test_an_observations_table_is_kept_once_as_the_stream_showed_it_cut():
    engine = make_engine(
        [call("big_table", {}), "Answer: There are 10,000 rows."], tools=[BigTable()], turn_data_bytes=200_000
    )
    text = run(engine)
    result = engine.result
    full = result.steps[0].observations[0].table
    record = run_record(result.steps, result.blocks, text, result.answer, None, result.usage)
    stored = compact(record)
    assert (0, 0, "table", 4) in record.shown and len(stored) < 20_000  # the table is in the stream, not again here
    back = stored_record(stored).resolved(text)
    kept = back.steps[0].observations[0].table
    assert len(full.rows) == 10_000 and 0 < len(kept.rows) < 10_000 and kept.total_rows == 10_000
    assert kept == back.tables()[0] and len(kept.model_dump_json().encode()) <= 200_000
    assert result.steps[0].observations[0].table is full  # the run's own steps are left as they were


def test_a_table_no_block_showed_is_cut_to_the_data_budget_in_the_record():
    engine = make_engine([call("big_table", {}), "Answer: There are 10,000 rows."], tools=[BigTable()])
    run(engine)
    steps = engine.result.steps
    record = run_record(steps, [], "", "There are 10,000 rows.", None, Usage(), data_bytes=50_000)
    kept = record.steps[0].observations[0].table
    assert (
        not [x for x in record.shown if x[2] == "table"]
        and 0 < len(kept.rows) < 100
        and len(kept.model_dump_json().encode()) <= 50_000
    )


def test_tables_whose_blocks_do_not_match_are_not_paired():
    engine = make_engine([call("big_table", {}), "Answer: ok"], tools=[BigTable()], turn_data_bytes=20_000)
    text = run(engine)
    result = engine.result
    other = [
        b if b.type is not ReActType.TABLE else ReActBlock(type=b.type, content='{"columns":["x"]}')
        for b in result.blocks
    ]
    record = run_record(result.steps, other, text, "ok", None, Usage(), data_bytes=20_000)
    assert not [x for x in record.shown if x[2] == "table"] and record.steps[0].observations[0].table.columns == [
        "label",
        "amount",
    ]


def test_a_record_pairing_a_table_with_no_such_block_is_not_this_streams():
    turn = old_turn("a2")
    steps = [{"number": 1, "observations": [{"call_id": "c", "tool": "t", "text": ""}]}]
    assert stored_record({"version": 1, "steps": steps, "model_spans": [[0, 0, 10**6]]}).resolved("short") is None
    for shown in ([[0, 3, "table", 99]], [[0, 0, "thought", 0]], [[0, -1, "text", 0]], [[1, -1, "answer", 0]]):
        hostile = {"version": 1, "steps": steps, "shown": shown}
        assert stored_record(hostile).resolved(turn["content"]) is None, shown
        assert read_record({**turn, "record": hostile}).source == "stream"
    assert stored_record({"version": 1, "shown": [[0, 0, "no such field", 0]]}) is None


def test_the_draft_the_check_set_aside_is_in_the_record():
    raw = "Answer: 15 M€\nDraft: 15 M€ is in no source.\nAnswer: 12 M€ [1]"
    record = run_record([], parse_blocks(raw), raw, "12 M€ [1]", None, Usage()).resolved(raw)
    assert record.draft == "15 M€" and [b.type for b in record.blocks] == [
        ReActType.DRAFT,
        ReActType.NOTE,
        ReActType.ANSWER,
    ]
    assert run_record([], parse_blocks("Answer: 12"), "Answer: 12", "12", None, Usage()).draft is None


def test_a_turn_stored_before_the_record_is_read_back_from_its_stream():
    record = read_record(old_turn("a1"))
    assert record.source == "stream" and record.answer == "Q3 was best, at 12.0."
    assert record.grounding is not None and record.grounding.grounding == "verified"
    assert [(c.name, c.args) for s in record.steps for c in s.calls] == [("sales", {})]
    obs = record.steps[0].observations[0]
    assert (obs.tool, obs.text, obs.table.title) == ("sales", "3 rows: Q1 10.5, Q2 11.25, Q3 12.0", "Sales")
    assert [s.thought for s in record.steps] == ["I need the sales table.", "I have it."]
    assert record.steps[-1].answer == "Q3 was best, at 12.0."
    asked = read_record(old_turn("a3"))
    call_args = asked.steps[0].calls[0].args
    assert call_args["choices"] == ["2024", "2025"] and asked.steps[0].observations[0].text == "2025"


def test_steps_read_back_from_blocks_keep_unreadable_arguments_as_sent():
    blocks = [
        ReActBlock(type=ReActType.ACTION, content="calculator"),
        ReActBlock(type=ReActType.ACTION_INPUT, content="6*7 (not JSON)"),
        ReActBlock(type=ReActType.OBSERVATION, content="42"),
        ReActBlock(type=ReActType.TABLE, content="{not a table"),
        ReActBlock(type=ReActType.OBSERVATION, content="an observation no call asked for"),
    ]
    (step,) = steps_from_blocks(blocks)
    assert step.calls[0].raw_arguments == "6*7 (not JSON)" and step.calls[0].args == {}
    assert [(o.tool, o.text, o.table) for o in step.observations] == [
        ("calculator", "42", None),
        ("", "an observation no call asked for", None),
    ]
    assert steps_from_blocks([]) == []


_, _, GOOD = recorded_run()


@pytest.mark.parametrize(
    "hostile",
    [
        "not a record",
        ["a", "list"],
        {"version": 1, "steps": "not a list"},
        {"version": 1, "steps": [{"number": "one"}]},
        {"version": 1, "blocks": [{"type": "no such type"}]},
        {"version": 1, "steps": [{"number": i} for i in range(MAX_RECORD_ITEMS + 1)]},
        {"version": 2, **GOOD.model_dump(mode="json", exclude={"version"})},  # written by a later version
        {"version": 1, "answer": ["not", "text"]},
        {"version": "1"},
        '{"version": 1, "steps": [',  # JSON text cut short
        '{"version": 1, "steps": "not a list"}',
        "[" * 100_000,  # nested past what the JSON reader takes
    ],
)
def test_a_stored_record_that_is_not_one_is_left_aside_and_the_stream_read_instead(hostile):
    assert stored_record(hostile) is None
    turn = {**old_turn("a2"), "record": hostile}
    record = read_record(turn)
    assert record.source == "stream" and record.answer == "The memo is about Q3."
    assert turn["record"] is hostile  # nothing of what was stored is changed


def test_a_deeply_nested_stored_record_is_read_without_an_error():
    nested: dict = {}
    inner = nested
    for _ in range(5000):
        inner["x"] = {}
        inner = inner["x"]
    hostile = {"version": 1, "steps": [{"number": 1, "calls": [{"id": "c", "name": "x", "args": nested}]}]}
    record = stored_record(hostile)  # tool arguments are any JSON: read whole
    assert record is not None and record.steps[0].calls[0].name == "x"


def test_a_record_whose_blocks_lie_outside_the_stream_is_not_this_streams():
    turn = old_turn("a2")
    record = {"version": 1, "blocks": [{"type": "answer", "span": [0, len(turn["content"]) + 1]}], "answer": "x"}
    assert stored_record(record) is not None and stored_record(record).resolved(turn["content"]) is None
    assert read_record({**turn, "record": record}).source == "stream"
    backwards = {"version": 1, "blocks": [{"type": "answer", "span": [5, 2]}]}
    assert read_record({**turn, "record": backwards}).answer == "The memo is about Q3."


def test_a_label_the_engine_escaped_is_kept_as_text_the_rest_as_spans():
    turn = old_turn("a2")
    blocks = parse_blocks(turn["content"])
    record = run_record([], blocks, turn["content"], turn["answer"], None, Usage())
    memo = next(b for b in record.blocks if b.type is ReActType.OBSERVATION)
    assert memo.span is None and memo.text.startswith("Memo of Q3.\nAnswer: 99")  # the stream holds it escaped
    assert record.resolved(turn["content"]).react_blocks() == blocks


def test_a_stored_record_is_read_as_it_was_written():
    assert stored_record(GOOD.model_dump(mode="json")) == GOOD
    assert stored_record(compact(GOOD)) == GOOD and json.loads(compact(GOOD))["version"] == 1
    assert stored_record(GOOD) is GOOD and stored_record(None) is None
    assert read_record({"content": 3, "answer": None, "record": None}).blocks == []


def test_a_text_block_content_is_its_text():
    assert RecordBlock(type=ReActType.WARNING, text="w").content == "w"
