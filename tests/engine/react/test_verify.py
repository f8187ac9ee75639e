"""Every answer is checked against this run's evidence; a small model's failing answer
is replaced, visibly, by the fact the evidence states (the figure first, one line, the
passage behind its footnote), and every caution about the answer is recorded."""

import pytest

from engine.react.parser import parse_blocks
from engine.react.types import ANSWER_TYPES, ReActType
from engine.tools.function_tool import tool
from engine.tools.results import Passage, ToolResult
from engine.tools.toolkits import general_toolkit
from tests.helpers import call, make_engine, run

POLICY = (
    "Hotels. The hotel cap in Paris is 180 euros per night. Elsewhere in France the cap is 120 euros per night.\n\n"
    "Meals. The meal allowance is 35 euros per day."
)


def docs_tool(text: str = POLICY):
    @tool(name="search_docs")
    def search(query: str) -> ToolResult:
        """Searches the analyst's documents."""
        return ToolResult(text=text, passages=[Passage(source="travel/policy.md", location="Hotels", text=text)])

    return search


def blocks(text, kind):
    return [b.content for b in parse_blocks(text) if b.type is kind]


def test_a_figure_the_evidence_contradicts_is_flagged_and_kept_for_a_large_model():
    engine = make_engine([call("calculator", {"expression": "17 * 23"}), "Thought: done\nAnswer: 17 * 23 = 291."])
    run(engine, "What is 17 * 23?")
    report = engine.result.grounding
    assert engine.result.answer == "17 * 23 = 291."  # never altered silently
    assert report.unsupported == ["291"] and report.grounding == "partly"


def test_a_small_model_wrong_figure_is_replaced_by_the_computed_result():
    engine = make_engine(["Thought: done\nAnswer: 17 * 23 = 291."])  # the engine computed it first
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is 17 * 23?")
    assert engine.result.answer == "391 = 17 * 23 (computed with calculator)"  # the result first, then its derivation
    assert "291" not in engine.result.answer
    assert blocks(text, ReActType.DRAFT) == ["17 * 23 = 291."]  # the replaced answer stays visible, marked
    assert "391" in blocks(text, ReActType.NOTE)[-1]  # with the reason: the computed result it left out
    assert [b for b in parse_blocks(text) if b.type in ANSWER_TYPES][-1].content == engine.result.answer
    assert engine.result.grounding.grounding == "quoted" and not engine.result.grounding.unsupported


def test_a_worked_example_figure_never_answers_an_unrelated_question():
    """The prompt's worked example says 12 * 9 = 108; a small model copying it is caught."""
    engine = make_engine(["Thought: I can answer now.\nAnswer: 12 * 9 = 108."], tools=[*general_toolkit(), docs_tool()])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the hotel cap per night in Paris?")
    assert "108" not in engine.result.answer
    assert "180 euros per night" in engine.result.answer and "travel/policy.md" in engine.result.answer
    assert blocks(text, ReActType.OBSERVATION)  # the engine searched the documents first
    assert engine.llm.calls[0][-1]["content"].startswith("Observation:") or any(
        m.get("role") == "tool" for m in engine.llm.calls[0]
    )
    assert engine.result.grounding.citations[0].source == "travel/policy.md"


def test_a_small_model_with_nothing_that_fits_says_it_could_not_find_it():
    empty = docs_tool("Office hours. The office opens at nine.")
    engine = make_engine(["Answer: The budget is 4,7 M€."], tools=[*general_toolkit(), empty])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What is the 2026 marketing budget?")
    assert "4,7" not in engine.result.answer
    assert engine.result.grounding.grounding == "not_found"
    assert "travel/policy.md" in engine.result.answer  # says what it searched


def test_a_french_answer_states_the_fact_and_its_cautions_in_french():
    engine = make_engine(["Answer: 999 euros."], tools=[*general_toolkit(), docs_tool()], language="fr")
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What is the hotel cap per night in Paris?")
    assert engine.result.answer == "180 euros per night [travel/policy.md, Hotels]"  # the passage's own words
    assert [c.kind for c in engine.result.cautions] == ["replaced"]
    assert engine.result.cautions[0].text.startswith("Ce brouillon donne des chiffres")
    detailed = make_engine(["Answer: 999 euros."], tools=[*general_toolkit(), docs_tool()], language="fr")
    detailed.config = detailed.config.model_copy(update={"detail": "detailed"})
    detailed.llm.abilities = detailed.llm.abilities.model_copy(update={"small": True})
    run(detailed, "What is the hotel cap per night in Paris?")
    assert detailed.result.answer.split("\n\n")[1] == "D'après travel/policy.md (Hotels) :"  # the quote, prefaced


def test_an_invented_source_is_flagged():
    engine = make_engine(
        [call("search_docs", {"query": "hotel cap"}), "Answer: The cap is 180 euros [polcy.md] [made_up.pdf]."],
        tools=[*general_toolkit(), docs_tool()],
    )
    run(engine, "Hotel cap?")
    report = engine.result.grounding
    assert "made_up.pdf" in report.invented_sources and "polcy.md" in report.invented_sources
    assert all(c.source == "travel/policy.md" for c in report.citations)


def test_a_small_model_computation_question_starts_with_the_engine_computing_it():
    engine = make_engine(["Thought: easy.\nAnswer: 17 % 2340 = 17."])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is 17% of 2,340?")
    assert blocks(text, ReActType.OBSERVATION)[0] == "397.8"  # the engine's own calculator call
    assert engine.result.answer.startswith("397.8 = 17 / 100 * 2340")
    assert blocks(text, ReActType.DRAFT) == ["17 % 2340 = 17."]


