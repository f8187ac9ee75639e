"""ask_user inside a run: the question that suspends it, and the reply that resumes it."""

from __future__ import annotations

from engine.errors import ToolError
from engine.react.prompts import message
from engine.react.run_state import RunState, SuspendedRun
from engine.react.step import Observation, ObservationStatus, ToolCall
from engine.tools.ask_user import ASK_USER, AskUserArgs


class Suspended(Exception):
    """ask_user was called: the run waits for the analyst's reply."""

    def __init__(self, suspended: SuspendedRun) -> None:
        super().__init__(suspended.question)
        self.suspended = suspended


def question_of(calls: list[ToolCall]) -> tuple[ToolCall, AskUserArgs] | None:
    call = next((c for c in calls if c.name == ASK_USER), None)
    if call is None:
        return None
    try:
        return call, AskUserArgs.model_validate(call.args)
    except Exception:
        raise ToolError(message("ask_user_args")) from None


def suspend(state: RunState, call: ToolCall, args: AskUserArgs) -> Suspended:
    return Suspended(SuspendedRun(state=state, question=args.question, choices=args.choices, call_id=call.id))


def reply_observation(state: RunState, suspended: SuspendedRun, answer: str) -> tuple[ToolCall, Observation]:
    """The analyst's reply as the Observation of the suspended ask_user call, recorded on its step."""
    step = state.steps[-1]
    call = next(c for c in step.calls if c.id == suspended.call_id)
    observation = Observation(
        call_id=call.id,
        tool=ASK_USER,
        args=call.args,
        text=answer.strip() or message("user_no_answer"),
        status=ObservationStatus.USER_REPLY,
        n=state.observation_count + 1,
    )
    step.observations.append(observation)
    return call, observation
