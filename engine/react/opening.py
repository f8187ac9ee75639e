"""The messages a run opens with: the system prompt for the chosen protocol, the
history fitted to the backend, and the question."""

from __future__ import annotations

from typing import Any

from engine.llm.base import Abilities, Message
from engine.react.prompts import citation_rule, message, render, style_instructions
from engine.react.protocols import PromptContext, WireProtocol, select
from engine.react.run_state import RunState
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry


def prompt_context(config: EngineConfig, theme: str | None) -> PromptContext:
    return PromptContext(
        context=f"The analyst's knowledge theme is '{theme}'." if theme else "",
        style=style_instructions(config.language, config.detail),
        citation_rule=citation_rule(),
        ready=message("ready", config.language),
    )


def switch_protocol(
    messages: list[Message],
    old: WireProtocol,
    new: WireProtocol,
    config: EngineConfig,
    registry: ToolRegistry,
    theme: str | None = None,
) -> None:
    """Give the run ``new``'s system prompt in place of ``old``'s, keeping what followed
    it (the summaries of earlier turns)."""
    context = prompt_context(config, theme)
    before, current = old.system_prompt(context, registry), messages[0]["content"]
    rest = current[len(before) :] if current.startswith(before) else ""
    messages[0] = {"role": "system", "content": new.system_prompt(context, registry) + rest}


def fall_back(
    state: RunState, protocol: WireProtocol, abilities: Abilities, config: EngineConfig, registry: ToolRegistry,
    theme: str | None,
) -> WireProtocol:  # fmt: skip
    """The reformat retry did not parse either: the rest of the run uses the protocol's
    fallback (JSON mode gives way to the text format), with fresh format retries."""
    fallback = select(abilities, protocol.fallback)  # type: ignore[attr-defined]
    switch_protocol(state.messages, protocol, fallback, config, registry, theme)
    state.fallen_from = state.fallen_from or protocol.name
    state.mode = fallback.name
    state.format_retries = state.unreadable = 0
    return fallback


def opening_messages(
    prompt: str,
    history: list[dict[str, Any]],
    protocol: WireProtocol,
    abilities: Abilities,
    config: EngineConfig,
    registry: ToolRegistry,
    theme: str | None = None,
) -> list[Message]:
    summaries = [m["content"] for m in history if m["role"] == "system"]
    turns = [{"role": m["role"], "content": m["content"]} for m in history if m["role"] != "system"]
    earlier = "\n".join(summaries)
    if abilities.base_model and turns:
        # A small base model copies the latest Q/A pair; it reads earlier turns as context instead.
        lines = [f"{'User' if m['role'] == 'user' else 'Assistant'}: {m['content']}" for m in turns]
        earlier = (earlier + "\n" if earlier else "") + "Earlier in this conversation:\n" + "\n".join(lines)
        turns = []
    system = protocol.system_prompt(prompt_context(config, theme), registry)
    if earlier:
        system += "\n\n" + earlier
    if abilities.base_model:  # worked examples right before the question
        system += "\n\n" + render("embedded_fewshot", ready=message("ready", config.language))
    return [{"role": "system", "content": system}, *turns, {"role": "user", "content": prompt}]
