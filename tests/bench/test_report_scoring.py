"""The report benchmark's scorer: TAT-QA's EM/F1, where the gold stands in a free-text answer,
the trust classes, and the scripted strong model's answers."""

import pytest

from bench.report_qa.dataset import Context, Paragraph, Question, Table, select
from bench.report_qa.scoring import em_f1, figures, in_answer, prediction, scale_implicit, stated_directly
from bench.report_qa.scripted import derivation_text, right_answer, wrong_answer
from bench.report_qa.themes import markdown_table, report_markdown
from bench.report_qa.trust import classify


def q(answer, answer_type="span", scale="", question="What is it?", derivation=""):
    return Question(
        uid="u", order=1, question=question, answer=answer, derivation=derivation,
        answer_type=answer_type, answer_from="table", scale=scale,
    )  # fmt: skip


def metric(answer_text, question):
    m = em_f1(prediction(answer_text, question), question)
    return m.em, m.f1


# ---- the published metric -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer_text", "em"),
    [
        ("412 million", 1.0),
        ("$412m = 1,950 − 1,538", 1.0),
        ("412", 0.0),  # no scale where the gold has one
        ("412 thousand", 0.0),  # the wrong scale
        ("461 million", 0.0),
    ],
)
def test_scale_is_part_of_the_answer(answer_text, em):
    assert metric(answer_text, q(412, "arithmetic", "million"))[0] == em


@pytest.mark.parametrize(("answer_text", "em"), [("17.7%", 1.0), ("17.7 per cent", 1.0), ("17.7", 0.0)])
def test_percent_answers_need_the_percent(answer_text, em):
    assert metric(answer_text, q(17.7, "arithmetic", "percent")) == (em, em)


def test_numbers_are_normalised_to_two_decimals():
    gold = q(3.61, "arithmetic")
    assert metric("3.6132", gold) == (1.0, 1.0)
    assert metric("3.6", gold) == (0.0, 0.0)  # F1 is EM for arithmetic: no partial credit


def test_negatives_in_parentheses_and_words_of_decrease():
    assert metric("(3.1)", q(-3.1, "arithmetic"))[0] == 1.0
    assert metric("A decrease of 0.2%", q(-0.2, "arithmetic", "percent"))[0] == 1.0
    assert metric("An increase of 0.2%", q(-0.2, "arithmetic", "percent"))[0] == 0.0
    assert metric("-0.2% = ((1,568.6 − 1,571.7) / 1,571.7) × 100", q(-0.2, "arithmetic", "percent"))[0] == 1.0


def test_report_spellings_of_a_number_are_one_number():
    assert metric("$(20,597) thousand", q(["$(20,597)"], scale="thousand")) == (1.0, 1.0)
    assert metric("-20,597 thousand", q(["$(20,597)"], scale="thousand"))[0] == 1.0
    assert metric("20,597 thousand", q(["$(20,597)"], scale="thousand"))[0] == 0.0  # the sign matters
    assert metric("+3.6%", q(["+3.6%"])) == (1.0, 1.0)


def test_a_span_that_says_its_scale_keeps_it():
    assert metric("$19.1 million", q(["$19.1 million"], scale="thousand")) == (1.0, 1.0)
    assert metric("$19.1 thousand", q(["$19.1 million"], scale="thousand"))[0] == 0.0


def test_a_spaced_minus_is_an_operator_not_a_sign():
    assert [f.value for f in figures("412 = 1,950 − 1,538")] == [412, 1950, 1538]
    assert [f.value for f in figures("−412 and (3.1) and $(77,328)")] == [-412, -3.1, -77328]


def test_multi_span_is_a_bag_of_spans():
    gold = q(["1,568.6", "690.5"], "multi-span")
    assert metric("690.5 and 1,568.6", gold) == (1.0, 1.0)
    assert metric("1,568.6", gold) == (0.0, 0.5)
    assert metric("1,568.6, 690.5 and 12.0", gold)[0] == 0.0  # an extra span breaks EM


