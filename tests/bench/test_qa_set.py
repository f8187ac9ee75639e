"""The QA set is valid and its scorer classifies answers as intended (no model is run)."""

import csv
import json

import pytest
from pydantic import ValidationError

from bench.qa.qa_set import DOCS_DIR, KINDS, QAQuestion, load_questions, select
from bench.qa.scoring import contains_fact, normalise, says_not_found, summarise, verdict
from bench.qa.scripted_wrong import wrong_figure, wrong_script
from engine.rag.readers import read_sections


@pytest.fixture(scope="module")
def questions():
    return load_questions()


@pytest.fixture(scope="module")
def doc_texts():
    return {p.name: "\n".join(s.text for s in read_sections(p)) for p in sorted(DOCS_DIR.iterdir())}


def test_set_is_large_and_covers_every_kind_and_language(questions):
    assert len(questions) >= 24
    assert {q.kind for q in questions} == set(KINDS)
    assert {q.language for q in questions} == {"en", "fr"}
    assert sum(q.kind == "not_found" for q in questions) >= 4
    cross = [q for q in questions if q.kind == "cross_language"]
    assert {q.language for q in cross} == {"en", "fr"}  # FR question on EN text and the reverse


def test_every_source_exists_and_is_ingestible(questions, doc_texts):
    for q in questions:
        if q.source is not None:
            assert q.source in doc_texts, f"{q.id}: {q.source} is not in {DOCS_DIR}"
    assert 6 <= len(doc_texts) <= 10


@pytest.mark.parametrize("kind", ["doc", "cross_language"])
def test_document_facts_stand_in_their_source_and_nowhere_else(questions, doc_texts, kind):
    for q in (q for q in questions if q.kind == kind):
        holding = [name for name, text in doc_texts.items() if contains_fact(text, q.expected)]
        assert holding == [q.source], f"{q.id}: fact {q.expected} found in {holding}"


def _rows(name):
    with open(DOCS_DIR / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_csv_answers_match_the_files(questions, doc_texts):
    by_id = {q.id: q for q in questions}
    shipments, budget = _rows("shipments_2025.csv"), _rows("budget_2026.csv")
    gdansk = sum(int(r["pallets_shipped"]) for r in shipments if r["warehouse"] == "Gdansk")
    top = max(shipments, key=lambda r: int(r["pallets_shipped"]))
    total_budget = sum(int(r["budget_eur"]) for r in budget)
    assert contains_fact(str(gdansk), by_id["csv_gdansk_total"].expected)
    assert contains_fact(top["pallets_shipped"], by_id["csv_max_month"].expected)
    assert contains_fact(str(total_budget), by_id["csv_total_budget"].expected)
    for q in (q for q in questions if q.kind == "csv" and q.id not in {"csv_gdansk_total", "csv_total_budget"}):
        assert contains_fact(doc_texts[q.source], q.expected), q.id


def test_calc_answers_are_right(questions):
    by_id = {q.id: q for q in questions}
    assert contains_fact(f"{0.17 * 2340:.1f}", by_id["calc_percent"].expected)
    assert contains_fact(str(48 * 27), by_id["calc_multiply"].expected)
    assert contains_fact(f"{38.5 * 120:.0f}", by_id["calc_cost"].expected)


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"kind": "not_found", "expected": ["12"], "source": None}, "no expected fact"),
        ({"kind": "doc", "expected": [], "source": "a.md"}, "at least one"),
        ({"kind": "doc", "expected": ["1"], "source": "../../etc/passwd"}, "not a path"),
        ({"kind": "calc", "expected": ["1"], "source": "a.md"}, "null exactly"),
        ({"kind": "essay", "expected": ["1"], "source": None}, "kind"),
    ],
)
def test_bad_questions_are_refused_with_a_reason(bad, message):
    with pytest.raises(ValidationError, match=message):
        QAQuestion.model_validate({"id": "q1", "question": "What is it?", "language": "en"} | bad)


