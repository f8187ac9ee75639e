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
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    WARNING = "warning"
    ERROR = "error"
    UNKNOWN = "unknown"


ANSWER_TYPES = frozenset({ReActType.FINAL_ANSWER, ReActType.ANSWER, ReActType.RESPONSE, ReActType.CONCLUSION})
TRACE_TYPES = frozenset(
    {
        ReActType.THOUGHT,
        ReActType.ACTION,
        ReActType.ACTION_INPUT,
        ReActType.OBSERVATION,
        ReActType.TOOL_CALL,
        ReActType.TOOL_RESULT,
    }
)

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
    ReActType.TOOL_CALL: "Tool Call",
    ReActType.TOOL_RESULT: "Tool Result",
    ReActType.WARNING: "Warning",
    ReActType.ERROR: "Error",
}


class ReActBlock(BaseModel):
    """One typed block of a ReAct transcript."""

    type: ReActType
    content: str = ""

    @property
    def is_answer(self) -> bool:
        return self.type in ANSWER_TYPES

    @property
    def is_trace(self) -> bool:
        return self.type in TRACE_TYPES
