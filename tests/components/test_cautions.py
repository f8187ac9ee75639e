"""The cautions about an answer stay wherever the answer is: in the stored turn, in
every export (Markdown and JSON, with the trace and without it) and under the answer
in the chat, with Thoughts hidden too."""

import json

import pytest

from components.cautions import beside_trace, stored_cautions, turn_cautions
from components.export import to_json, to_markdown
from components.grounding_view import grounding_widgets
from components.state import Conversation, Preferences, Turn
from components.turn_runner import apply_result
from engine.tools.function_tool import tool
from engine.tools.results import Passage, ToolResult
from engine.tools.toolkits import general_toolkit
from tests.helpers import make_engine, run

NOTES = "The Lyon office opened in 2023 in the Corbas logistics park. Its site manager is Solène Marchetti."


def docs_tool():
    @tool(name="search_docs")
    def search(query: str) -> ToolResult:
        """Searches the analyst's documents."""
        return ToolResult(text=NOTES, passages=[Passage(source="lyon.md", location="Site", text=NOTES)])

    return search


def flagged_turn(language: str = "en") -> Turn:
    """A small model's answer replaced by the closest passage: two cautions, both in the trace."""
    engine = make_engine(["Thought: done\nAnswer: 12 * 9 = 108."], tools=[*general_toolkit(), docs_tool()],
                         language=language)  # fmt: skip
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "Who manages the Lyon site?")
    turn = Turn(role="assistant", content=text)
    apply_result(turn, engine.result)
    return turn


def conversation_of(turn: Turn) -> Conversation:
    return Conversation(title="Lyon", turns=[Turn(role="user", content="Who manages the Lyon site?"), turn])


def test_the_turn_keeps_the_cautions_the_review_gave_and_they_survive_a_store_round_trip():
    turn = flagged_turn()
    assert [c.kind for c in turn.cautions] == ["replaced", "unsure"]
    again = Turn.model_validate(json.loads(json.dumps(turn.model_dump(mode="json"))))  # as the store keeps it
    assert again.cautions == turn.cautions
    assert stored_cautions(again) == turn.cautions


@pytest.mark.parametrize("with_thoughts", [False, True])
def test_markdown_export_carries_every_caution_with_and_without_the_trace(with_thoughts):
    turn = flagged_turn()
    exported = to_markdown(conversation_of(turn), with_thoughts=with_thoughts)
    for caution in turn.cautions:  # a draft replaced by a quote that may not answer: both about the answer
        assert f"> **Caution:** {caution.text}" in exported
    assert ("*Warning:*" in exported) is with_thoughts  # the trace itself only when asked for


def test_a_draft_replaced_by_a_computed_result_is_a_note_in_the_exports():
    engine = make_engine(["Thought: done\nAnswer: 17 * 23 = 291."])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    turn = Turn(role="assistant", content=run(engine, "What is 17 * 23?"))
    apply_result(turn, engine.result)
    (replaced,) = turn.cautions
    assert not replaced.about_answer
    exported = to_markdown(conversation_of(turn))
    assert f"_Note: {replaced.text}_" in exported and "**Caution:**" not in exported
    assistant = json.loads(to_json(conversation_of(turn)))["turns"][1]
    assert assistant["cautions"] == [] and assistant["notes"] == [{"kind": "replaced", "text": replaced.text}]


@pytest.mark.parametrize("with_thoughts", [False, True])
def test_json_export_carries_every_caution_with_and_without_the_trace(with_thoughts):
    turn = flagged_turn()
    exported = json.loads(to_json(conversation_of(turn), with_thoughts=with_thoughts))
    assistant = exported["turns"][1]
    assert assistant["cautions"] == [c.model_dump(exclude={"draft_only"}) for c in turn.cautions]
    assert assistant["notes"] == []
    assert ("blocks" in assistant) is with_thoughts


def test_exports_speak_the_conversation_language():
    turn = flagged_turn("fr")
    exported = to_markdown(conversation_of(turn), settings=Preferences(language="fr"))
    assert "> **Mise en garde :** Non vérifié" in exported  # the label is the locale's
    assert "Caution" not in exported


def test_a_turn_stored_before_cautions_existed_still_exports_its_unsupported_figures():
    engine = make_engine(['Thought: x\nAction: calculator\nAction Input: {"expression": "17 * 23"}', "Answer: 291."])
    run(engine, "What is 17 * 23?")
    turn = Turn(role="assistant", answer=engine.result.answer, grounding=engine.result.grounding)  # cautions None
    assert turn_cautions(turn) == ["1 figure could not be traced to a source."]
    exported = to_markdown(conversation_of(turn))
    assert "_Unsupported figures: 291_" in exported and "> **Caution:** 1 figure could not" in exported
    assert json.loads(to_json(conversation_of(turn)))["turns"][1]["cautions"][0]["kind"] == "note"


def test_the_chat_shows_each_caution_once_under_the_answer_whether_the_trace_is_shown_or_not():
    turn = flagged_turn()
    texts = [c.text for c in turn.cautions if c.about_answer]
    widgets = grounding_widgets(turn.grounding, "en", stored_cautions(turn))
    hidden = [w for w in widgets if w.kind == "warning"]
    assert [w.text.replace("\\", "") for w in hidden] == texts  # Thoughts off: all of them, escaped
    assert not [w for w in widgets if w.kind == "caption"]  # the quote may not answer: no mere note
    shown = beside_trace(turn, stored_cautions(turn))
    assert shown == []  # Thoughts on: the trace's Warning blocks show them already, no second copy


def test_the_chat_words_figures_not_traced_in_the_page_language_from_the_report():
    engine = make_engine(['Thought: x\nAction: calculator\nAction Input: {"expression": "17 * 23"}', "Answer: 291."])
    run(engine, "What is 17 * 23?")
    turn = Turn(role="assistant", content="Answer: 291.")
    apply_result(turn, engine.result)
    assert [c.kind for c in turn.cautions] == ["unsupported"]
    [widget] = [w for w in grounding_widgets(turn.grounding, "fr", stored_cautions(turn)) if w.kind == "warning"]
    assert widget.text == "1 chiffre n'a pas pu être relié à une source."
    assert turn_cautions(turn) == ["Not verified: no tool result or document holds 291."]  # exports: as recorded
