"""The detail level changes every kind of answer, in English and French: the model's own
(its prompt asks for brevity or detail), a small model's answer that stands (detailed
quotes the passages below it), a quoted fact and a computed result."""

import pytest

from engine.react.parser import parse_blocks
from engine.react.types import ANSWER_TYPES
from engine.tools.function_tool import tool
from engine.tools.results import Passage, ToolResult
from engine.tools.toolkits import general_toolkit
from tests.helpers import call, make_engine, run

POLICY = {
    "en": "Hotels. The hotel cap in Paris is 180 euros per night.",
    "fr": "Hôtels. Le plafond d'hôtel à Paris est de 180 euros par nuit.",
}
SENTENCE = {k: v.split(". ", 1)[1] for k, v in POLICY.items()}  # the unit quoted
QUESTION = {"en": "What is the hotel cap per night in Paris?", "fr": "Quel est le plafond d'hôtel par nuit à Paris ?"}
KEPT = {"en": "The cap is 180 euros per night.", "fr": "Le plafond est de 180 euros par nuit."}


def docs_tool(text: str):
    @tool(name="search_docs")
    def search(query: str) -> ToolResult:
        """Searches the analyst's documents."""
        return ToolResult(text=text, passages=[Passage(source="travel/policy.md", location="Hotels", text=text)])

    return search


def small(script, lang, detail, text=None):
    tools = [*general_toolkit(), docs_tool(text)] if text else None
    engine = make_engine(script, tools=tools, language=lang, detail=detail)
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    return engine


def shown_answer(stream: str) -> str:
    return [b.content for b in parse_blocks(stream) if b.type in ANSWER_TYPES][-1]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_model_is_asked_for_brevity_or_detail(lang):
    system = {}
    for detail in ("brief", "detailed"):
        engine = make_engine(["Answer: ok"], language=lang, detail=detail)
        run(engine, QUESTION[lang])
        system[detail] = engine.llm.calls[0][0]["content"]
    assert "one or two sentences" in system["brief"] and "one or two sentences" not in system["detailed"]
    assert "caveats" in system["detailed"] and "caveats" not in system["brief"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_small_model_answer_that_stands_gets_its_passage_when_detailed(lang):
    answers, streams = {}, {}
    for detail in ("brief", "detailed"):
        engine = small([f"Answer: {KEPT[lang]}"], lang, detail, POLICY[lang])
        streams[detail] = run(engine, QUESTION[lang])
        answers[detail] = engine.result.answer
        assert engine.result.cautions == []  # a right answer is not flagged at either level
    assert answers["brief"] == KEPT[lang]
    assert answers["detailed"].startswith(KEPT[lang] + "\n\n") and f"> {SENTENCE[lang]}" in answers["detailed"]
    assert shown_answer(streams["detailed"]) == answers["detailed"]  # the page shows what is stored


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_quoted_fact_brief_and_detailed_differ(lang):
    answers = {}
    for detail in ("brief", "detailed"):
        engine = small(["Answer: 12 * 9 = 108."], lang, detail, POLICY[lang])
        run(engine, QUESTION[lang])
        answers[detail] = engine.result.answer
    assert answers["brief"].startswith("180 euros") and "\n" not in answers["brief"]
    assert "travel/policy.md" not in answers["brief"]
    assert "[travel/policy.md, Hotels]" in answers["detailed"] and f"> {SENTENCE[lang]}" in answers["detailed"]


@pytest.mark.parametrize(
    ("lang", "tool_words"), [("en", "computed with calculator"), ("fr", "calculé avec calculator")]
)
def test_a_computed_result_brief_and_detailed_differ(lang, tool_words):
    answers = {}
    for detail in ("brief", "detailed"):
        engine = small([call("calculator", {"expression": "17 * 23"}), "Answer: 17 * 23 = 291."], lang, detail)
        run(engine, "17 * 23 ?" if lang == "fr" else "What is 17 * 23?")
        answers[detail] = engine.result.answer
    assert answers["brief"] == "391"
    assert answers["detailed"].startswith(f"391 = 17 * 23 ({tool_words})\n\n")
