"""ThemeToolKit: ``search_docs`` over the theme's index (RAG), in whichever store the
context's ``IndexManager`` keeps it (FAISS files or pgvector).

The Observation lists the top chunks with source file, location and score, so the
final answer can cite ``[source]``. The index browser shows exactly this text.

Ranking: the embedding model's nearest ``POOL`` chunks, reordered by their closeness (rescaled
to the model's band) blended with the share of the query's words each holds, weighted by
rarity among them (the embedder's ``lexical_weight``; 0.15 for multilingual-e5, whose
questions often cross languages). A small model ranks a report's table slices almost alike
(0.84 each), and "What were the Receivables in 2018?" missed the slice holding the row
"Receivables". Measured by ``bench/bench_report_retrieval.py``: see BENCHMARKS.md. The score
shown stays the model's closeness."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from engine.grounding.quotes import lexical_shares
from engine.grounding.stems import words
from engine.rag.embeddings import Embedder, get_embedder
from engine.rag.manager import IndexManager
from engine.rag.store import Hit, IndexProblem, require_embedder
from engine.rag.themes import BadThemeName
from engine.tools.base import Tool
from engine.tools.messages import say
from engine.tools.results import Passage, ToolResult

SEARCH_DOCS = "search_docs"
POOL = 20  # nearest chunks the query's words may reorder


class SearchDocsArgs(BaseModel):
    query: str = Field(..., min_length=2, max_length=500, description=say("arg_search_docs_query"))
    k: int = Field(4, ge=1, le=10, description=say("arg_search_docs_k"))


def search_hits(theme: str, query: str, k: int = 4, *, manager: IndexManager, pool: int = POOL) -> list[Hit]:
    """The ``k`` best chunks for ``query``; ``pool`` = ``k`` ranks by the model's closeness alone."""
    index = manager.get(theme)
    embedder = get_embedder()
    require_embedder(index, embedder)
    vector = embedder.encode_query([query])[0]
    return reordered(query, index.search(vector, max(k, pool)), embedder)[:k]


def reordered(query: str, hits: list[Hit], embedder: Embedder) -> list[Hit]:
    """``hits`` by closeness blended with the query's words (see the module's docstring)."""
    if len(hits) < 2:
        return hits
    lexical = lexical_shares(words(query), [words(h.chunk.text) for h in hits])
    low, high = getattr(embedder, "similarity_range", (0.0, 1.0))
    weight = getattr(embedder, "lexical_weight", 0.5)

    def blended(i: int) -> float:
        close = min(1.0, max(0.0, (hits[i].score - low) / (high - low)))
        return (1 - weight) * close + weight * lexical[i]

    return [hits[i] for i in sorted(range(len(hits)), key=lambda i: -blended(i))]


def format_hits(hits: list[Hit], max_chars: int = 600) -> str:
    if not hits:
        return say("search_none")
    parts = []
    for n, hit in enumerate(hits, start=1):
        text = hit.chunk.text if len(hit.chunk.text) <= max_chars else hit.chunk.text[:max_chars].rstrip() + " …"
        parts.append(
            say("search_passage", n=n, source=hit.chunk.source, location=hit.chunk.location, score=hit.score, text=text)
        )
    return "\n\n".join([*parts, say("search_cite")])


class SearchDocs(Tool):
    name = SEARCH_DOCS
    toolkit = "theme"
    always_on = True  # the analyst chose this theme: its documents are always searchable
    Args = SearchDocsArgs

    def __init__(self, theme: str, manager: IndexManager | Callable[[], IndexManager], name: str = SEARCH_DOCS) -> None:
        """``manager`` may be a function giving it: a store that cannot be opened (a bad
        setting, a database down) is then one readable tool error, not a failed run."""
        self.theme = theme
        self._manager = manager
        self.name = name
        if name == SEARCH_DOCS:
            self.description = say("search_theme_description", theme=theme)
        else:
            self.description = say("search_attachments_description")

    @property
    def manager(self) -> IndexManager:
        return self._manager() if callable(self._manager) else self._manager

    def run(self, args: SearchDocsArgs) -> ToolResult | str:
        try:
            hits = search_hits(self.theme, args.query, args.k, manager=self.manager)
        except (IndexProblem, BadThemeName) as exc:
            return say("search_error", detail=exc)
        passages = [
            Passage(source=h.chunk.source, location=h.chunk.location, text=h.chunk.text, score=h.score) for h in hits
        ]
        return ToolResult(text=format_hits(hits), passages=passages)
