"""Corrective notes the engine injects after tool results: an empty result, a loop
of identical calls, a periodic reflection, a one-time answer checklist."""

from __future__ import annotations

from engine.react.execute import call_key
from engine.react.prompts import render
from engine.react.run_state import RunState
from engine.react.step import Note, Observation, ObservationStatus
from engine.settings import EngineConfig


def notes_after(state: RunState, observation: Observation, config: EngineConfig) -> list[Note]:
    notes: list[Note] = []
    if observation.status is ObservationStatus.EMPTY:
        notes.append(Note(kind="thought", text=render("empty_observation", tool=observation.tool)))
    count = state.call_counts.get(call_key(observation.tool, observation.args), 0)
    if count == config.cycle_warn_at:
        notes.append(Note(kind="warning", text=render("cycle_warning", tool=observation.tool, count=count)))
    if state.tool_calls % config.reflection_every == 0:
        notes.append(Note(kind="thought", text=render("reflection", count=state.tool_calls)))
    if not state.checklist_done and state.tool_calls >= config.checklist_after_tools:
        state.checklist_done = True
        notes.append(Note(kind="thought", text=render("checklist")))
    return notes
