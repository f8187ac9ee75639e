"""Engine-written Thoughts and warnings are in the run's language."""

import pytest

from engine.react import prompts
from engine.react.first_step import engine_step
from engine.react.prompts import PromptError, message
from engine.tools.base import ToolRegistry
from engine.tools.toolkits import general_toolkit
from tests.helpers import make_engine, run


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
