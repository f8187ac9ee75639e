"""Engine settings. Every limit of the loop is a field here, with its default."""

from __future__ import annotations

from pydantic import BaseModel, Field


class EngineConfig(BaseModel):
    """Limits and knobs of one ReAct run. All of them can be set from ``models.json``
    under ``"engine"`` or passed to ``ReActEngine(config=...)``."""

    max_iterations: int = Field(10, ge=1, description="Model calls per run before the engine forces a final answer.")
    max_format_retries: int = Field(
        3, ge=0, description="Consecutive malformed outputs tolerated before forcing a final answer."
    )
    cycle_warn_at: int = Field(3, ge=2, description="Identical (tool, args) calls that trigger a loop warning.")
    cycle_block_at: int = Field(4, ge=2, description="Identical calls from which the call is refused.")
    reflection_every: int = Field(6, ge=1, description="Tool calls between two self-reflection prompts.")
    checklist_after_tools: int = Field(3, ge=1, description="Tool calls after which a one-time checklist is shown.")
    tool_timeout_s: float = Field(30.0, gt=0, description="Wall-clock limit of one tool call.")
    observation_max_chars: int = Field(2000, ge=100, description="Observations longer than this are cut, with a note.")
    max_tokens_per_step: int = Field(512, ge=16, description="Generation limit of one model call.")
    temperature: float = Field(0.2, ge=0, le=2)
    history_token_budget: int = Field(3000, ge=200, description="Tokens of past conversation sent with each turn.")
    history_recent_share: float = Field(
        0.6, gt=0, le=1, description="Share of the history budget kept verbatim for the latest turns."
    )
    run_timeout_s: float = Field(600.0, gt=0, description="Wall-clock limit of one run before forcing an answer.")
    language: str = Field("en", description="Language of the answers (en, fr, ...).")
    detail: str = Field("normal", description="Detail level of the answers: brief, normal or detailed.")