def test_span_f1_counts_tokens_without_articles_and_punctuation():
    gold = q(["the modified retrospective method"])
    assert metric("The modified retrospective method.", gold) == (1.0, 1.0)
    assert metric("The company used the modified retrospective method.", gold) == (0.0, 0.75)


def test_a_gold_number_must_be_matched_for_any_f1():
    assert metric("$0.6 million", q(["$0.5 million"])) == (0.0, 0.0)  # "million" alone earns nothing


def test_count_words_are_numbers():
    assert metric("Two (Software, Hardware)", q(2, "count")) == (1.0, 1.0)
    assert metric("Three", q(2, "count")) == (0.0, 0.0)


# ---- where the gold stands ------------------------------------------------------------------


def test_the_first_answer_figure_is_the_statement_and_years_are_not_answers():
    gold = q(412, "arithmetic", "million", question="What was the change in revenue between 2018 and 2019?")
    assert stated_directly("In 2019, revenue grew by 412 million (1,950 − 1,538).", gold)
    assert not stated_directly("Revenue was 1,538 in 2018 and 1,950 in 2019: 412 million more.", gold)
    year = q(["2019"], question="Which year had the higher revenue?")
    assert stated_directly("2019 (1,950 against 1,538)", year)
    assert stated_directly("2019", q(["2019"], question="Which year was higher, 2018 or 2019?"))
    count = q(1, "count", question="How many years did G&A expense exceed $2,000 million?")
    assert stated_directly("G&A expense exceeded $2,000 million in one year (2019).", count)
    assert not stated_directly("G&A expense exceeded $2,000 million in two years.", count)


def test_a_quote_or_a_row_is_evidence_not_a_statement():
    gold = q(["1,571.7"], question="What were inventories as reported?")
    quoted = "From report.md:\n\n> | Inventories . | 1,571.7 | (3.1) | 1,568.6 |"
    assert not stated_directly(quoted, gold) and in_answer(quoted, gold)
    assert not stated_directly("| Inventories . | 1,571.7 | (3.1) |", gold)
    assert stated_directly("1,571.7 [1]\n\n> | Inventories . | 1,571.7 |", gold)


@pytest.mark.parametrize(
    ("answer_text", "direct"),
    [("3.6", True), ("3.61", True), ("3.614", True), ("3.7", False), ("4", False), ("-3.61", False)],
)
def test_rounding_and_sign_are_respected(answer_text, direct):
    assert stated_directly(answer_text, q(3.61, "arithmetic")) is direct


@pytest.mark.parametrize(
    ("answer_text", "gold", "direct"),
    [("822.07", 822.06, True), ("6.89", 6.88, True), ("822.05", 822.06, False), ("822.08", 822.06, False),
     ("2.78", 2.7, False), ("6", 5, False), ("-6.89", 6.88, False)],
)  # fmt: skip
def test_a_gold_cut_at_its_last_digit_is_met_by_the_rounded_result(answer_text, gold, direct):
    assert stated_directly(answer_text, q(gold, "arithmetic")) is direct


def test_18_is_not_17_7_percent_and_a_percent_is_not_a_plain_number():
    assert not stated_directly("18%", q(17.7, "arithmetic", "percent"))
    assert stated_directly("17.72%", q(17.7, "arithmetic", "percent"))
    assert not stated_directly("17.7%", q(17.7, "arithmetic", ""))


@pytest.mark.parametrize(
    ("answer_text", "direct", "implicit"),
    [
        ("$412,000,000", True, False),
        ("412 million", True, False),
        ("0.412 billion", True, False),
        ("412 thousand", False, False),
        ("412", True, True),  # the report's scale, left implicit: counted apart
    ],
)
def test_scales_give_the_same_amount(answer_text, direct, implicit):
    gold = q(412, "arithmetic", "million")
    assert stated_directly(answer_text, gold) is direct
    assert scale_implicit(answer_text, gold) is implicit


