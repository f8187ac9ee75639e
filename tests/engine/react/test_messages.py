"""Engine-written Thoughts and warnings are in the run's language."""

import pytest

from engine.react import prompts
from engine.react.first_step import engine_step
from engine.react.prompts import PromptError, message
from engine.tools.base import ToolRegistry
from engine.tools.toolkits import general_toolkit
from tests.helpers import call, make_engine, run


def test_the_engine_computation_thought_is_in_the_run_language():
    registry = ToolRegistry(general_toolkit())
    english = engine_step("What is 17 * 23?", registry, language="en")
    french = engine_step("Combien font 17 * 23 ?", registry, language="fr")
    assert english.thought == "This is a computation, so I compute it first."
    assert french.thought == "C'est un calcul : je le fais d'abord." and french.model_text.startswith("Thought: C'est")


def test_messages_fall_back_to_english_and_fail_on_a_missing_variable(monkeypatch):
    assert message("answer_cut", "de") == message("answer_cut", "en")
    assert message("answer_cut", "fr") == "La réponse a été coupée à la limite de longueur."
    monkeypatch.setattr(prompts, "_messages", lambda: {"en": {"steps": "I took {n} steps."}})
    assert message("steps", "fr", n=3) == "I took 3 steps."
    with pytest.raises(PromptError, match="needs the variable 'n'"):
        message("steps", "en")


def test_the_worked_examples_say_ready_in_the_run_language():
    engine = make_engine(["Answer: ok"], language="fr")
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"base_model": True})
    run(engine, "Bonjour ?")
    system = engine.llm.calls[0][0]["content"]
    assert "Thought: Je peux répondre maintenant." in system and "I can answer now" not in system


def test_the_length_warning_is_about_the_answer_shown_and_in_the_run_language():
    from engine.llm.scripted import Reply
    from engine.react.parser import parse_blocks
    from engine.react.types import ReActType

    cut = Reply(text="Answer: Le plafond est de 180 euros par nuit, et", finish_reason="length")
    kept = make_engine([cut], language="fr")
    warnings = [b.content for b in parse_blocks(run(kept, "Plafond ?")) if b.type is ReActType.WARNING]
    assert "La réponse a été coupée à la limite de longueur." in warnings  # the answer shown was cut
    replaced = make_engine([call("calculator", {"expression": "17 * 23"}), cut], language="fr")
    replaced.llm.abilities = replaced.llm.abilities.model_copy(update={"small": True})
    stream = run(replaced, "Combien font 17 * 23 ?")
    assert replaced.result.answer.startswith("391")  # the cut draft was replaced by the computed result
    assert message("answer_cut", "fr") not in [b.content for b in parse_blocks(stream) if b.type is ReActType.WARNING]
