"""AppTest of the chat page with a scripted fake LLM."""

import re

from tests.apptest_helpers import assistant_children, kinds_and_labels, new_app

TWO_TOOLS = [
    {
        "text": "Thought: I will multiply first.",
        "tool_calls": [{"id": "c1", "name": "calculator", "arguments": '{"expression": "17*23"}'}],
    },
    {
        "text": "Thought: now add nine.",
        "tool_calls": [{"id": "c2", "name": "calculator", "arguments": '{"expression": "391+9"}'}],
    },
    {"text": "Answer: The total is **400**."},
]


def trace_kinds(at, index=-1):
    out = []
    for kind, label in kinds_and_labels(at, index):
        if kind == "Expander" and "**" in label:  # a block; footnote expanders carry a mark instead
            out.append(label.split("**")[1])
        elif kind == "Markdown":
            out.append("Answer")
    return out


def test_two_tool_calls_render_in_order(app_env):
    app_env.script.extend(TWO_TOOLS)
    at = new_app()
    at.chat_input[0].set_value("What is 17*23+9?").run()
    assert not at.exception
    assert trace_kinds(at) == ["Thought", "Action", "Observation", "Thought", "Action", "Observation", "Answer"]
    children = assistant_children(at)
    # 400 is traced to the second calculator result; its mark links to the footnote line
    match = re.fullmatch(r"The total is \*\*400\[⁽¹⁾\]\(#(fn-[A-Za-z0-9-]+-1)\)\*\*\.", children[6].value)
    assert match is not None
    footnotes = [c for c in children if type(c).__name__ == "Caption" and c.value.startswith("⁽¹⁾")]
    assert len(footnotes) == 1 and "calculator" in footnotes[0].value
    anchors = [c for c in at.get("html") if f'id="{match[1]}"' in c.proto.body]
    assert len(anchors) == 1  # the anchor the mark links to is on the page, once
    observation = children[2]
    assert [c.value for c in observation.children.values()][0] == "391"
    footer = [c for c in children if type(c).__name__ == "Caption"][-1]
    assert "3 steps" in footer.value and "mistral" in footer.value


def test_thoughts_toggle_hides_and_shows_past_steps_without_rerunning_the_model(app_env):
    app_env.script.extend(TWO_TOOLS)
    at = new_app()
    at.chat_input[0].set_value("What is 17*23+9?").run()
    requests = len(app_env.requests)
    at.toggle(key="show_thoughts").set_value(False).run()
    assert trace_kinds(at) == ["Answer"]
    at.toggle(key="show_thoughts").set_value(True).run()
    assert trace_kinds(at)[:3] == ["Thought", "Action", "Observation"]
    assert len(app_env.requests) == requests


def test_rerun_keeps_past_steps(app_env):
    app_env.script.extend(TWO_TOOLS + [{"text": "Answer: Second answer."}])
    at = new_app()
    at.chat_input[0].set_value("What is 17*23+9?").run()
    before = trace_kinds(at, 0)
    at.run()
    at.chat_input[0].set_value("And then?").run()
    assert trace_kinds(at, 0) == before
    assert trace_kinds(at, 1) == ["Answer"]
    second_request = app_env.requests[-1]["messages"]
    assert ("assistant", "The total is **400**.") in [(m["role"], m.get("content")) for m in second_request]
    assert not any("multiply first" in (m.get("content") or "") for m in second_request)


