"""One real run of the embedded model per kind of QA question, through the CLI exactly
as ``bench/bench_qa.py`` runs it (documents ingested as theme ``qa``, one ``ask`` process
per question). Each must come out right, never confidently wrong."""

import pytest

from bench import qa_retrieval
from bench.bench_qa import ask, clean_env
from bench.qa.qa_set import load_questions
from bench.qa.scoring import verdict

pytestmark = pytest.mark.slow

ONE_PER_KIND = {
    "doc": "en_it_backups",
    "cross_language": "x_en_fr_wedding",
    "csv": "csv_gdansk_total",
    "calc": "calc_cost",
    "not_found": "nf_hotel",
}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("qa") / "index"
    root.mkdir()
    qa_retrieval.ingest_qa(root)
    return clean_env(root)


@pytest.mark.parametrize("kind", sorted(ONE_PER_KIND))
def test_embedded_answers_one_question_of_each_kind(env, kind):
    question = next(q for q in load_questions() if q.id == ONE_PER_KIND[kind])
    assert question.kind == kind
    done, blocks, _ = ask(question, env)
    assert done["status"] == "answered", done
    assert verdict(question, done, blocks) == "right", done["answer"]
    if kind != "not_found":
        assert done["grounding"] in ("verified", "quoted") and done["citations"], done
