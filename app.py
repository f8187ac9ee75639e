"""The analyst chat page (minimal until the full Streamlit front end lands)."""

from __future__ import annotations

import streamlit as st

from engine.react.engine import ReActEngine
from engine.react.parser import ReActStreamParser

st.set_page_config(page_title="ReAct analyst", page_icon="🔎")
st.title("ReAct analyst")

if "turns" not in st.session_state:
    st.session_state.turns = []

for turn in st.session_state.turns:
    with st.chat_message(turn["role"]):
        st.text(turn["content"])

prompt = st.chat_input("Ask a question")
if prompt:
    st.session_state.turns.append({"role": "user", "content": prompt})
    with st.chat_message("user"):
        st.text(prompt)
    engine = ReActEngine()
    engine.set_history(st.session_state.turns[:-1])
    parser = ReActStreamParser()
    with st.chat_message("assistant"):
        box = st.empty()
        for token in engine.stream_sync(prompt):
            parser.feed(token)
            box.text("\n".join(f"{b.type.value}: {b.content}" for b in parser.blocks))
        answer = engine.result.answer or engine.result.error or ""
    st.session_state.turns.append({"role": "assistant", "content": answer})
