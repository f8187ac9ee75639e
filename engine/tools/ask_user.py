"""ask_user: the agent asks the analyst a question mid-run.

The engine never runs this tool: calling it suspends the run, and the analyst's
reply resumes it as the Observation.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.tools.base import Tool
from engine.tools.messages import say

ASK_USER = "ask_user"


class AskUserArgs(BaseModel):
    question: str = Field(..., min_length=1, description=say("arg_ask_user_question"))
    choices: list[str] | None = Field(None, description=say("arg_ask_user_choices"))


class AskUser(Tool):
    name = ASK_USER
    description = say("describe_ask_user")
    Args = AskUserArgs
    always_on = True

    def run(self, args: AskUserArgs) -> str:  # pragma: no cover - the engine suspends instead
        raise RuntimeError("ask_user is handled by the engine")
