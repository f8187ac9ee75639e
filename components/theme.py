"""The colours and icons of the ReAct blocks, in one place.

Colours are Streamlit's named palette (``:blue[...]``), which Streamlit adapts to the
light and dark themes, so the blocks stay readable in both."""

from __future__ import annotations

from dataclasses import dataclass

from engine.react.types import ReActType


@dataclass(frozen=True)
class BlockStyle:
    label_key: str
    icon: str
    color: str  # a Streamlit colour name: blue, green, orange, red, violet, gray


BLOCK_STYLES: dict[ReActType, BlockStyle] = {
    ReActType.THOUGHT: BlockStyle("thought", "💭", "blue"),
    ReActType.ACTION: BlockStyle("action", "🛠️", "orange"),
    ReActType.ACTION_INPUT: BlockStyle("action", "🛠️", "orange"),
    ReActType.TOOL_CALL: BlockStyle("action", "🛠️", "orange"),
    ReActType.OBSERVATION: BlockStyle("observation", "👁️", "green"),
    ReActType.TOOL_RESULT: BlockStyle("observation", "👁️", "green"),
    ReActType.WARNING: BlockStyle("warning", "⚠️", "orange"),
    ReActType.ERROR: BlockStyle("error", "⛔", "red"),
    ReActType.UNKNOWN: BlockStyle("notes", "📝", "gray"),
}
