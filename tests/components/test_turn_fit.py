"""A turn too large for the store is saved smaller, saying so, with its answer; never left 'running'."""

import json

from components.persistence import _save_fitting
from components.state import Turn
from engine.llm.base import Usage
from engine.react.parser import parse_blocks
from engine.react.record import from_stream
from engine.react.types import ReActType
from engine.store import ConversationStore

ROWS = [["x" * 900, i] for i in range(10_000)]  # 10,000 rows of 900 characters, as the attack did


def huge_turn(status: str = "answered") -> Turn:
    table = json.dumps({"columns": ["label", "n"], "rows": ROWS})
    chart = json.dumps({"mark": "bar", "data": {"values": [{"label": r[0], "n": r[1]} for r in ROWS]}})
    content = (
        "Thought: I query the table.\nAction: query_table\nAction Input: {}\nObservation: 10000 rows\n"
        f"Table: {table}\nAnswer: There are 10,000 rows.\nChart: {chart}\n"
    )
    return Turn(id="a1", role="assistant", content=content, answer="There are 10,000 rows.", status=status)


def test_a_turn_over_the_cap_is_saved_without_its_data_and_with_its_answer(tmp_path):
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    conv = store.create("alice", "big")
    running = Turn(id="a1", role="assistant", content="", status="running")
    store.save_turn("alice", conv.id, running.model_dump(mode="json"))
    turn = huge_turn()
    assert len(turn.model_dump_json()) > 8 * 1024 * 1024
    assert {ReActType.TABLE, ReActType.CHART} <= {b.type for b in turn.blocks}
    _save_fitting(store, "alice", conv.id, turn, "fr")
    saved = store.get("alice", conv.id).turns[0]
    store.close()
    assert saved["status"] == "answered" and saved["answer"] == "There are 10,000 rows."
    types = [b.type for b in parse_blocks(saved["content"])]
    assert ReActType.TABLE not in types and ReActType.CHART not in types and ReActType.ANSWER in types
    assert "tableaux et graphiques" in parse_blocks(saved["content"])[-1].content  # the note, in the turn's language
    assert turn.content == saved["content"]  # the page shows what was kept


def test_a_turn_that_fits_is_saved_as_it_is(tmp_path):
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    conv = store.create("alice", "small")
    turn = Turn(id="a1", role="assistant", content="Answer: 4.\n", answer="4.")
    _save_fitting(store, "alice", conv.id, turn, "en")
    assert store.get("alice", conv.id).turns[0]["content"] == "Answer: 4.\n"
    store.close()


def test_a_fitted_turn_keeps_a_record_like_its_stream(tmp_path):
    from components.turn_fit import fitted
    from engine.react.record import run_record

    turn = huge_turn()
    blocks = parse_blocks(turn.content)
    steps = from_stream(turn.content).steps
    turn.record = run_record(steps, blocks, turn.content, turn.answer, None, Usage(), data_bytes=50 * 1024 * 1024)
    assert turn.run_record().steps[0].observations[0].table is not None
    without_data, answer_only = fitted(turn, "en")
    for version in (without_data, answer_only):
        record = version.run_record()
        assert record.source == "engine" and record.react_blocks() == parse_blocks(version.content)
        assert record.answer == "There are 10,000 rows." and record.tables() == []
    kept = without_data.run_record().steps[0]
    assert kept.observations[0].table is None and kept.calls[0].name == "query_table"
    assert answer_only.run_record().steps == [] and len(answer_only.model_dump_json()) < 10_000
    assert turn.run_record().tables()  # the turn itself is left as it was
