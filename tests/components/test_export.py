"""The analyst's rating of an answer is in both exports, with the trace or without it."""

import json

import pytest

from components.export import to_json, to_markdown
from components.state import Conversation, Preferences, Turn
from engine.store.models import Feedback


def conversation(feedback: Feedback | None) -> Conversation:
    return Conversation(
        id="c1",
        title="Q3",
        turns=[
            Turn(id="u1", role="user", content="What was Q3 revenue?"),
            Turn(id="a1", role="assistant", content="Answer: 11.6 M€", answer="11.6 M€", feedback=feedback),
        ],
    )


@pytest.mark.parametrize("with_thoughts", [False, True])
def test_a_rated_answer_shows_its_rating_and_comment_in_both_exports(with_thoughts):
    rated = conversation(Feedback(rating="down", comment="Q2's figure,\nnot Q3's ![x](http://evil/p.png)"))
    markdown = to_markdown(rated, with_thoughts, Preferences(language="en"))
    line = next(x for x in markdown.splitlines() if x.startswith("**Rating:**"))
    assert line == "**Rating:** 👎 not helpful — “Q2's figure, not Q3's \\![x](http://evil/p.png)”"
    data = json.loads(to_json(rated, with_thoughts, Preferences(language="en")))
    assert data["turns"][1]["feedback"] == {
        "rating": "down",
        "comment": rated.turns[1].feedback.comment,
        "updated_at": None,
    }
    assert "feedback" not in data["turns"][0]


def test_the_rating_speaks_the_conversation_language_and_an_unrated_answer_has_none():
    french = to_markdown(conversation(Feedback(rating="up")), settings=Preferences(language="fr"))
    assert "**Note :** 👍 utile" in french.splitlines()
    plain = conversation(None)
    assert "Rating" not in to_markdown(plain, settings=Preferences(language="en"))
    assert "feedback" not in json.loads(to_json(plain))["turns"][1]


def test_the_exports_read_from_the_records_equal_what_the_raw_streams_gave():
    """The same runs as the fixture's, made now: the turns keep their records, and the exports
    and the next turn's history read from them are what the app made from the raw streams."""
    from tests.components.record_scenario import conversation as recorded
    from tests.components.record_scenario import outputs
    from tests.components.test_state import OLD

    conv = recorded()
    assistants = [turn for turn in conv.tree if turn.role == "assistant"]
    assert all(turn.record is not None and turn.run_record().source == "engine" for turn in assistants)
    assert outputs(conv) == OLD["outputs"]


def test_a_table_export_comes_from_the_typed_table():
    from engine.react.record import RecordBlock, TurnRecord
    from engine.react.types import ReActType
    from engine.tools.results import TableData

    table = TableData(columns=["a|b", "n"], rows=[["x", 1], ["y", 2.5]])
    record = TurnRecord(blocks=[RecordBlock(type=ReActType.TABLE, table=table)], answer="two rows")
    turn = Turn(id="a1", role="assistant", content="", answer="two rows", record=record)
    conv = Conversation(id="c1", title="T", turns=[Turn(id="u1", role="user", content="q"), turn])
    assert "| a\\|b | n |\n|---|---|\n| x | 1 |\n| y | 2.5 |" in to_markdown(conv)
    assert json.loads(to_json(conv))["turns"][1]["tables"] == [table.model_dump(mode="json")]


@pytest.mark.parametrize("with_thoughts", [False, True])
def test_follow_ups_sent_during_the_run_are_in_both_exports(with_thoughts):
    from components.state import SentFollowUp

    talk = conversation(None)
    talk.turns[1].followups = [
        SentFollowUp(
            id="f1", text="In euros <img src=x onerror=alert(1)>", status="taken", sent_at="2026-01-02T03:04:05"
        )
    ]
    markdown = to_markdown(talk, with_thoughts, Preferences(language="fr"))
    lines = markdown.splitlines()
    line = next(x for x in lines if "envoyé pendant l'exécution" in x)
    assert (
        line == "**You** (envoyé pendant l'exécution, 2026-01-02T03:04:05): In euros <\u200bimg src=x onerror=alert(1)>"
    )
    assert lines.index(line) < next(i for i, x in enumerate(lines) if x.startswith("**Assistant**"))
    data = json.loads(to_json(talk, with_thoughts, Preferences(language="en")))
    assert data["turns"][1]["followups"] == [
        {"text": "In euros <img src=x onerror=alert(1)>", "status": "taken", "sent_at": "2026-01-02T03:04:05"}
    ]
    assert "followups" not in data["turns"][0]
