"""ReAct block types shared by the engine and every client."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel


class ReActType(StrEnum):
    THOUGHT = "thought"
    ACTION = "action"
    ACTION_INPUT = "action_input"
    OBSERVATION = "observation"
    FINAL_ANSWER = "final_answer"
    ANSWER = "answer"
    RESPONSE = "response"
    CONCLUSION = "conclusion"
    DRAFT = "draft"  # an answer the engine did not accept; the marker that retypes it carries the reason
    TABLE = "table"  # a tool's table result, as JSON
    CHART = "chart"  # a chart of a table result, as JSON
    WARNING = "warning"
    NOTE = "note"  # why the engine set a draft aside: about the draft, not a caution about the answer
    ERROR = "error"
    UNKNOWN = "unknown"


ANSWER_TYPES = frozenset({ReActType.FINAL_ANSWER, ReActType.ANSWER, ReActType.RESPONSE, ReActType.CONCLUSION})
# What Show Thoughts hides: everything but the answer, explicit errors and charts.
TRACE_TYPES = frozenset(set(ReActType) - ANSWER_TYPES - {ReActType.ERROR, ReActType.CHART})

# The label the engine writes for each type; the parser also accepts the aliases in parser.py.
CANONICAL_LABEL: dict[ReActType, str] = {
    ReActType.THOUGHT: "Thought",
    ReActType.ACTION: "Action",
    ReActType.ACTION_INPUT: "Action Input",
    ReActType.OBSERVATION: "Observation",
    ReActType.FINAL_ANSWER: "Final Answer",
    ReActType.ANSWER: "Answer",
    ReActType.RESPONSE: "Response",
    ReActType.CONCLUSION: "Conclusion",
    ReActType.DRAFT: "Draft",
    ReActType.TABLE: "Table",
    ReActType.CHART: "Chart",
    ReActType.WARNING: "Warning",
    ReActType.NOTE: "Note",
    ReActType.ERROR: "Error",
}


class ReActBlock(BaseModel):
    """One typed block of a ReAct transcript."""

    type: ReActType
    content: str = ""

    @property
    def is_trace(self) -> bool:
        return self.type in TRACE_TYPES
