"""The grounding check: figures in an answer traced to the run's evidence, or flagged;
and the evidence quoted instead of an answer that fails it. Pure, and independent of
the ReAct loop."""

from engine.grounding.match import check_answer
from engine.grounding.models import Citation, Evidence, Figure, GroundingReport, Quote, Unit
from engine.grounding.quotes import best_quote, not_found_message
from engine.grounding.units import split_units

__all__ = [
    "Citation",
    "Evidence",
    "Figure",
    "GroundingReport",
    "Quote",
    "Unit",
    "best_quote",
    "check_answer",
    "not_found_message",
    "split_units",
]
