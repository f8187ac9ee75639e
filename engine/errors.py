"""The exceptions that steer a ReAct step (``ReActEngine._step``).

A ``FixableError`` says what the model must fix. A ``ToolError`` (a tool misused: a
bad argument, an unknown column, a failed query) becomes that call's error Observation
(``engine/react/execute.py``); a ``FormatError`` (the model's output cannot be read
as a step) is caught by the step, which asks the model to reformat. An ask_user call
whose question does not validate is a ``ToolError`` raised before any tool runs, and
the step handles it as it handles a ``FormatError``. Every other
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


class FixableError(ReActControl):
    """Recoverable: the message says how to fix it. The step catches either kind."""


class FormatError(FixableError):
    """The model's output is malformed: no answer and no call, a call cut off, an
    unknown tool name, an Action Input that is not JSON."""


class ToolError(FixableError):
    """A tool was misused (bad or missing arguments, a name not in the table, a query
    refused or failed); the message is the tool's answer to the model."""


class UnreadableOutput(FormatError):
    """The output is not in the wire protocol's format at all (it does not parse), as
    opposed to a wrong tool or input: a protocol with a ``fallback`` gives way to it."""


class ForceFinalizeException(ReActControl):
    """Unrecoverable for the loop: the next model call must give the final answer.

    ``fatal`` means the backend itself failed: no further call is made and the run
    ends with an explicit error block carrying ``user_message``."""

    def __init__(self, message: str, *, user_message: str | None = None, fatal: bool = False) -> None:
        super().__init__(message, user_message=user_message)
        self.fatal = fatal
