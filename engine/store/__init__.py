"""Conversations that last: kept per user in SQLite (default) or PostgreSQL (``DATABASE_URL``)."""

from engine.store.errors import BadInput, NotFound, StoreError, Unavailable
from engine.store.inputs import title_from_question
from engine.store.models import ConversationRecord, ConversationRepository, ConversationSummary
from engine.store.repository import ConversationStore

__all__ = [
    "BadInput",
    "ConversationRecord",
    "ConversationRepository",
    "ConversationStore",
    "ConversationSummary",
    "NotFound",
    "StoreError",
    "Unavailable",
    "title_from_question",
]
