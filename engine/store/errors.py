"""What the conversation store tells its caller, as one readable sentence each."""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's own errors; ``str(error)`` is a sentence fit to show a user."""


class NotFound(StoreError, LookupError):
    """No such conversation for this user: a missing id and another user's id look the same."""

    def __init__(self, conversation_id: str = "") -> None:
        super().__init__("This conversation does not exist or is not yours.")
        self.conversation_id = conversation_id


class BadInput(StoreError, ValueError):
    """The caller handed the store something it cannot keep (the message says what and why)."""


class TooLarge(BadInput):
    """What the caller handed the store is over its size limit (a smaller version may fit)."""


class Unavailable(StoreError):
    """The database cannot be reached or written right now."""


class FileReplaced(Unavailable):
    """The SQLite file was removed or replaced under a running app: writes would go to a file nobody reads again."""
