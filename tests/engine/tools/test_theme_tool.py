"""search_docs over a store that cannot be opened is one readable tool error, not a failed run."""

from engine.context import EngineContext
from engine.settings import Settings
from engine.tools.theme import SearchDocs, SearchDocsArgs
from tests.helpers import assert_well_ended, call, make_engine, run


def test_a_store_that_cannot_be_opened_is_a_tool_error(tmp_path):
    context = EngineContext(Settings.from_env({"VECTOR_STORE": "chroma", "INDEX_ROOT": str(tmp_path)}))
    registry = context.registry("handbook")  # building the tools does not open the store
    tool = registry.get("search_docs")
    assert isinstance(tool, SearchDocs)
    assert (
        tool.run(SearchDocsArgs(query="hotel cap"))
        == "Error: VECTOR_STORE='chroma' is not known; use faiss or pgvector."
    )
    engine = make_engine(
        [call("search_docs", {"query": "hotel cap"}), "Thought: done\nAnswer: I could not search."],
        tools=list(registry),
    )
    text = run(engine, "What is the hotel cap?")
    assert "VECTOR_STORE='chroma' is not known" in text
    assert_well_ended(text)


def test_the_query_words_reorder_chunks_the_model_finds_almost_alike():
    """A report's table slices score almost alike (0.84 each): the one holding the row the
    question names comes first; a clearly closer chunk still beats a word match."""
    from engine.rag.chunking import Chunk
    from engine.rag.store import Hit
    from engine.tools.theme import reordered

    def hit(text: str, score: float) -> Hit:
        return Hit(
            chunk=Chunk(chunk_id=text[:8], source="t.csv", location="", text=text, content_hash="h"), score=score
        )

    class Model:
        similarity_range = (0.72, 0.92)
        lexical_weight = 0.15

    slices = [
        hit("| Other | 21,907 | 18,176 |\n| Total deferred tax assets | 489,689 | 445,785 |", 0.843),
        hit("| Intangible assets | 39,242 | 39,122 |", 0.841),
        hit("| Net operating loss carry forward | $183,297 | $119,259 |\n| Receivables | 6,165 | 7,111 |", 0.837),
    ]
    first = reordered("What were the Receivables in 2018?", slices, Model())[0]
    assert "Receivables" in first.chunk.text and first.score == 0.837  # the model's closeness is what it shows
    closer = [
        hit("Receivables are the amounts customers owe.", 0.70),
        hit("Amounts customers owe us at year end.", 0.91),
    ]
    assert reordered("What were the Receivables?", closer, Model())[0].chunk.text.startswith("Amounts")