def test_a_gold_without_a_scale_is_met_by_its_number_in_the_reports_scale():
    """TAT-QA leaves some golds of a table "(in thousands)" without a scale: "163,047 thousand" states them."""
    assert stated_directly("163,047 thousand: Royalties, 2019", q(["163,047"]))
    assert not stated_directly("163,048 thousand", q(["163,047"]))
    assert not stated_directly("16,304.7 thousand", q(["163,047"]))


def test_multi_span_text_items_all_stated():
    gold = q(["Software", "Hardware"], "multi-span")
    assert stated_directly("Software and Hardware", gold)
    assert not stated_directly("Software", gold)
    assert in_answer("The segments:\n\n> Software 1,950; Hardware 300", gold)


# ---- trust classes --------------------------------------------------------------------------

GOLD = q(412, "arithmetic", "million", question="What was the change in revenue?")


def done(answer, grounding="verified", **extra):
    return {"type": "done", "status": "answered", "answer": answer, "grounding": grounding, **extra}


def test_trust_right_needs_a_direct_statement_and_no_flag():
    verdict = classify(GOLD, done("412 million = 1,950 − 1,538"))
    assert verdict.trust == "right" and not verdict.false_alarm and verdict.em == 1.0


@pytest.mark.parametrize(
    ("done_object", "blocks", "flag"),
    [
        (done("412 million", "unsupported", unsupported=["412 million"]), [], "grounding unsupported"),
        (done("412 million", "partly"), [], "grounding partly"),
        (done("412 million", cautions=["Not verified: 412 million is not derived"]), [], "caution"),
        (done("412 million"), [{"type": "answer", "content": "x"}, {"type": "warning", "content": "Not sure"}], "warning block"),
    ],
)  # fmt: skip
def test_a_flagged_right_answer_is_a_false_alarm(done_object, blocks, flag):
    verdict = classify(GOLD, done_object, blocks)
    assert verdict.trust == "evidence_only" and verdict.false_alarm and flag in verdict.flags


def test_a_format_retry_after_an_empty_answer_is_no_caution_on_the_answer():
    """ "Answer:" written empty, the model asked again: the warning comes before any answer."""
    retry = [
        {"type": "answer", "content": ""},
        {"type": "warning", "content": "Unusable model output (the Answer is empty); asking it to fix it."},
        {"type": "answer", "content": "412 million = 1,950 − 1,538"},
    ]
    assert classify(GOLD, done("412 million = 1,950 − 1,538"), retry).trust == "right"
    late = [{"type": "answer", "content": "412"}, {"type": "warning", "content": "Unusable model output"}]
    assert classify(GOLD, done("412 million = 1,950 − 1,538"), late).flagged  # after an answer began: it counts


def test_the_right_figure_inside_a_quote_is_evidence_only():
    verdict = classify(GOLD, done("From report.md:\n\n> Revenue rose by $412 million.", "quoted"))
    assert verdict.trust == "evidence_only" and not verdict.false_alarm and not verdict.flagged


def test_wrong_answers_are_flagged_or_confidently_wrong():
    assert classify(GOLD, done("461 million", "verified")).trust == "confidently_wrong"
    assert classify(GOLD, done("461 million", "none")).trust == "confidently_wrong"
    assert classify(GOLD, done("461 million", "unsupported")).trust == "wrong_flagged"
    assert classify(GOLD, {"status": "error", "answer": ""}).trust == "wrong_flagged"
    assert classify(GOLD, done("I could not find it in the documents.", "none")).trust == "wrong_flagged"
    assert classify(GOLD, done("412 thousand", "verified")).trust == "confidently_wrong"


# ---- the scripted strong model --------------------------------------------------------------


def test_derivations_are_written_out():
    assert derivation_text("(16.6/93.8 ) * 100") == "(16.6 / 93.8) × 100"
    assert derivation_text("1,950-1,538") == "1,950 − 1,538"


