"""Which requests made while a run is drawn the page takes itself (a message, a follow-up's
Recall or Save, the run's Stop), and which end the script run (anything else: the next
script run draws the run again)."""

from streamlit.proto.WidgetStates_pb2 import WidgetStates

from components.chat_during_run import Incoming, followup_key, read, stop_clicked


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


def test_the_runs_stop_is_taken_and_seen_when_it_comes_with_anything_else():
    assert read(states(("run_stop", "trigger_value", True))) == Incoming(kind="stop")
    both = states(("chat", "chat", "more"), ("run_stop", "trigger_value", True))
    assert read(both) is None and stop_clicked(both)  # handed back, and the run is stopped first
    assert not stop_clicked(states(("chat", "chat", "more"))) and not stop_clicked(None)
    assert not stop_clicked(states(("run_stop", "trigger_value", False)))


def test_anything_else_ends_the_script_run():
    assert read(None) is None
    assert read(WidgetStates()) is None  # a rerun with no trigger: a widget changed elsewhere
    assert read(states(("regen-x", "trigger_value", True))) is None
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