def test_duplicate_ids_and_unknown_selection_are_refused(tmp_path, questions):
    path = tmp_path / "q.json"
    path.write_text(json.dumps([questions[0].model_dump()] * 2), encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate"):
        load_questions(path)
    with pytest.raises(ValueError, match="unknown question id"):
        select(questions, ids="nope")
    assert [q.id for q in select(questions, ids="calc_cost,nf_ceo")] == ["calc_cost", "nf_ceo"]
    assert len(select(questions, limit=3)) == 3
    with pytest.raises(ValueError, match="at least 1"):
        select(questions, limit=0)


@pytest.mark.parametrize(
    "answer, expected, found",
    [
        ("Purchases up to **EUR 3,000** need one quote.", ["3000"], True),
        ("La surface est de 6\u202f200 m².", ["6 200"], True),
        ("Le budget total est de 5 899 500 €.", ["5,899,500"], True),
        ("L'indemnité est de 2,70 € par jour.", ["2.70", "2,70"], True),
        ("It is 127 days.", ["27"], False),
        ("It is 2.27 days.", ["27"], False),
        ("27.", ["27"], True),
        ("The target is 35 % of vans.", ["35%"], True),
        ("Elle est dirigée par SOLENE MARCHETTI.", ["Solène Marchetti"], True),
        ("Report within 4 heures.", ["4 h"], False),
    ],
)
def test_contains_fact(answer, expected, found):
    assert contains_fact(answer, expected) is found


def test_normalise_keeps_decimals_and_drops_thousands_separators():
    assert normalise("1,250 and 1 250 and 2,70") == "1250 and 1250 and 2,70"


@pytest.mark.parametrize(
    "answer, found",
    [
        ("I could not find this in the documents.", True),
        ("Cette information ne figure pas dans les documents.", True),
        ("Je n\u2019ai pas trouvé de passage, l'information est introuvable.", True),
        ("The CEO is Ingrid Valtersen [procurement_policy.md].", False),
    ],
)
def test_says_not_found(answer, found):
    assert says_not_found(answer) is found


DOC_Q = QAQuestion(id="d", question="How many trucks?", language="en", kind="doc", expected=["86"], source="f.html")
NF_Q = QAQuestion(id="n", question="Who is the CEO?", language="en", kind="not_found")
ANSWERED = {"type": "done", "status": "answered"}


@pytest.mark.parametrize(
    "question, done, blocks, expected",
    [
        (DOC_Q, ANSWERED | {"answer": "Brenmoor runs 86 trucks [f.html]."}, [], "right"),
        (DOC_Q, ANSWERED | {"answer": "Brenmoor runs 112 trucks [made_up.pdf]."}, [], "confidently_wrong"),
        (
            DOC_Q,
            ANSWERED | {"answer": "112 trucks.", "unsupported": ["112"], "grounding": "unsupported"},
            [],
            "flagged",
        ),
        (DOC_Q, ANSWERED | {"answer": "112 trucks.", "unsupported": [], "grounding": "partly"}, [], "flagged"),
        (
            DOC_Q,
            ANSWERED | {"answer": "112 trucks.", "unsupported": [], "grounding": "verified"},
            [],
            "confidently_wrong",
        ),
        (DOC_Q, {"type": "done", "status": "error", "answer": ""}, [], "flagged"),
        (DOC_Q, ANSWERED | {"answer": "I could not find the number of trucks."}, [], "flagged"),
        (
            DOC_Q,
            ANSWERED | {"answer": "112 trucks."},
            [{"type": "answer", "content": "112 trucks."}, {"type": "warning", "content": "Check this figure."}],
            "flagged",
        ),
        (
            DOC_Q,
            ANSWERED | {"answer": "112 trucks."},
            [{"type": "warning", "content": "The answer was cut at the length limit."}, {"type": "answer"}],
            "confidently_wrong",
        ),
        (
            DOC_Q,
            ANSWERED | {"answer": "112 trucks."},
            [{"type": "answer"}, {"type": "warning", "content": "The answer was cut at the length limit."}],
            "confidently_wrong",
        ),
        (
            DOC_Q,
            ANSWERED | {"answer": "112 trucks."},
            [{"type": "warning", "content": "Unsupported figures: 112."}, {"type": "answer"}],
            "flagged",
        ),
        (NF_Q, ANSWERED | {"answer": "The documents do not mention the CEO."}, [], "right"),
        (NF_Q, ANSWERED | {"answer": "Voici ce que j'ai.", "grounding": "not_found"}, [], "right"),
        (NF_Q, ANSWERED | {"answer": "The CEO is Martin Dubreuil [made_up.pdf]."}, [], "confidently_wrong"),
        (NF_Q, ANSWERED | {"answer": "The CEO is Martin Dubreuil.", "unsupported": ["Martin Dubreuil"]}, [], "flagged"),
    ],
)
def test_verdict(question, done, blocks, expected):
    assert verdict(question, done, blocks) == expected


def test_summary_counts():
    rows = [(DOC_Q, "right"), (DOC_Q, "flagged"), (NF_Q, "right"), (NF_Q, "confidently_wrong")]
    assert summarise(rows) == {
        "right": 2,
        "flagged": 1,
        "confidently_wrong": 1,
        "total": 4,
        "not_found_total": 2,
        "not_found_right": 1,
    }


def test_scripted_wrong_answers_are_wrong_for_every_question(questions):
    for q in questions:
        script = wrong_script(q)
        assert json.loads(script[0]["tool_calls"][0]["arguments"])["query"]
        answer = script[-1]["text"]
        assert "[made_up.pdf]" in answer and script[-1]["repeat"] is True
        assert verdict(q, ANSWERED | {"answer": answer}) == "confidently_wrong", q.id
        assert verdict(q, ANSWERED | {"answer": answer, "unsupported": [wrong_figure(q)]}) == "flagged", q.id
