"""The exceptions that steer a ReAct step (``ReActEngine._step``).

A ``RetryException`` says what the model must fix: raised by a tool call, it becomes
that call's error Observation (``engine/react/execute.py``); raised while reading the
model's output, the step catches it and asks the model to reformat. Every other
exception raised inside a step, except the loop's own endings (``Answered``,
``Suspended`` for ask_user, a cancelled run), becomes a ``ForceFinalizeException``: the
next model call must answer, or, when ``fatal``, the run ends with an error block. So a
run never ends silently.
"""

from __future__ import annotations


class ReActControl(Exception):
    """Base of the step control exceptions; ``message`` is shown to the model."""

    def __init__(self, message: str, *, user_message: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.user_message = user_message or message


class RetryException(ReActControl):
    """Recoverable: malformed output or tool misuse. The message says how to fix it."""


class UnreadableOutput(RetryException):
    """The output is not in the wire protocol's format at all (it does not parse), as
    opposed to a wrong tool or input: a protocol with a ``fallback`` gives way to it."""


class ForceFinalizeException(ReActControl):
    """Unrecoverable for the loop: the next model call must give the final answer.

    ``fatal`` means the backend itself failed: no further call is made and the run
    ends with an explicit error block carrying ``user_message``."""

    def __init__(self, message: str, *, user_message: str | None = None, fatal: bool = False) -> None:
        super().__init__(message, user_message=user_message)
        self.fatal = fatal
