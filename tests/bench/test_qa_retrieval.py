"""The pure parts of the retrieval measure: keyword folding and reciprocal-rank fusion."""

from bench.qa.qa_set import QAQuestion
from bench.qa_retrieval import fold, keywords, recall_split, rrf_fuse, source_hits


def test_keywords_fold_accents_and_drop_stopwords():
    assert fold("Congés ÉTÉ") == "conges ete"
    assert keywords("Combien de jours de congés payés ?") == ["jours", "conges", "payes"]


def test_rrf_prefers_items_ranked_well_by_both():
    fused = rrf_fuse([[1, 2, 3], [3, 1, 4]])
    assert fused[0] == 1  # ranks 1 and 2 beat ranks 3 and 1
    assert set(fused) == {1, 2, 3, 4}
    assert rrf_fuse([]) == []


def test_source_hits_and_split():
    qs = [
        QAQuestion(id="a", question="alpha?", language="en", kind="doc", expected=["1"], source="a.md"),
        QAQuestion(id="b", question="beta?", language="fr", kind="cross_language", expected=["2"], source="b.md"),
        QAQuestion(id="c", question="gamma?", language="en", kind="calc", expected=["3"]),
    ]
    sources = ["a.md", "b.md", "x.md"]
    ranking = {"alpha?": [0, 2], "beta?": [2, 0, 1]}
    hits = source_hits(qs, sources, ranking.__getitem__, k=2)
    assert hits == {"a": True, "b": False}
    assert recall_split(qs, hits, "@2") == {"same-language@2": (1, 1), "cross-language@2": (0, 1)}
