"""The colours and icons of the ReAct blocks, in one place.

Colours are Streamlit's named palette (``:blue[...]``), which Streamlit adapts to the
light and dark themes, so the blocks stay readable in both. Icons are Streamlit's
Material icons, which need no emoji font."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.react.types import ReActType


@dataclass(frozen=True)
class BlockStyle:
    label_key: str
    icon: str  # a Material icon name, drawn as :material/<name>:
    color: str  # a Streamlit colour name: blue, green, orange, red, violet, gray

    @property
    def material(self) -> str:
        return f":material/{self.icon}:"


BLOCK_STYLES: Mapping[ReActType, BlockStyle] = MappingProxyType(
    {
        ReActType.THOUGHT: BlockStyle("thought", "psychology", "blue"),
        ReActType.ACTION: BlockStyle("action", "build", "orange"),
        ReActType.ACTION_INPUT: BlockStyle("action", "build", "orange"),
        ReActType.OBSERVATION: BlockStyle("observation", "visibility", "green"),
        ReActType.DRAFT: BlockStyle("draft", "edit_note", "gray"),
        ReActType.TABLE: BlockStyle("table", "table_chart", "green"),
        ReActType.CHART: BlockStyle("chart", "bar_chart", "violet"),
        ReActType.WARNING: BlockStyle("warning", "warning", "orange"),
        ReActType.NOTE: BlockStyle("note", "info", "gray"),
        ReActType.ERROR: BlockStyle("error", "error", "red"),
        ReActType.UNKNOWN: BlockStyle("notes", "notes", "gray"),
    }
)
