"""The messages a run opens with: the system prompt for the chosen protocol (and its
switch when the run falls back to another protocol), the earlier turns fitted to the
backend, and the question.

The app sends the whole conversation every turn. Old assistant turns are reduced to
their answers (no Thoughts, no tool traces), then the history is fitted to a token
budget: recent turns verbatim, older ones summarised by the LLM (or truncated when
that fails). Messages marked ``pinned`` are kept before any other, but together they get
at most ``PINNED_SHARE`` of the budget (each cut to its part); when there are so many that
a part would be under ``PINNED_MIN_TOKENS``, only the latest that fit are kept and a note
says how many were left out. The summariser reads at most ``SUMMARY_INPUT_FACTOR`` times
the budget, the most recent part of the older turns.

The question itself is bounded too (``bound_question``): the run says when it was cut.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.llm.base import Abilities, Message
from engine.react.parser import parse_blocks
from engine.react.prompts import citation_rule, message, render, style_instructions
from engine.react.protocols import PromptContext, WireProtocol, select
from engine.react.run_state import RunState
from engine.react.types import ANSWER_TYPES, ReActType
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry

PINNED_SHARE = 0.4
PINNED_MIN_TOKENS = 40  # a pinned message cut shorter than this says nothing
SUMMARY_INPUT_FACTOR = 4


def estimate_tokens(text: str) -> int:
    return len(text) // 4 + 1


def _answer_only(content: str) -> str:
    """An old assistant turn as its answer. A turn that does not open with a ReAct label
    is an answer already and is kept exactly; a transcript is reduced to its last answer."""
    blocks = parse_blocks(content)
    if not blocks or blocks[0].type is ReActType.UNKNOWN:
        return content.strip()
    answers = [b.content for b in blocks if b.type in ANSWER_TYPES]
    return answers[-1] if answers else ""


def clean_history(history: list[dict[str, Any]]) -> list[Message]:
    """Keep user/assistant/system turns; strip ReAct traces and Thoughts from old answers."""
    out: list[Message] = []
    for item in history or []:
        if not isinstance(item, dict):
            continue
        role = item.get("role")
        content = item.get("content")
        if role not in ("user", "assistant", "system") or not isinstance(content, str):
            continue
        text = _answer_only(content) if role == "assistant" else content.strip()
        if not text:
            continue
        message: Message = {"role": role, "content": text}
        if item.get("pinned"):
            message["pinned"] = True
        out.append(message)
    return out


def bound_question(question: str, max_tokens: int) -> tuple[str, bool]:
    """The question cut to ``max_tokens`` (at a word when one is near), and whether it was cut."""
    if estimate_tokens(question) <= max_tokens:
        return question, False
    limit = max(40, max_tokens * 4) - 8
    cut = question[:limit]
    space = cut.rfind(" ")
    if space >= limit * 3 // 4:
        cut = cut[:space]
    return cut.rstrip() + " […]", True


def _truncate(text: str, tokens: int) -> str:
    limit = max(40, tokens * 4)
    return text if len(text) <= limit else text[: limit - 8].rstrip() + " […]"


def compress_history(
    history: list[Message],
    budget_tokens: int,
    recent_share: float = 0.6,
    summarise: Callable[[str], str] | None = None,
    language: str = "en",
) -> list[Message]:
    """Fit ``history`` into ``budget_tokens``; see the module docstring."""
    total = sum(estimate_tokens(m["content"]) for m in history)
    if total <= budget_tokens:
        return [dict(m) for m in history]
    pinned = _fit_pinned([m for m in history if m.get("pinned")], int(budget_tokens * PINNED_SHARE), language)
    pinned_cost = sum(estimate_tokens(m["content"]) for m in pinned)
    recent_budget = max(0, int(budget_tokens * recent_share) - pinned_cost)
    recent: list[Message] = []
    used = 0
    unpinned = [m for m in history if not m.get("pinned")]
    split = len(unpinned)
    for i in range(len(unpinned) - 1, -1, -1):
        cost = estimate_tokens(unpinned[i]["content"])
        if used + cost > recent_budget and recent:
            break
        if used + cost > recent_budget:  # the latest message alone is too long: cut it
            recent.insert(0, {**unpinned[i], "content": _truncate(unpinned[i]["content"], recent_budget)})
            split = i
            break
        recent.insert(0, unpinned[i])
        used += cost
        split = i
    older = unpinned[:split]
    summary_budget = max(0, budget_tokens - pinned_cost - used)
    summary_msg: list[Message] = []
    if older and summary_budget > 20:
        transcript = _recent_transcript(older, budget_tokens * SUMMARY_INPUT_FACTOR * 4)
        text = ""
        if summarise is not None:
            try:
                prompt = render(
                    "summarise_history", max_words=max(20, summary_budget * 3 // 4), conversation=transcript
                )
                text = summarise(prompt).strip()
            except Exception:  # a failed summary falls back to truncation
                text = ""
        if not text:
            text = transcript
        prefix = message("history_summary")
        room = summary_budget - estimate_tokens(prefix) - 2
        summary_msg = [{"role": "system", "content": prefix + _truncate(text, room)}]
    return [dict(m) for m in pinned] + summary_msg + [dict(m) for m in recent]


def _fit_pinned(pinned: list[Message], budget_tokens: int, language: str = "en") -> list[Message]:
    """Pinned messages, in order, each cut to an equal part of ``budget_tokens`` when they do not fit;
    when a part would be under ``PINNED_MIN_TOKENS``, the latest that fit, after a note of how many are left out."""
    if sum(estimate_tokens(m["content"]) for m in pinned) <= budget_tokens:
        return pinned
    note: list[Message] = []
    if budget_tokens // max(1, len(pinned)) < PINNED_MIN_TOKENS:
        text = message("pinned_left_out", language, n=len(pinned))  # the longest the note can be
        room = budget_tokens - estimate_tokens(text)
        keep = max(0, room // PINNED_MIN_TOKENS)
        dropped = len(pinned) - keep
        note = [{"role": "system", "content": message("pinned_left_out", language, n=dropped), "pinned": True}]
        pinned, budget_tokens = (pinned[-keep:] if keep else []), room
    if not pinned:
        return note
    share = max(10, budget_tokens // len(pinned) - 1)  # - 1: estimate_tokens counts one more
    return note + [{**m, "content": _truncate(m["content"], share)} for m in pinned]


def _recent_transcript(messages: list[Message], max_chars: int) -> str:
    """The latest ``max_chars`` of the conversation as ``role: text`` lines (older lines dropped first)."""
    lines: list[str] = []
    used = 0
    for m in reversed(messages):
        line = f"{m['role']}: {m['content']}"
        if used + len(line) > max_chars:
            if not lines:
                lines.append(line[: max(0, max_chars - 8)].rstrip() + " […]")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(reversed(lines))


def question_budget(config: EngineConfig, abilities: Abilities) -> int:
    """The longest question sent: the setting, or what the backend declares it has room for, if less."""
    declared = abilities.question_tokens
    return min(config.question_max_tokens, declared) if declared else config.question_max_tokens


# ---- the opening messages -----------------------------------------------------------
def prompt_context(config: EngineConfig, theme: str | None) -> PromptContext:
    return PromptContext(
        context=message("theme_context", theme=theme) if theme else "",
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
        lines = [message(f"earlier_{'user' if m['role'] == 'user' else 'assistant'}", text=m["content"]) for m in turns]
        earlier = (earlier + "\n" if earlier else "") + message("earlier_turns") + "\n" + "\n".join(lines)
        turns = []
    system = protocol.system_prompt(prompt_context(config, theme), registry)
    if earlier:
        system += "\n\n" + earlier
    if abilities.base_model:  # worked examples right before the question
        system += "\n\n" + render("embedded_fewshot", ready=message("ready", config.language))
    return [{"role": "system", "content": system}, *turns, {"role": "user", "content": prompt}]
