"""A rated answer as a QA case reads the turn's record: the same case from a turn stored
before it had one, from its record, or from a record that is not one."""

import json
from pathlib import Path

import pytest

from engine.feedback_export import qa_case
from engine.react.parser import parse_blocks
from engine.react.record import compact, read_record, run_record
from engine.store.models import Feedback, RatedTurn

OLD = json.loads((Path(__file__).parents[1] / "components" / "old_turns.json").read_text(encoding="utf-8"))
A1 = next(t for t in OLD["turns"] if t["id"] == "a1")


def rated(turn: dict) -> RatedTurn:
    return RatedTurn(
        conversation_id="c1",
        title="Quarterly",
        settings={"language": "en"},
        question="What were sales per quarter?",
        turn=turn,
        feedback=Feedback(rating="up"),
    )


def recorded(turn: dict) -> dict:
    """The turn with the record the app keeps now (its steps the ones read back from its stream)."""
    old = read_record(turn)
    record = run_record(
        old.steps, parse_blocks(turn["content"]), turn["content"], turn["answer"], old.grounding, old.usage
    )
    return {**turn, "record": compact(record)}


def test_a_case_names_the_tools_the_run_called_and_its_grounding():
    case = qa_case(rated(A1))
    assert case["tools"] == ["sales"] and case["answer"] == "Q3 was best, at 12.0."
    assert case["grounding"]["verdict"] == "verified" and case["sources"] == ["sales"]


@pytest.mark.parametrize("record", ["not a record", {"version": 1, "steps": 3}, None])
def test_the_same_case_from_the_record_from_the_stream_or_from_a_record_that_is_not_one(record):
    before = qa_case(rated(A1))
    assert qa_case(rated(recorded(A1))) == before
    assert qa_case(rated({**A1, "record": record})) == before


def test_the_answer_and_grounding_come_from_the_record_when_it_has_them():
    record = read_record(A1).model_copy(update={"answer": "From the record.", "grounding": None})
    case = qa_case(rated({**A1, "record": record.model_dump(mode="json")}))
    assert case["answer"] == "From the record." and case["grounding"]["verdict"] == "none"