def test_ask_user_is_answered_inline_and_the_run_resumes(app_env):
    app_env.script.extend(
        [
            {
                "text": "Thought: I need the quarter.",
                "tool_calls": [
                    {
                        "id": "ask000001",
                        "name": "ask_user",
                        "arguments": '{"question": "Which quarter?", "choices": ["Q1", "Q3"]}',
                    }
                ],
            },
            {"text": "Answer: Q3 revenue was 11.6 M€."},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value("What was revenue?").run()
    assert any("Which quarter?" in i.value for i in at.info)
    at.run()  # a rerun keeps the question pending
    assert any("Which quarter?" in i.value for i in at.info)
    at.button(key=[b.key for b in at.button if b.label == "Q3"][0]).click().run()
    assert not at.exception
    assert not [b for b in at.button if b.label in ("Q1", "Q3")]  # the question is answered, no longer pending
    kinds = trace_kinds(at)
    assert kinds[-2:] == ["Observation", "Answer"]
    # the reply shows as the analyst's own message, between the question and the resumed run
    assert [m.name for m in at.chat_message] == ["user", "assistant", "user", "assistant"]
    assert at.chat_message[2].markdown[0].value == "Q3"
    last = app_env.requests[-1]["messages"]
    assert (last[-1]["role"], last[-1]["content"], last[-1]["tool_call_id"]) == ("tool", "Q3", "ask000001")


def test_ask_user_free_text_answer(app_env):
    app_env.script.extend(
        [
            {"tool_calls": [{"id": "ask000002", "name": "ask_user", "arguments": '{"question": "Which region?"}'}]},
            {"text": "Answer: EMEA noted."},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value("Revenue by region?").run()
    at.chat_input[0].set_value("EMEA").run()
    assert not at.exception
    assert [c.value for c in assistant_children(at) if type(c).__name__ == "Markdown"][-1] == "EMEA noted."
    at.session_state["settings"].show_thoughts = False
    at.run()
    assert "EMEA" in [m.markdown[0].value for m in at.chat_message if m.name == "user"]  # visible with Thoughts hidden
    assert app_env.requests[-1]["messages"][-1]["content"] == "EMEA"


def test_backend_down_shows_one_sentence_and_keeps_the_history(app_env):
    app_env.script.extend(TWO_TOOLS + [{"status": 503, "repeat": True}])
    at = new_app()
    at.chat_input[0].set_value("What is 17*23+9?").run()
    at.chat_input[0].set_value("And now?").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "HTTP 503" in errors[0] and "sk-apptest-secret" not in errors[0]
    assert trace_kinds(at, 0)[-1] == "Answer"
    app_env.script.clear()
    app_env.script.append({"text": "Answer: back online"})
    at.chat_input[0].set_value("Still there?").run()
    assert assistant_children(at)[0].value == "back online"
    assert len([m for m in at.chat_message if m.name == "user"]) == 3


def test_html_payloads_are_shown_as_text(app_env):
    payload = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    app_env.script.extend(
        [
            {
                "text": f"Thought: {payload}",
                "tool_calls": [
                    {
                        "id": "c1",
                        "name": "text_tools",
                        "arguments": '{"operation": "replace", "text": "'
                        + payload.replace('"', '\\"')
                        + '", "find": "zz"}',
                    }
                ],
            },
            {"text": f"Answer: {payload}"},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value(payload).run()
    assert not at.exception
    children = assistant_children(at)
    observation_code = [c.value for c in children[2].children.values()][0]
    assert "<script>" in observation_code  # shown verbatim in a code block, as text
    marks = r"\[⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾\]\(#fn-[A-Za-z0-9-]+\)|⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾"
    answers = [re.sub(marks, "", c.value) for c in children if type(c).__name__ == "Markdown"]
    # markdown without unsafe_allow_html (footnote marks aside), each "<" followed by a zero-width space: no tag opens
    assert any(payload in a.replace("\u200b", "") and "<img" not in a and "<script" not in a for a in answers)
    for element in at.markdown:
        assert getattr(element.proto, "allow_html", False) is False


def test_export_with_and_without_thoughts(app_env):
    app_env.script.extend(TWO_TOOLS)
    at = new_app()
    at.chat_input[0].set_value("What is 17*23+9?").run()
    from components.export import to_json, to_markdown

    conversation = at.session_state["conversation"]
    plain = to_markdown(conversation)
    assert "The total is **400**." in plain and "multiply first" not in plain
    assert "multiply first" in to_markdown(conversation, with_thoughts=True)
    assert '"blocks"' in to_json(conversation, with_thoughts=True) and '"blocks"' not in to_json(conversation)


def test_new_conversation_clears_the_turns(app_env):
    app_env.script.extend(TWO_TOOLS)
    at = new_app()
    at.chat_input[0].set_value("What is 17*23+9?").run()
    at.sidebar.button[0].click().run()
    assert len(at.chat_message) == 0


def test_an_unsupported_figure_is_marked_noted_and_counted(app_env):
    app_env.script.extend(
        [
            {
                "text": "Thought: multiply.",
                "tool_calls": [{"id": "m1", "name": "calculator", "arguments": '{"expression": "17*23"}'}],
            },
            {"text": "Answer: 17 * 23 = 291."},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value("What is 17*23?").run()
    assert not at.exception
    answers = [c.value for c in assistant_children(at) if type(c).__name__ == "Markdown"]
    assert any(":orange-background[291] :material/warning:" in a for a in answers)
    assert any("1 figure could not be traced to a source." in w.value for w in at.warning)
    assert any("1 unsupported figure" in c.value for c in at.caption)
    at.session_state["settings"].language = "fr"
    at.run()
    assert any("1 chiffre" in w.value for w in at.warning)
    assert any("1 chiffre non sourcé" in c.value for c in at.caption)


def test_a_last_answer_of_several_paragraphs_is_drawn_once_with_its_marks(app_env):
    app_env.script.extend(
        [
            {
                "text": "Thought: multiply.",
                "tool_calls": [{"id": "c1", "name": "calculator", "arguments": '{"expression": "17*23"}'}],
            },
            {"text": "Answer: 17 * 23 = 391.\n\nThat is 391 in all."},
        ]
    )
    at = new_app()
    at.chat_input[0].set_value("What is 17*23?").run()
    for _ in range(2):  # live, then replayed by a rerun
        texts = [c.value for c in assistant_children(at) if type(c).__name__ == "Markdown"]
        assert len(texts) == 1, texts  # one answer, drawn once, with its (clickable) marks
        mark = r"\[⁽¹⁾\]\(#fn-[0-9a-f]+-1\)"
        assert re.fullmatch(rf"17 \* 23 = 391{mark}\.\n\nThat is 391{mark} in all\.", texts[0]), texts
        at.run()
