"""LLM backends behind one protocol."""

from engine.llm.base import LLM, Abilities, BaseLLM, LLMError, Response, ToolCallRequest, Usage

__all__ = ["LLM", "Abilities", "BaseLLM", "LLMError", "Response", "ToolCallRequest", "Usage"]
