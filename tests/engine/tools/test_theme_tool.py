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
