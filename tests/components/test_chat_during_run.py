"""Which requests made while a run streams the run takes itself (a message, a follow-up's
Recall or Save), and which still end it (anything else)."""

from streamlit.proto.WidgetStates_pb2 import WidgetStates

from components.chat_during_run import Incoming, followup_key, read


def states(*widgets: tuple[str, str, object]) -> WidgetStates:
    out = WidgetStates()
    for key, field, value in widgets:
        state = out.widgets.add()
        state.id = f"$$ID-9f8e-{key}"
        if field == "chat":
            state.chat_input_value.data = value
        else:
            setattr(state, field, value)
    return out


def test_a_message_in_the_chat_box_is_a_follow_up():
    got = read(states(("chat", "chat", "<script>alert(1)</script>"), ("theme", "string_value", "handbook")))
    assert got == Incoming(kind="send", text="<script>alert(1)</script>")  # kept as typed; drawn inert


def test_recall_and_save_of_a_waiting_follow_up_are_taken():
    assert read(states((followup_key("fu_recall", "abc123", 4), "trigger_value", True))) == Incoming(
        kind="recall", followup_id="abc123"
    )
    edited = states(
        (followup_key("fu_save", "abc123", 2), "trigger_value", True),
        (followup_key("fu_text", "abc123", 2), "string_value", "new text"),
    )
    assert read(edited) == Incoming(kind="edit", followup_id="abc123", text="new text")


def test_anything_else_ends_the_run_as_before():
    assert read(None) is None
    assert read(WidgetStates()) is None  # a rerun with no trigger: a widget changed elsewhere
    assert read(states(("run_stop", "trigger_value", True))) is None  # the run's Stop
    assert read(states(("chat", "chat", "more"), ("run_stop", "trigger_value", True))) is None  # both at once
    assert read(states(("chat", "chat", "   "))) is None
    assert read(states(("other_chat", "chat", "hello"))) is None
    blank_edit = states(
        (followup_key("fu_save", "abc123", 2), "trigger_value", True),
        (followup_key("fu_text", "abc123", 2), "string_value", "  "),
    )
    assert read(blank_edit) is None


def test_a_message_with_a_file_is_left_to_a_new_script_run():
    with_file = states(("chat", "chat", "see this"))
    with_file.widgets[0].chat_input_value.file_uploader_state.uploaded_file_info.add(file_id="f1", name="a.csv")
    assert read(with_file) is None
