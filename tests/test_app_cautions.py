"""AppTest: the cautions about an answer stay under it with Show Thoughts off, live and
after the conversation is reopened from the store."""

from components.state import Conversation, Preferences, Turn
from tests.apptest_helpers import APP, new_app
from tests.components.test_cautions import flagged_turn

WRONG_PRODUCT = [
    {"tool_calls": [{"id": "c1", "name": "calculator", "arguments": '{"expression": "17*23"}'}]},
    {"text": "Answer: 17 * 23 = 291"},
]
CAUTION = "1 figure could not be traced to a source."  # the report's note, in the page's language


def warnings(at) -> list[str]:
    return [w.value.replace("\\", "") for w in at.warning]


def test_a_flagged_answer_keeps_its_caution_with_thoughts_off_and_after_reopening(app_env):
    app_env.script.extend(WRONG_PRODUCT)
    at = new_app()
    at.toggle(key="show_thoughts").set_value(False).run()
    at.chat_input[0].set_value("What is 17*23?").run()
    assert not at.exception
    assert CAUTION in warnings(at)
    assert at.session_state["conversation"].turns[-1].cautions[0].kind == "unsupported"
    conversation_id = at.session_state["conversation"].id
    again = new_app()
    again.query_params["c"] = conversation_id
    again.toggle(key="show_thoughts").set_value(False).run()
    assert CAUTION in warnings(again)  # read back from the store


def test_a_replaced_answer_shows_its_trace_warnings_as_cautions_when_thoughts_are_hidden(app_env):
    from streamlit.testing.v1 import AppTest

    turn = flagged_turn()
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["conversation"] = Conversation(turns=[Turn(role="user", content="Who manages it?"), turn])
    at.session_state["settings"] = Preferences(show_thoughts=False)
    at.run()
    assert not at.exception
    about_answer = [c.text for c in turn.cautions if c.about_answer]
    assert warnings(at) == about_answer == [c.text for c in turn.cautions]  # the Draft's reason and the doubt
    at.toggle(key="show_thoughts").set_value(True).run()
    assert warnings(at)[-1:] == about_answer[-1:]  # the doubt from the trace's Warning block, not twice


def test_a_clean_answer_shows_no_caution(app_env):
    app_env.script.extend([WRONG_PRODUCT[0], {"text": "Answer: 17 * 23 = 391"}])
    at = new_app()
    at.toggle(key="show_thoughts").set_value(False).run()
    at.chat_input[0].set_value("What is 17*23?").run()
    assert not at.exception and warnings(at) == []
    assert at.session_state["conversation"].turns[-1].cautions == []
