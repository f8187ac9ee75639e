"""What one turn writes of its tools' tables and charts is bounded: a large result is kept
once, cut with its count, and the answer always follows."""

from pydantic import BaseModel

from engine.react.parser import parse_blocks
from engine.react.step import Observation
from engine.react.stream import StreamWriter
from engine.react.types import ReActType
from engine.tools.base import Tool
from engine.tools.results import TableData, ToolResult
from tests.helpers import call, make_engine, run

WIDE = 900


class NoArgs(BaseModel):
    pass


class BigTable(Tool):
    name = "big_table"
    description = "Returns 10,000 rows of 900 characters."
    Args = NoArgs

    def run(self, args):
        rows = [[f"r{i:05d}" + "x" * WIDE, i] for i in range(10_000)]
        data = TableData(columns=["label", "amount"], dtypes=["text", "number"], rows=rows, total_rows=10_000)
        return ToolResult(text="(10000 rows; the first are shown)", table=data)


def test_the_table_block_fits_the_writers_data_budget():
    writer = StreamWriter(data_bytes=50_000)
    rows = [["a" * 1000, i] for i in range(500)]
    observation = Observation(call_id="c", tool="t", text="ok", table=TableData(columns=["a", "b"], rows=rows))
    text = writer.observation(observation)
    table = [b for b in parse_blocks(text) if b.type is ReActType.TABLE][0]
    assert len(table.content.encode()) <= 50_000 and '"total_rows":500' in table.content
    assert 0 <= writer.data_left < 50_000 - 40_000  # what the table took is gone from the budget


def test_a_chart_that_does_not_fit_the_budget_left_is_not_written():
    writer = StreamWriter(data_bytes=100)
    assert writer.chart('{"values": "' + "v" * 200 + '"}') == ""
    assert writer.chart(None) == ""
    assert "Chart:" in StreamWriter(data_bytes=10_000).chart('{"mark": "bar"}')


def test_a_run_over_a_huge_table_keeps_it_once_within_the_budget_and_answers():
    engine = make_engine(
        [call("big_table", {}), "Thought: done.\nAnswer: There are 10,000 rows."],
        tools=[BigTable()],
        turn_data_bytes=1_000_000,
    )
    text = run(engine)
    blocks = parse_blocks(text)
    tables = [b for b in blocks if b.type is ReActType.TABLE]
    assert len(tables) == 1 and len(tables[0].content.encode()) <= 1_000_000
    assert '"total_rows":10000' in tables[0].content
    assert sum(len(b.content.encode()) for b in blocks if b.type in (ReActType.TABLE, ReActType.CHART)) <= 1_000_000
    assert len(text.encode()) < 1_100_000
    assert engine.result.status == "answered" and engine.result.answer == "There are 10,000 rows."
