"""ask_user: the agent asks the analyst a question mid-run.

The engine never runs this tool: calling it suspends the run, and the analyst's
reply resumes it as the Observation.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.tools.base import Tool

ASK_USER = "ask_user"


class AskUserArgs(BaseModel):
    question: str = Field(..., min_length=1, description="The question to ask the user, in one sentence.")
    choices: list[str] | None = Field(None, description="Optional answers the user can pick from.")


class AskUser(Tool):
    name = ASK_USER
    description = "Asks the user a question when something needed is missing or ambiguous, and waits for the reply."
    Args = AskUserArgs
    always_on = True

    def run(self, args: AskUserArgs) -> str:  # pragma: no cover - the engine suspends instead
        raise RuntimeError("ask_user is handled by the engine")
