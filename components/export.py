"""Conversation export as Markdown or JSON, with or without the reasoning trace."""

from __future__ import annotations

import json

from components.state import Conversation
from engine.react.types import ANSWER_TYPES, CANONICAL_LABEL, ReActType


def to_markdown(conversation: Conversation, with_thoughts: bool = False) -> str:
    lines = ["# Conversation", ""]
    for turn in conversation.turns:
        if turn.role == "user":
            lines += [f"**You:** {turn.content}", ""]
            continue
        lines.append("**Assistant:**")
        for block in turn.blocks:
            if block.type in ANSWER_TYPES:
                lines += ["", block.content]
            elif block.type is ReActType.ERROR:
                lines += ["", f"> Error: {block.content}"]
            elif with_thoughts and block.is_trace:
                label = CANONICAL_LABEL.get(block.type, "Note")
                body = block.content.replace("\n", "\n> ")
                lines += ["", f"> *{label}:* {body}"]
        if turn.status in ("stopped", "suspended"):
            lines += ["", f"_({turn.status})_"]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def to_json(conversation: Conversation, with_thoughts: bool = False) -> str:
    turns = []
    for turn in conversation.turns:
        item: dict = {"role": turn.role, "status": turn.status}
        if turn.role == "user":
            item["content"] = turn.content
        else:
            item["answer"] = turn.answer
            if turn.error:
                item["error"] = turn.error
            item["meta"] = {
                "iterations": turn.iterations,
                "tokens": turn.tokens,
                "elapsed": round(turn.elapsed, 3),
                "backend": turn.backend,
            }
            if with_thoughts:
                item["blocks"] = [{"type": b.type.value, "content": b.content} for b in turn.blocks]
        turns.append(item)
    return json.dumps({"turns": turns}, ensure_ascii=False, indent=2)