def test_a_quote_that_may_not_answer_says_so_and_warns():
    """The closest passage is not always the answer: a quote that is not close to the
    question, or lacks the kind of answer asked for, is prefaced as unsure and followed by a warning."""
    notes = "The Lyon office opened in 2023 in the Corbas logistics park. Its site manager is Solène Marchetti."
    engine = make_engine(["Thought: done\nAnswer: 12 * 9 = 108."], tools=[*general_toolkit(), docs_tool(notes)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "Who manages the Lyon site?")
    answer = engine.result.answer
    assert "108" not in answer and "Solène Marchetti" in answer  # the sentence with a name answers "who"
    assert answer == "Not sure: Solène Marchetti [travel/policy.md, Hotels]"  # the name first, the doubt said
    assert "closest passage" in blocks(text, ReActType.WARNING)[-1]
    assert [c.kind for c in engine.result.cautions] == ["replaced", "unsure"]
    assert engine.result.cautions[1].text == blocks(text, ReActType.WARNING)[-1]  # one text, trace and record
    assert [b for b in parse_blocks(text) if b.type in ANSWER_TYPES][-1].content == answer


def test_a_close_quote_of_the_right_kind_is_stated_without_doubt():
    engine = make_engine(["Thought: done\nAnswer: 12 * 9 = 108."], tools=[*general_toolkit(), docs_tool()])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the hotel cap per night in Paris?")
    assert engine.result.answer == "180 euros per night [travel/policy.md, Hotels]"
    assert not any("closest passage" in w for w in blocks(text, ReActType.WARNING))
    assert [c.kind for c in engine.result.cautions] == ["replaced"]


def test_a_small_model_table_question_starts_with_the_engine_query_and_states_its_result(tmp_path):
    """The engine plans the computation the question asks for; a draft without its result is
    replaced by the result with what it is and the rows it comes from."""
    from engine.tools.tables import table_toolkit

    rows = [
        ("2025-01", "Lyon", 1731),
        ("2025-01", "Gdansk", 1949),
        ("2025-02", "Gdansk", 2496),
        ("2025-02", "Lyon", 2240),
    ]
    (tmp_path / "shipments.csv").write_text(
        "month,warehouse,pallets_shipped\n" + "\n".join(",".join(map(str, r)) for r in rows), encoding="utf-8"
    )
    tables = table_toolkit([tmp_path], small_model=True)
    engine = make_engine(["Thought: done\nAnswer: Gdansk shipped 1949 pallets."], tools=[*general_toolkit(), *tables])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the total number of pallets shipped by the Gdansk warehouse?")
    assert blocks(text, ReActType.ACTION)[0] == "compute_table"  # the engine's own query, before the model
    assert engine.result.answer == (
        "4,445: sum of pallets_shipped (warehouse = Gdansk) (shipments.csv, warehouse = Gdansk; 2 rows) "
        "(computed with compute_table)"
    )
    assert blocks(text, ReActType.DRAFT) == ["Gdansk shipped 1949 pallets."]


def test_a_table_total_that_ignores_the_period_asked_is_not_stated_as_sure(tmp_path):
    from engine.tools.tables import table_toolkit

    (tmp_path / "shipments.csv").write_text(  # no column dates the rows: the month asked cannot be applied
        "warehouse,pallets_shipped\nGdansk,1949\nGdansk,2496\nLyon,2240", encoding="utf-8"
    )
    engine = make_engine(
        ["Thought: done\nAnswer: About 1949 pallets."],
        tools=[*general_toolkit(), *table_toolkit([tmp_path], small_model=True)],
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the total number of pallets shipped by Gdansk in February 2025?")
    assert engine.result.answer.startswith(  # what was computed, said plainly, result first
        "4,445: sum of pallets_shipped (warehouse = Gdansk) (shipments.csv, warehouse = Gdansk; 2 rows)"
    )
    assert "does not filter on the period" in blocks(text, ReActType.WARNING)[-1]
    assert [c.kind for c in engine.result.cautions] == ["replaced", "filter"]  # the filter it ignored, on record


def test_a_draft_that_states_a_result_ignoring_the_period_keeps_the_caution(tmp_path):
    """The model echoes the engine's total, so its answer stands; the month the plan could
    not apply is still a caution on record (the stored turn, the CLI and every export carry it)."""
    from engine.tools.tables import table_toolkit

    (tmp_path / "shipments.csv").write_text(
        "warehouse,pallets_shipped\nGdansk,1949\nGdansk,2496\nLyon,2240", encoding="utf-8"
    )
    engine = make_engine(
        ["Thought: done\nAnswer: Gdansk shipped 4,445 pallets."],
        tools=[*general_toolkit(), *table_toolkit([tmp_path], small_model=True)],
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the total number of pallets shipped by Gdansk in February 2025?")
    assert engine.result.answer == "Gdansk shipped 4,445 pallets."  # kept: it states the computed result
    assert [c.kind for c in engine.result.cautions] == ["filter"]
    assert "does not filter on the period" in engine.result.cautions[0].text
    assert "does not filter on the period" in blocks(text, ReActType.WARNING)[-1]  # the raw stream (CLI text) too


REPORT_NOTE = (
    "Stock-based compensation. The following table presents total stock-based compensation cost.\n\n"
    "| ($ in millions) | 2019 | 2018 |\n|---|---|---|\n| Cost | $100 | $82 |\n"
    "| Selling, general and administrative | 453 | 361 |\n\n"
    "Total unrecognized compensation cost related to non-vested awards at December 31, 2019 was $1.2 billion.\n\n"
    "Capitalized stock-based compensation cost was not material at December 31, 2019."
)


def _report_engine(tmp_path, answer: str):
    from engine.tools.tables import table_toolkit

    (tmp_path / "report.md").write_text(REPORT_NOTE, encoding="utf-8")
    tools = [*general_toolkit(), *table_toolkit([tmp_path], small_model=True), docs_tool(REPORT_NOTE)]
    engine = make_engine([f"Thought: done\nAnswer: {answer}"], tools=tools)
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    return engine


@pytest.mark.parametrize(
    "question",
    [
        "What was the Total unrecognized compensation cost related to non-vested awards at December 31, 2019?",
        "What was the amount of capitalized stock-based compensation cost in December 31, 2019?",
    ],
)
def test_a_planned_cell_a_sentence_states_otherwise_is_not_sure(tmp_path, question):
    """The plan reads the row "Cost" for a subject a sentence names in full, with another figure
    (or none): the planned figure is cautioned with that sentence, in the stream and on record."""
    engine = _report_engine(tmp_path, "100 million: Cost, 2019")
    text = run(engine, question)
    assert blocks(text, ReActType.ACTION)[0] == "compute_table"
    warning = blocks(text, ReActType.WARNING)[-1]
    assert "states otherwise" in warning and "December 31, 2019" in warning
    assert [c.kind for c in engine.result.cautions if c.about_answer] == ["unsure"]


def test_a_planned_cell_of_the_questions_own_row_is_not_questioned_by_a_sentence(tmp_path):
    engine = _report_engine(tmp_path, "453 million: Selling, general and administrative, 2019")
    text = run(engine, "What was the selling, general and administrative cost in 2019?")
    assert engine.result.answer.startswith("453 million")
    assert not blocks(text, ReActType.WARNING) and not [c for c in engine.result.cautions if c.about_answer]


def test_a_small_model_answer_without_the_kind_asked_for_is_replaced():
    """ "Who" answered without a name, "how long" without a duration: the model ignored the evidence."""
    notes = "Backups are kept for 32 days. The Lyon site is managed by Solène Marchetti."
    engine = small_engine(["Thought: done\nAnswer: I can answer now."], notes)
    text = run(engine, "How long are backups kept?")
    assert blocks(text, ReActType.DRAFT) == ["I can answer now."]
    assert "32 days" in engine.result.answer


def test_a_small_model_bare_figure_for_a_name_asked_is_replaced():
    """ "Which assets …?" answered "820": a number of the evidence ("ASC 820") names no asset."""
    notes = "Assets measured at fair value under ASC 820 include goodwill and other intangible assets."
    engine = small_engine(["Thought: done\nAnswer: 820"], notes)
    run(engine, "Which assets are measured at fair value?")
    assert engine.result.answer.strip() != "820" and "goodwill" in engine.result.answer


def test_a_small_model_one_figure_for_the_respective_values_of_two_is_replaced():
    """ "The respective unrealized gains of municipal and corporate bonds" answered "13": one of the two."""
    notes = "| | Municipal bonds | Corporate bonds |\n|---|---|---|\n| Unrealized gains | 13 | 23 |"
    engine = small_engine(["Thought: done\nAnswer: 13"], notes)
    text = run(engine, "What are the respective unrealized gains of the municipal and corporate bonds?")
    assert blocks(text, ReActType.DRAFT) == ["13"]
    assert "23" in engine.result.answer
    assert any("asks for each of several" in c.text for c in engine.result.cautions)
    both = small_engine(["Thought: done\nAnswer: 13 and 23"], notes)
    run(both, "What are the respective unrealized gains of the municipal and corporate bonds?")
    assert not any("asks for each of several" in c.text for c in both.result.cautions)


def test_a_small_model_one_figure_for_a_level_asked_in_two_years_is_replaced():
    """ "What was X in 2019 and 2018?" answered "15,400,475.": one year's cell of the two asked."""
    notes = "| | 2019 | 2018 |\n|---|---|---|\n| Technology development costs | 18,649,161 | 15,400,475 |"
    engine = small_engine(["Thought: done\nAnswer: 15,400,475."], notes)
    run(engine, "What was the Technology development costs in 2019 and 2018?")
    assert any("asks for each of several" in c.text for c in engine.result.cautions)
    change = small_engine(["Thought: done\nAnswer: 3,248,686"], notes)
    run(change, "What was the change in Technology development costs between 2019 and 2018?")  # one figure asked
    assert not any("asks for each of several" in c.text for c in change.result.cautions)


def test_a_small_model_figure_from_the_wrong_sentence_is_replaced():
    """180 stands in the evidence, but not in the sentence that answers the question."""
    engine = make_engine(
        ["Thought: done\nAnswer: The meal allowance is 180 euros."], tools=[*general_toolkit(), docs_tool()]
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the meal allowance per day?")
    assert blocks(text, ReActType.DRAFT) == ["The meal allowance is 180 euros."]
    assert "35 euros per day" in engine.result.answer and "180" not in engine.result.answer


REVENUE = (
    "Revenue by segment, in EUR thousand.\n\n"
    "| Segment | 2019 | 2018 |\n|---|---|---|\n| Software | 1,950 | 1,538 |\n| Hardware | 820 | 905 |"
)


def small_engine(script, text, **config):
    engine = make_engine(script, tools=[*general_toolkit(), docs_tool(text)], **config)
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    return engine


def test_a_row_with_several_years_when_the_question_names_none_is_not_sure_with_labelled_candidates():
    engine = small_engine(["Answer: Software revenue was 999."], REVENUE)
    text = run(engine, "What was the revenue of the Software segment?")
    answer = engine.result.answer
    assert answer == (
        "Not sure which figure answers this: 1,950 (Software, 2019); 1,538 (Software, 2018) [travel/policy.md, Hotels]"
    )
    assert [c.kind for c in engine.result.cautions] == ["replaced", "several"]
    assert "several figures" in blocks(text, ReActType.WARNING)[-1]  # in the trace, and on record
    assert not engine.result.grounding.unsupported


DILUTIVE = (
    "Reconciliations of the weighted average shares outstanding for the years ended April 30, 2019 and 2018, "
    "respectively, were as follows (in thousands). The effect of dilutive securities for 2019 and 2018 would "
    "have been 242,874 and 127,536, respectively."
)


def test_the_figure_of_each_year_asked_respectively_is_the_answer_not_several_candidates():
    engine = small_engine(["Answer: 999 and 998."], DILUTIVE)
    run(engine, "What would have been the effect of dilutive securities for 2019 and 2018 respectively?")
    assert engine.result.answer.startswith("242,874 (2019); 127,536 (2018)")
    assert [c.kind for c in engine.result.cautions if c.about_answer] == []  # no "Not sure which figure"
    reversed_years = small_engine(["Answer: 999 and 998."], DILUTIVE)
    run(reversed_years, "What would have been the effect of dilutive securities for 2018 and 2019 respectively?")
    assert reversed_years.result.answer.startswith("127,536 (2018); 242,874 (2019)")  # in the question's order
    change = small_engine(["Answer: 999."], DILUTIVE)
    run(change, "What is the change in the effect of dilutive securities between 2018 and 2019?")
    assert change.result.answer.startswith("115,338 = 242,874 − 127,536")  # a change is computed, not the two figures
    assert "several" not in [c.kind for c in change.result.cautions]


def test_a_small_models_words_that_only_repeat_the_years_asked_do_not_agree_with_the_figures():
    """ "… for 2019 and 2018, respectively, was not significant": no figure of the passage, only the question's years."""
    engine = small_engine(
        ["Answer: The effect of dilutive securities for the years ended April 30, 2019 and 2018 was not significant."],
        DILUTIVE,
    )
    text = run(engine, "What would have been the effect of dilutive securities for 2019 and 2018 respectively?")
    assert blocks(text, ReActType.DRAFT)  # the draft is set aside
    assert "242,874" in engine.result.answer and "not significant" not in engine.result.answer


LIFO = (
    "If the FIFO method of inventory had been used instead of the LIFO method, inventories would have been "
    "$178.4 million and $210.3 million higher as of June 30, 2019 and 2018, respectively. The reductions in "
    "LIFO-valued inventories decreased cost of sales by $0.0 million during fiscal year 2019 and $0.6 million "
    "during fiscal year 2018."
)


def test_another_sentences_amounts_that_share_only_its_years_do_not_agree():
    """The model quotes the FIFO sentence for a question about the reductions: the years match, no amount does."""
    wrong = small_engine(["Answer: 178.4 million and $210.3 million higher as of June 30, 2019 and 2018."], LIFO)
    text = run(wrong, "What was the effect of reductions in LIFO-valued inventories?")
    assert blocks(text, ReActType.DRAFT) and "178.4" not in wrong.result.answer
    right = small_engine(["Answer: Cost of sales decreased by 0.6 million in fiscal 2018."], LIFO)
    text = run(right, "What was the effect of reductions in LIFO-valued inventories in 2018?")
    assert not blocks(text, ReActType.DRAFT)  # "0.6 million" is the passage's "$0.6 million"
    assert right.result.answer.startswith("Cost of sales decreased by 0.6 million")


def test_the_year_the_question_names_picks_the_cell_and_its_footnote_opens_the_row():
    engine = small_engine(["Answer: Software revenue was 999."], REVENUE)
    run(engine, "What was the revenue of the Software segment in 2019?")
    report = engine.result.grounding
    assert engine.result.answer == "1,950 (Software, 2019) [travel/policy.md, Hotels]"  # one line, the figure first
    assert "\n" not in engine.result.answer and ">" not in engine.result.answer  # no quote as the body
    figure = next(f for f in report.figures if f.text == "1,950")
    cited = report.citations[figure.citation - 1]
    assert "Software" in cited.quote and "1,538" in cited.quote  # the row is behind the footnote
    assert [c.kind for c in engine.result.cautions] == ["replaced"]


def test_a_sentence_with_three_amounts_and_no_year_asked_lists_them_all():
    notes = "Marketing. The events budget was EUR 120,000 in 2023, EUR 95,000 in 2022 and EUR 80,000 in 2021."
    engine = small_engine(["Answer: The budget is 4,7 M€."], notes)
    run(engine, "What is the events budget?")
    answer = engine.result.answer
    assert answer.startswith("Not sure which figure answers this: EUR 120,000 (")
    assert "EUR 95,000 (in 2022)" in answer and "EUR 80,000 (in 2021)" in answer
    assert "several" in [c.kind for c in engine.result.cautions]
    pinned = small_engine(["Answer: The budget is 4,7 M€."], notes)
    run(pinned, "What was the events budget in 2022?")
    assert pinned.result.answer == "EUR 95,000 [travel/policy.md, Hotels]"
    assert "several" not in [c.kind for c in pinned.result.cautions]


def test_the_detail_level_changes_quoted_and_computed_answers():
    answers = {}
    for detail in ("brief", "normal", "detailed"):
        engine = small_engine(["Thought: done\nAnswer: 12 * 9 = 108."], POLICY, detail=detail)
        run(engine, "What is the hotel cap per night in Paris?")
        answers[detail] = engine.result.answer
    assert answers["brief"] == "180 euros per night"
    assert answers["normal"] == "180 euros per night [travel/policy.md, Hotels]"
    assert answers["detailed"].startswith(answers["normal"] + "\n\nFrom travel/policy.md (Hotels):\n\n> ")
    assert "The hotel cap in Paris is 180 euros per night." in answers["detailed"]
    computed = {}
    for detail in ("brief", "normal", "detailed"):
        engine = make_engine([call("calculator", {"expression": "17 * 23"}), "Answer: 17 * 23 = 291."], detail=detail)
        engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
        run(engine, "What is 17 * 23?")
        computed[detail] = engine.result.answer
        assert not engine.result.grounding.unsupported
    assert computed["brief"] == "391"
    assert computed["normal"] == "391 = 17 * 23 (computed with calculator)"
    assert computed["detailed"].startswith(computed["normal"] + "\n\nComputed with calculator:")


def test_a_large_model_unsupported_figure_is_a_caution_on_record():
    engine = make_engine([call("calculator", {"expression": "17 * 23"}), "Thought: done\nAnswer: 17 * 23 = 291."])
    run(engine, "What is 17 * 23?")
    assert engine.result.answer == "17 * 23 = 291."  # kept as written
    assert [c.model_dump(exclude={"draft_only"}) for c in engine.result.cautions] == [
        {"kind": "unsupported", "text": "Not verified: 291 does not follow from 17 * 23, which is 391."}
    ]
    clean = make_engine([call("calculator", {"expression": "17 * 23"}), "Thought: done\nAnswer: 17 * 23 = 391."])
    run(clean, "What is 17 * 23?")
    assert clean.result.cautions == []  # a right answer is not flagged


def test_not_found_is_a_caution_on_record():
    empty = docs_tool("Office hours. The office opens at nine.")
    engine = make_engine(["Answer: The budget is 4,7 M€."], tools=[*general_toolkit(), empty], language="fr")
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What is the 2026 marketing budget?")
    assert [c.kind for c in engine.result.cautions] == ["replaced", "not_found"]
    assert engine.result.cautions[-1].text.startswith("Introuvable")


def test_the_footnote_opens_the_row_the_figure_was_picked_from_not_another_row_holding_it():
    table = (
        "Revenue.\n\n| Segment | 2019 | 2018 |\n|---|---|---|\n| Hardware | 1,538 | 905 |\n| Software | 1,950 | 1,538 |"
    )
    engine = small_engine(["Answer: Software revenue was 999."], table)
    run(engine, "What was the revenue of the Software segment in 2018?")
    report = engine.result.grounding
    assert engine.result.answer == "1,538 (Software, 2018) [travel/policy.md, Hotels]"
    assert [c.quote for c in report.citations] == ["| Segment | 2019 | 2018 |\n| Software | 1,950 | 1,538 |"]
    assert [f.citation for f in report.figures] == [1]


REPORT_ROWS = """ | Year ended December 31, |
 | 2019 | 2018
Software | 1,950 | 1,538
Other | 44.1 | 56.7
Total | 1,994.1 | 1,594.7"""


def _table_steps():
    from engine.react.step import Observation, Step

    obs = Observation(call_id="c1", tool="query_table", text=REPORT_ROWS, n=1, computed=True)
    return [Step(number=1, observations=[obs])]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Not verified: 56.7 is Other, 2018, not Total, 2019."),
        ("fr", "Non vérifié : 56.7 correspond à Other, 2018, et non à Total, 2019."),
    ],
)
def test_a_strong_model_figure_from_another_row_is_a_caution_saying_where(language, expected):
    from engine.react.verify import review

    checked = review(
        "Total revenue was 56.7 in 2019.", "What was the Total revenue in 2019?", _table_steps(),
        small=False, language=language, embed=None,
    )  # fmt: skip
    assert checked.answer == "Total revenue was 56.7 in 2019."  # a strong model's answer stands, flagged
    assert [(c.kind, c.text) for c in checked.cautions] == [("unsupported", expected)]


def test_a_strong_model_derived_figure_is_vouched_with_its_derivation():
    from engine.react.verify import review

    checked = review(
        "Software revenue grew by 412 from 2018 to 2019.", "What was the change in Software revenue from 2018 to 2019?",
        _table_steps(), small=False, language="en", embed=None,
    )  # fmt: skip
    assert checked.cautions == []
    assert checked.report.grounding == "verified"
    derived = [c for c in checked.report.citations if c.derivation]
    assert derived and "412 = 1,950 − 1,538" in derived[0].derivation


def test_which_region_is_lowest_names_the_region_and_its_grouped_total():
    """The demo theme's sales table: the rows of Q2 are summed by region and the smallest
    total is stated with its region, not the smallest single row."""
    from pathlib import Path

    from engine.tools.tables import table_toolkit

    handbook = Path(__file__).resolve().parents[3] / "data" / "themes" / "handbook"
    engine = make_engine(
        ["Thought: done\nAnswer: The lowest revenue was 141,600."],  # the smallest single Q1 row
        tools=[*general_toolkit(), *table_toolkit([handbook], small_model=True)],
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "Which region had the lowest revenue in Q2 2025?")
    assert engine.result.answer.startswith("Export, €960,800: lowest revenue_eur by region (quarter in Q2)")
    assert [c.kind for c in engine.result.cautions] == ["replaced"]


@pytest.mark.parametrize(
    ("language", "answer", "expected"),
    [
        ("en", "412 = 1,950 − 1,538", []),
        (
            "en",
            "461 = 1,950 − 1,538",
            [("unsupported", "Not verified: 461 does not follow from 1,950 − 1,538, which is 412.")],
        ),
        (
            "fr",
            "461 = 1,950 − 1,538",
            [("unsupported", "Non vérifié : 461 ne découle pas de 1,950 − 1,538, qui vaut 412.")],
        ),
    ],
)
def test_a_strong_model_stated_derivation_is_checked_and_one_caution_says_its_real_value(language, answer, expected):
    from engine.react.verify import review

    checked = review(
        answer, "What was the change in Software revenue from 2018 to 2019?", _table_steps(),
        small=False, language=language, embed=None,
    )  # fmt: skip
    assert checked.answer == answer
    assert [(c.kind, c.text) for c in checked.cautions] == expected
    if not expected:
        assert [c.derivation for c in checked.report.citations if c.derivation] == ["412 = 1,950 − 1,538"]


def test_a_question_asking_for_words_is_not_answered_by_the_figures_of_a_row():
    """ "What do the figures exclude?" answered "270.3 = 285.0 | 296.4": every figure is in the
    evidence, yet it answers nothing; the sentence that says it replaces it."""
    text = (
        "Operating profit. The figures in the table exclude the acquisition of Thermocoax.\n\n"
        "| | Actual | Target |\n|---|---|---|\n| Group operating profit | 277.3 | 270.3 |"
    )
    engine = make_engine(["Answer: 270.3 = 277.3 | 270.3"], tools=[*general_toolkit(), docs_tool(text)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    out = run(engine, "What do the figures in the table exclude?")
    assert "exclude the acquisition of Thermocoax" in engine.result.answer
    assert "|" not in engine.result.answer.split("\n")[0]
    assert blocks(out, ReActType.DRAFT) == ["270.3 = 277.3 | 270.3"]  # kept, marked as a draft
    assert [c.kind for c in engine.result.cautions] == ["replaced"]
    # the sentence restates the question word for word: the document's own answer, so why the
    # draft was replaced is a note about the draft, not a caution about the answer
    assert not engine.result.cautions[0].about_answer


def test_a_sentence_that_does_not_restate_the_question_stays_a_caution_on_the_answer():
    """The closest sentence to "When is revenue recognized?" speaks of milestones recorded
    as revenue: it may not answer, so why the draft was replaced stays a caution."""
    text = (
        "Revenue. The achievement of milestones under the license agreements will be recorded as revenue "
        "during the period the achievement becomes probable, which may result in earlier recognition."
    )
    engine = make_engine(["Answer: 12 months"], tools=[*general_toolkit(), docs_tool(text)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What are the milestones recognized as revenue based on?")
    assert "milestones" in engine.result.answer
    assert [c.kind for c in engine.result.cautions if c.about_answer] == ["replaced"]


def test_why_the_draft_was_replaced_is_a_note_not_a_caution_about_the_answer():
    engine = make_engine(["Thought: done\nAnswer: 17 * 23 = 291."])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is 17 * 23?")
    assert blocks(text, ReActType.WARNING) == []  # the computed answer that replaced it holds: nothing to caution
    assert "391" in blocks(text, ReActType.NOTE)[0]
    assert [(c.kind, c.about_answer) for c in engine.result.cautions] == [("replaced", False)]


def test_a_worded_answer_that_says_something_else_than_the_passage_is_replaced_by_it():
    text = "Adoption. The Company adopted Topic 606 on May 26, 2019 using the modified retrospective method."
    wrong = "Answer: The effect of the changes made to our balance sheet was small."
    engine = make_engine([wrong], tools=[*general_toolkit(), docs_tool(text)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What method did the company use when Topic 606 was adopted?")
    assert "modified retrospective method" in engine.result.answer
    right = "Answer: It used the modified retrospective method."
    engine = make_engine([right], tools=[*general_toolkit(), docs_tool(text)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What method did the company use when Topic 606 was adopted?")
    assert engine.result.answer.startswith("It used the modified retrospective method.")  # it says it: it stands


def test_a_computation_from_figures_of_nowhere_is_no_evidence():
    """A small model computing "1654 / 23" (no document or question holds them) is not vouched for."""
    engine = make_engine(
        [call("calculator", {"expression": "1654 / 23"}), "Answer: 71.91304348"],
        tools=[*general_toolkit(), docs_tool()],
    )
    run(engine, "What is the average hotel cap?")
    assert engine.result.grounding.grounding != "verified"
    assert "71.91304348" in engine.result.grounding.unsupported
    engine = make_engine([call("calculator", {"expression": "(180 + 120) / 2"}), "Answer: 150"])
    run(engine, "What is the average of 180 and 120?")  # the question gives them: the result holds
    assert engine.result.grounding.grounding == "verified"


def test_a_small_model_dumping_a_row_is_replaced_by_what_the_evidence_states():
    row = "Indicator | 2019 actual | 2019 threshold | 2019 target | 2019 maximum\nEPS (%) | 57.5 | 27.6 | 40.1 | 52.3"
    dump = "Answer: EPS (%), 2019 actual: 57.5, 2019 threshold: 27.6, 2019 target: 40.1, 2019 maximum: 52.3"
    engine = make_engine([dump], tools=[*general_toolkit(), docs_tool(row)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What was the 2019 threshold of EPS?")
    assert "lists figures without saying which one" in blocks(text, ReActType.NOTE)[0]
    assert engine.result.answer.startswith("27.6")


def test_a_small_model_answering_with_cells_of_a_markdown_row_is_replaced():
    notes = (
        "Shares. | 2019 | 8,841,166 |\n\nThe exercisable shares excluded for 2019 and 2018 are 1,216,000 and 1,259,500."
    )
    engine = make_engine(["Answer: 2019 | 8,841,166 |"], tools=[*general_toolkit(), docs_tool(notes)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the total number of exercisable shares excluded for 2019 and 2018 altogether?")
    assert "lists figures without saying which one" in blocks(text, ReActType.NOTE)[0]
    assert "| 8,841,166 |" not in engine.result.answer


def test_a_small_model_copying_a_table_under_a_sentence_is_replaced():
    table = "|  | Gross | Net |\n|---|---|---|\n| Underlying rights | 3.4 | 1.9 |\n| Certifications | 3.5 | 3.5 |"
    copied = "Answer: The net underlying rights as of June 30, 2019 were as follows:\n\n|  | Gross | Net |\n|  | (in millions) |  |"
    engine = make_engine([copied], tools=[*general_toolkit(), docs_tool(table)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What is the net total underlying rights as of June 30, 2019?")
    assert "lists figures without saying which one" in blocks(text, ReActType.NOTE)[0]
    assert "| (in millions) |" not in engine.result.answer


def test_a_small_model_copying_an_observation_with_the_engines_notes_is_replaced():
    """The cut note and the search header are written by the engine alone: an answer holding
    one copied an Observation, even when its first figure stands in the evidence."""
    notes = (
        "Borrowings. Notes payable increased due to the fiscal 2018 issuance of long-term senior notes of "
        "$10.0 billion, and the fiscal 2017 issuance of long-term senior notes of $14.0 billion."
    )
    for copied in (
        "10.0 billion [… 2017 more characters cut]",
        "10.0 billion\n[1] source: travel/policy.md · 2017 · score 14.0",
    ):
        engine = make_engine(
            [f"Answer: {copied}\nNotes payable increased"], tools=[*general_toolkit(), docs_tool(notes)]
        )
        engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
        text = run(engine, "What was the total value of long-term senior notes issued in fiscal 2018 and fiscal 2017?")
        assert "lists figures without saying which one" in blocks(text, ReActType.NOTE)[0], copied
        assert "characters cut" not in engine.result.answer and "score" not in engine.result.answer


def test_a_which_year_question_stated_by_a_row_without_its_years_is_not_sure():
    text = "Share of net earnings in Golar Partners | 7,001 | 17,702 | (10,701) | (60)%"
    engine = make_engine(["Answer: 12 * 9 = 108."], tools=[*general_toolkit(), docs_tool(text)])
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "In which year was the share of net earnings in Golar Partners higher?")
    assert engine.result.answer.startswith("Not sure")
    assert [c.kind for c in engine.result.cautions if c.about_answer]  # flagged, with Thoughts hidden too


def test_a_small_models_words_on_what_a_table_shows_are_a_caution_never_a_fact():
    """What a table shows is said by its title and headings; a sentence the model copied from
    the passages near it ("the loan is secured by …") must not stand as if verified."""
    loan = docs_tool("Loans. The loan is secured by the equipment, and the outstanding balance is $35.")
    engine = make_engine(
        ["Answer: The loan is secured by the equipment, and the outstanding balance is $35."],
        tools=[*general_toolkit(), loan],
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What does the table show?")
    kinds = [c.kind for c in engine.result.cautions]
    assert "unsure" in kinds, engine.result.cautions
    assert any("title and headings" in c.text for c in engine.result.cautions)
    engine = make_engine(
        ["Answer: The hotel cap in Paris is 180 euros per night."], tools=[*general_toolkit(), docs_tool()]
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What is the hotel cap per night in Paris?")
    assert not any("title and headings" in c.text for c in engine.result.cautions)  # a fact asked: no such caution


def test_what_a_row_represents_quoted_as_its_figures_is_not_sure():
    """ "What does X represent?" answered by X's row of figures: the row is the closest quote,
    but it does not say what X is, so the answer carries a caution with Thoughts hidden too."""
    table = ": ; FY19: $M; FY18: $M; Change: %\n: Shareholder distributions – dividends1; FY19: 23.9; FY18: 21.8; Change: 10%"
    engine = make_engine(
        [call("search_docs", {"query": "dividends"})] * 2, tools=[*general_toolkit(), docs_tool(table)]
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, "What does shareholder distributions - dividends in the table represent?")
    assert [c.kind for c in engine.result.cautions if c.about_answer], engine.result.answer


def test_what_a_table_shows_is_the_sentence_the_report_writes_over_it():
    """ "What does the table show?": the report's own "… is as follows:" says it, no caution."""
    text = (
        "NOTE 5. INCOME TAXES\n\nThe geographic distribution of pretax income from continuing operations is as "
        "follows:\n\n| | 2019 | 2018 |\n|---|---|---|\n| Domestic | (20,597) | 22,325 |\n| Foreign | 87,791 | 150,051 |"
    )
    engine = small_engine(["Thought: done\nAnswer: It shows 2019."], text)
    run(engine, "What does the table show?")
    assert "geographic distribution of pretax income" in engine.result.answer
    assert not [c for c in engine.result.cautions if c.about_answer]


def test_a_sentence_that_only_leads_into_a_table_is_no_sure_answer_to_another_question():
    """ "What are the 4 assumptions shown in the table?" quoted "These assumptions are estimated as follows:": not sure."""
    text = (
        "These assumptions are estimated as follows:\n\n| | 2019 | 2018 |\n|---|---|---|\n"
        "| Expected volatility | 31% | 29% |\n| Risk-free interest rate | 1.9% | 2.6% |"
    )
    engine = small_engine(["Thought: done\nAnswer: The assumptions are 45% and 7%."], text)  # unsupported: replaced
    run(engine, "What are the 4 assumptions shown in the table?")
    assert "estimated as follows" in engine.result.answer  # the passage the question points to, quoted
    assert "unsure" in [c.kind for c in engine.result.cautions if c.about_answer], engine.result.answer


def test_a_passage_not_sure_to_answer_with_several_figures_says_not_sure_once():
    table = (
        "Assumptions:\n\n| | December 31, 2018 | December 31, 2019 |\n|---|---|---|\n| Exercise price | 1.25 | 1.25 |\n"
        "| Expected volatility | 152% | 133% |\n| Contractual term | about two yrs | one yr |\n"
    )
    engine = small_engine(["Answer: The exercise price did not change."], table)
    run(engine, "What is the percentage change in exercise price between 2018 and 2019?")
    assert engine.result.answer.startswith("Not sure which figure answers this: ")
    assert engine.result.answer.count("Not sure") == 1
    assert "several" in [c.kind for c in engine.result.cautions]


def test_a_row_stated_whole_with_no_candidate_figure_is_not_sure(monkeypatch):
    """A table row dumped as the answer (no cell of it is the figure asked) never reads as the fact."""
    from engine.grounding.facts import Fact
    from engine.grounding.models import Quote
    from engine.react import fact_answer

    dump = "Deferred revenue, 31 March 2019: 40.9, 31 March 2018: 40.0"
    monkeypatch.setattr(
        fact_answer, "stated_fact", lambda question, quote: Fact(candidates=[], statement=dump, row=True)
    )
    quote = Quote(text=dump, evidence=1, source="table.csv", location="rows 1-14", score=0.9, preface="From table.csv:")
    line, _, _ = fact_answer.fact_line("What was the change in deferred revenue in 2019 from 2018?", quote, "en")
    assert line.startswith("Not sure: Deferred revenue, 31 March 2019: 40.9")


def test_a_yes_or_no_question_answered_by_figures_alone_is_replaced_and_not_sure():
    returns = "| Total return | 2019 | 2018 |\n|---|---|---|\n| 2019 peer group | 281.09 | 224.73 |"
    engine = small_engine(["Answer: 281.09; 224.73"], returns)
    text = run(engine, "Was the total return of the 2019 peer group greater in 2019 than in 2018?")
    assert blocks(text, ReActType.DRAFT) == ["281.09; 224.73"]
    assert "asks yes or no" in engine.result.cautions[0].text
    assert engine.result.answer.startswith("Not sure")  # the quote's figures say no more than the draft's
    said = small_engine(["Answer: Yes: 281.09 in 2019 against 224.73 in 2018."], returns)
    run(said, "Was the total return of the 2019 peer group greater in 2019 than in 2018?")
    assert not any("yes or no" in c.text for c in said.result.cautions)


def test_a_total_quoted_for_a_figure_per_unit_is_not_sure():
    text = "Our ships call on approximately 455 destinations on all seven continents."
    engine = small_engine(["Answer: approximately 455 destinations"], text)
    run(engine, "Assuming each continent has the same number of destinations, how many does each continent have?")
    assert engine.result.answer.startswith("Not sure")
    assert any(c.about_answer for c in engine.result.cautions)


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("Did Software revenue increase from 2018 to 2019?", "Yes: 412 = 1,950 − 1,538"),
        ("Did Hardware revenue increase from 2018 to 2019?", "No: -85 = 820 − 905"),
        ("Did Hardware revenue decrease from 2018 to 2019?", "Yes: 85 = 905 − 820"),
    ],
)
def test_a_yes_no_question_on_a_direction_is_answered_by_the_computed_change(tmp_path, question, verdict):
    from engine.tools.tables import table_toolkit

    (tmp_path / "revenue.csv").write_text("Segment,2019,2018\nSoftware,1950,1538\nHardware,820,905\n", encoding="utf-8")
    engine = make_engine(
        ["Thought: done\nAnswer: 1,950"], tools=[*general_toolkit(), *table_toolkit([tmp_path], small_model=True)]
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    run(engine, question)
    assert engine.result.answer.startswith(verdict), engine.result.answer
    assert not any(c.kind == "unsure" for c in engine.result.cautions)


def test_a_computation_that_does_not_name_what_is_asked_says_so_not_a_period(tmp_path):
    """The plan read a cell of the row the question names ("Total assets") for a measure of it
    ("the return on total assets"): the doubt is the measure, and the caution says that."""
    from engine.tools.tables import table_toolkit

    (tmp_path / "assets.csv").write_text(
        "item,2013,2014\nNet income,300,280\nTotal assets,6239,6190\n", encoding="utf-8"
    )
    engine = make_engine(
        ["Thought: done\nAnswer: About 5%."], tools=[*general_toolkit(), *table_toolkit([tmp_path], small_model=True)]
    )
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    text = run(engine, "What was the return on total assets during 2013?")
    assert engine.result.answer.startswith("6,239: Total assets, 2013")  # the cell read, result first
    assert [c.kind for c in engine.result.cautions] == ["replaced", "unsure", "unsupported"]
    assert "do not name what the question asks for" in engine.result.cautions[1].text
    assert "but not as the return" in engine.result.cautions[2].text
    assert "does not filter on the period" not in text
