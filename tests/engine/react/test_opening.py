import json
import re

from engine.llm.base import LLMError
from engine.llm.scripted import ScriptedLLM
from engine.react.agent import ReActEngine
from engine.react.opening import bound_question, clean_history, compress_history, estimate_tokens
from engine.react.parser import parse_blocks
from engine.react.types import ReActType


def test_clean_history_keeps_answers_and_drops_thoughts():
    history = [
        {"role": "user", "content": "What is 2+2?"},
        {
            "role": "assistant",
            "content": "Thought: secret plan\nAction: calculator\nAction Input: {}\nObservation: 4\nAnswer: It is 4.",
        },
        {"role": "tool", "content": "stray"},
        {"role": "assistant", "content": "Thought: only a thought"},
        {"role": "assistant", "content": "Plain answer without labels."},
    ]
    cleaned = clean_history(history)
    assert cleaned == [
        {"role": "user", "content": "What is 2+2?"},
        {"role": "assistant", "content": "It is 4."},
        {"role": "assistant", "content": "Plain answer without labels."},
    ]


def _long_history(turns=30):
    out = []
    for i in range(turns):
        out.append({"role": "user", "content": f"question {i} " + "words " * 40})
        out.append({"role": "assistant", "content": f"answer {i} " + "more " * 40})
    return out


def test_compression_keeps_recent_turns_verbatim_and_summarises_older_ones():
    history = _long_history()
    seen = []

    def summarise(prompt):
        seen.append(prompt)
        return "They discussed questions 0 to 20."

    out = compress_history(history, budget_tokens=800, summarise=summarise)
    assert sum(estimate_tokens(m["content"]) for m in out) <= 800
    assert out[-1] == history[-1] and out[-2] == history[-2]
    assert out[0]["role"] == "system" and "questions 0 to 20" in out[0]["content"]
    assert "question 0" in seen[0]


def test_failed_summary_falls_back_to_truncation():
    def failing(prompt):
        raise LLMError("down", "unreachable")

    out = compress_history(_long_history(), budget_tokens=600, summarise=failing)
    assert out[0]["role"] == "system" and "[…]" in out[0]["content"]
    assert sum(estimate_tokens(m["content"]) for m in out) <= 600


def test_pinned_messages_are_never_dropped():
    history = [{"role": "user", "content": "PINNED: report in euros", "pinned": True}] + _long_history()
    out = compress_history(history, budget_tokens=500, summarise=lambda p: "summary")
    assert any(m["content"] == "PINNED: report in euros" for m in out)


def test_short_history_is_untouched():
    history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert compress_history(history, 1000) == history


def test_set_history_uses_the_llm_to_summarise_and_sends_it():
    llm = ScriptedLLM(["Earlier they asked about Q1 revenue.", "Thought: ok\nAnswer: done"])
    engine = ReActEngine(config={"history_token_budget": 400}, llm=llm, tools=[])
    engine.set_history(_long_history())
    "".join(engine.stream_sync("next question"))
    system = llm.calls[1][0]["content"]
    assert "Earlier they asked about Q1 revenue." in system
    assert llm.calls[1][-1] == {"role": "user", "content": "next question"}


def test_pinned_messages_are_bounded_by_their_share_of_the_budget():
    huge = "P" * 10_000_000
    history = [{"role": "user", "content": huge, "pinned": True}, {"role": "user", "content": "latest question"}]
    out = compress_history(history, budget_tokens=1000, summarise=lambda p: "summary")
    assert out[0].get("pinned") and out[0]["content"].startswith("PPPP") and out[0]["content"].endswith("[…]")
    assert sum(estimate_tokens(m["content"]) for m in out) <= 1000
    assert out[-1]["content"] == "latest question"


def test_the_summariser_reads_a_bounded_transcript_of_the_latest_turns():
    seen = []
    history = [{"role": "user", "content": f"old turn {i} " + "x" * 2_000} for i in range(100)]
    history.append({"role": "user", "content": "now"})
    compress_history(history, budget_tokens=1000, summarise=lambda p: seen.append(p) or "summary")
    assert len(seen) == 1 and len(seen[0]) < 1000 * 4 * 4 + 2000
    turns = [int(n) for n in re.findall(r"old turn (\d+) ", seen[0])]
    assert turns and min(turns) > 80 and max(turns) >= 97  # the latest older turns, never the first ones


def test_fifty_thousand_pinned_messages_stay_within_the_budget_and_say_how_many_are_left_out():
    history = [{"role": "user", "content": f"pinned rule {i}: " + "r" * 40, "pinned": True} for i in range(50_000)]
    history.append({"role": "user", "content": "latest question"})
    out = compress_history(history, budget_tokens=3000, summarise=lambda p: "summary")
    assert sum(estimate_tokens(m["content"]) for m in out) <= 3000
    assert len(json.dumps(out)) < 3000 * 4 * 2  # the request, not only the estimate, stays small
    pinned = [m for m in out if m.get("pinned")]
    note = pinned[0]["content"]
    kept = len(pinned) - 1
    assert note.startswith(f"{50_000 - kept} earlier pinned message(s) were left out")
    assert pinned[-1]["content"].startswith("pinned rule 49999")  # the latest are the ones kept
    assert out[-1]["content"] == "latest question"


def test_the_pinned_note_is_in_the_runs_language():
    history = [{"role": "user", "content": "x" * 400, "pinned": True} for _ in range(1000)]
    out = compress_history(history, budget_tokens=300, language="fr")
    assert "message(s) épinglé(s)" in out[0]["content"]


def test_a_question_under_the_limit_is_untouched():
    assert bound_question("What is 17 * 23?", 2000) == ("What is 17 * 23?", False)


def test_a_long_question_is_cut_at_a_word_and_marked():
    question = "word " * 1_000_000
    cut, was_cut = bound_question(question, 2000)
    assert was_cut and len(cut) <= 2000 * 4 and cut.endswith("word […]")


def test_a_one_megabyte_question_is_cut_in_every_model_call_and_the_run_says_so():
    llm = ScriptedLLM(["Thought: I answer.\nAnswer: done"])
    engine = ReActEngine(config={"question_max_tokens": 500, "language": "en"}, llm=llm, tools=[])
    text = "".join(engine.stream_sync("Q " + "a" * 1_000_000))
    sent = llm.calls[0][-1]["content"]
    assert len(sent) <= 500 * 4 and sent.endswith("[…]")
    assert sum(len(m["content"]) for m in llm.calls[0]) < 100_000
    warning = parse_blocks(text)[0]
    assert warning.type is ReActType.WARNING and "The question was too long" in warning.content
    assert engine.result.status == "answered"
    assert [c.kind for c in engine.result.cautions] == ["question_cut"]  # beside the answer, Thoughts hidden too
    assert engine.result.cautions[0].text == warning.content


def test_a_backend_declaring_less_room_gets_a_shorter_question():
    llm = ScriptedLLM(["Thought: I answer.\nAnswer: done"])
    llm.abilities = llm.abilities.model_copy(update={"question_tokens": 100})
    engine = ReActEngine(config={}, llm=llm, tools=[])
    "".join(engine.stream_sync("word " * 10_000))
    assert len(llm.calls[0][-1]["content"]) <= 100 * 4