@pytest.mark.parametrize(
    "gold",
    [
        q(412, "arithmetic", "million", derivation="1,950-1,538"),
        q(-0.2, "arithmetic", "percent", derivation="((1,568.6-1,571.7)/1,571.7 ) * 100"),
        q(3.61, "arithmetic", derivation="(831.7+1,571.7+93.8)/691.6"),
        q(2, "count", derivation="Software##Hardware"),
        q(["$0.5 million"]),
        q(["2019"], question="Which year had the higher revenue?"),
        q(["1,568.6", "690.5"], "multi-span"),
    ],
)
def test_scripted_right_is_read_as_the_gold_and_wrong_is_not(gold):
    right, wrong = right_answer(gold), wrong_answer(gold)
    assert classify(gold, done(right)).trust == "right"
    assert wrong is not None and wrong != right
    assert classify(gold, done(wrong)).trust == "confidently_wrong"


def test_a_text_answer_has_no_wrong_variant():
    assert wrong_answer(q(["the modified retrospective method"])) is None


def test_the_wrong_figure_is_about_12_percent_off():
    assert wrong_answer(q(412, "arithmetic", "million", derivation="1,950-1,538")) == "461 million = 1,950 − 1,538"


# ---- dataset split and themes ---------------------------------------------------------------


def context(index, n_questions):
    questions = [
        q("x").model_copy(update={"order": n_questions - i, "uid": f"{index}-{i}"}) for i in range(n_questions)
    ]
    return Context(table=Table(table=[["a"]]), paragraphs=[], questions=questions, index=index)


def test_even_contexts_tune_odd_ones_are_held_out_in_file_order():
    contexts = [context(i, 3) for i in range(6)]
    assert [c.index for c in select(contexts, "heldout")] == [1, 3, 5]
    assert [c.index for c in select(contexts, "tune", limit_contexts=2)] == [0, 2]
    assert [c.index for c in select(contexts, "all", limit_contexts=3, skip_contexts=2)] == [2, 3, 4]
    chosen = select(contexts, "heldout", limit_questions=4)
    assert [len(c.questions) for c in chosen] == [3, 1]
    assert [x.order for x in chosen[0].questions] == [1, 2, 3]
    with pytest.raises(ValueError, match="at least 1"):
        select(contexts, "tune", limit_contexts=0)


def _page(table: list[list[str]], paragraphs: dict[int, str]) -> Context:
    """A context without questions: its table and its paragraphs by order, in the given order."""
    return Context(
        table=Table(table=table),
        paragraphs=[Paragraph(order=order, text=text) for order, text in paragraphs.items()],
        questions=[],
        index=0,
    )


def test_the_table_stands_after_the_paragraph_that_introduces_it():
    ctx = _page(
        [["", "2019"], ["Software | licences", "1,950"]],
        {2: "Revenue by segment was as follows (in millions):", 1: "Revenue", 3: "Software grew."},
    )
    text = report_markdown(ctx)
    assert text.index("Revenue\n\n") < text.index("as follows") < text.index("| Software \\| licences |")
    assert text.index("| 1,950 |") < text.index("Software grew.")
    assert markdown_table([["a", "b"], ["c"]]).splitlines() == ["| a | b |", "|---|---|", "| c |  |"]


def test_a_table_introduced_by_a_sentence_without_a_colon_stands_after_it():
    """FinQA's pages write "… is summarized in the following table, in millions." before their table."""
    ctx = _page(
        [["", "Revised"], ["Goodwill", "64"]],
        {
            1: "Masco Corporation notes to consolidated financial statements.",
            2: "The allocation of Kichler is summarized in the following table, in millions.",
            3: "Goodwill is tax deductible.",
        },
    )
    text = report_markdown(ctx)
    assert text.index("following table") < text.index("| Goodwill |") < text.index("tax deductible")
