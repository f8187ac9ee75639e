"""Evidence-first quoting: units, the best unit for a question (real embedding model), messages."""

import pytest

from engine.grounding import Evidence, best_quote, not_found_message, split_units
from engine.grounding.figures import extract_figures
from engine.grounding.quotes import _restatement, asks_for_figure

TRAVEL = (
    "Analysts book rail for any trip under four hours. Air travel needs the approval of the team lead. "
    "Hotel costs are capped at 160 euros per night in Paris and London, and 120 euros per night elsewhere. "
    "The meal allowance (per diem) is 45 euros per day."
)
FIGURES = (
    "Fiscal year 2025 (January to December) closed with revenue of 48.2 million euros, up 7.4% on 2024. "
    "The company employs 312 people, 41 of them in the analytics and finance team.\n\n"
    "The customer churn rate for 2025 was 6.1%, against a target of 5%."
)
CALENDAR = (
    "The monthly close happens on the fifth business day of the following month. Any restatement of a "
    "published figure needs the approval of the head of financial planning, currently Margaux Levasseur."
)
TELETRAVAIL = (
    "Les analystes peuvent télétravailler jusqu'à trois jours par semaine. Le mardi est le jour de présence "
    "commun à Lyon, pour la réunion d'équipe de 10 h."
)
OBJECTIFS = (
    "L'objectif de chiffre d'affaires 2026 est de 52 millions d'euros, soit une croissance de 7,9 %. "
    "La marge brute visée est de 39,5 %. Le taux d'attrition ciblé reste de 5 %."
)
TABLE = "quarter,region,product,revenue_eur\nQ1,France,Centrifuges,1564200\nQ1,Benelux,Pipettes,794300"


@pytest.fixture(scope="module")
def embed():
    """The embedding function the engine hands to the quote ranking (with its similarity range)."""
    from engine.context import EngineContext

    return EngineContext().embed


@pytest.fixture(scope="module")
def corpus():
    return [
        Evidence(n=1, tool="search_docs", text=TRAVEL, source="travel-policy.md", location="Hotels"),
        Evidence(n=2, tool="search_docs", text=FIGURES, source="handbook.md", location="Company figures"),
        Evidence(n=3, tool="search_docs", text=CALENDAR, source="handbook.md", location="Reporting calendar"),
        Evidence(n=4, tool="search_docs", text=TELETRAVAIL, source="guide_fr.md", location="Télétravail"),
        Evidence(n=5, tool="search_docs", text=OBJECTIFS, source="guide_fr.md", location="Objectifs 2026"),
        Evidence(n=6, tool="calculator", text="391", input='{"expression": "17 * 23"}', computed=True),
    ]


def test_split_units_sentences_rows_and_items():
    evidence = [
        Evidence(n=1, tool="search_docs", text=TRAVEL + "\n\n- First item, 3 days\n- Second item", source="a.md"),
        Evidence(n=2, tool="query_table", text=TABLE, computed=True),
    ]
    units = split_units(evidence)
    texts = [u.text for u in units]
    assert texts[:4] == [
        "Analysts book rail for any trip under four hours.",
        "Air travel needs the approval of the team lead.",
        "Hotel costs are capped at 160 euros per night in Paris and London, and 120 euros per night elsewhere.",
        "The meal allowance (per diem) is 45 euros per day.",
    ]
    assert "- First item, 3 days" in texts and "- Second item" in texts
    assert texts[-2:] == [
        "quarter,region,product,revenue_eur\nQ1,France,Centrifuges,1564200",
        "quarter,region,product,revenue_eur\nQ1,Benelux,Pipettes,794300",
    ]
    assert [u.evidence for u in units] == [1] * 6 + [2, 2]
    assert units[0].source == "a.md"
    for unit in units[:6]:  # spans point back into the evidence text
        assert " ".join(evidence[0].text[unit.start : unit.end].split()) == unit.text


def test_split_units_keeps_abbreviations_and_decimals_inside_sentences():
    ev = Evidence(n=1, tool="search_docs", text="See p. 3 for e.g. the 48.2 figure. It costs 5. Next one here.")
    assert [u.text for u in split_units([ev])] == [
        "See p. 3 for e.g. the 48.2 figure.",
        "It costs 5.",
        "Next one here.",
    ]


def test_split_units_ignores_cut_notes_and_titles():
    ev = Evidence(n=1, tool="search_docs", text="Objectifs 2026\n\nThe target is 52.\n[… 1298 more characters cut]")
    assert [u.text for u in split_units([ev])] == ["The target is 52."]


@pytest.mark.parametrize(
    ("question", "expected", "evidence"),
    [
        ("What is the hotel cap per night in Paris?", "Hotel costs are capped at 160 euros", 1),
        ("How much is the meal allowance per day?", "The meal allowance (per diem) is 45 euros per day.", 1),
        ("What was the churn rate in 2025?", "The customer churn rate for 2025 was 6.1%", 2),
        ("How many people does the company employ?", "The company employs 312 people", 2),
        ("Who approves a restatement of a published figure?", "Any restatement of a published figure", 3),
        ("When is the monthly close?", "The monthly close happens on the fifth business day", 3),
        ("Combien de jours de télétravail par semaine ?", "Les analystes peuvent télétravailler", 4),
        ("Quel est l'objectif de chiffre d'affaires 2026 ?", "L'objectif de chiffre d'affaires 2026", 5),
        ("Quel est le taux d'attrition visé ?", "Le taux d'attrition ciblé reste de 5 %.", 5),
    ],
)
def test_best_quote_picks_the_sentence_that_answers(embed, corpus, question, expected, evidence):
    quote = best_quote(question, corpus, embed)
    assert quote is not None
    assert quote.text.startswith(expected)
    assert quote.evidence == evidence


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of Peru?",
        "How many moons does Jupiter have?",
        "Quelle est la couleur du ciel sur Mars ?",
        "What is the weather in Paris today?",
        "How much does a train ticket to London cost?",
        "Quel est le prix du pain à Lyon ?",
    ],
)
def test_nothing_fits_gives_no_confident_quote(embed, corpus, question):
    """A question the evidence does not answer gets no quote, or the closest passage said to be unsure."""
    quote = best_quote(question, corpus, embed)
    assert quote is None or (not quote.confident and quote.preface.startswith("Not sure:"))


def test_quote_is_verbatim_evidence_with_no_new_figure(embed, corpus):
    quote = best_quote("What is the hotel cap per night in Paris?", corpus, embed)
    assert quote.text in TRAVEL
    evidence_values = {f.value for f in extract_figures(TRAVEL)}
    assert {f.value for f in extract_figures(quote.text)} <= evidence_values


def test_preface_in_the_ui_language(embed, corpus):
    en = best_quote("What is the hotel cap per night in Paris?", corpus, embed, language="en")
    fr = best_quote("What is the hotel cap per night in Paris?", corpus, embed, language="fr")
    assert en.preface == "From travel-policy.md (Hotels):"
    assert fr.preface == "D'après travel-policy.md (Hotels) :"
    assert (en.source, en.location) == ("travel-policy.md", "Hotels")


def test_computed_result_is_stated_with_its_expression(embed, corpus):
    quote = best_quote("What is 17 * 23?", corpus, embed)
    assert quote.text == "17 * 23 = 391"
    assert quote.source == "calculator"
    assert quote.preface == "Computed with calculator:"
    assert best_quote("Combien font 17 * 23 ?", corpus, embed, language="fr").preface == "Calculé avec calculator :"


def test_without_embeddings_words_alone_rank(corpus):
    quote = best_quote("What is the meal allowance per day?", corpus, None)
    assert quote.text == "The meal allowance (per diem) is 45 euros per day."
    assert best_quote("What is the capital of Peru?", corpus, None) is None


def test_no_evidence_gives_none(embed):
    assert best_quote("What is the hotel cap?", [], embed) is None


def test_not_found_message_names_the_sources_and_no_figure(corpus):
    en = not_found_message("What is the 2019 revenue of 12 shops?", corpus, "en")
    assert en == (
        "I searched travel-policy.md, handbook.md, guide_fr.md, calculator "
        "but could not find the answer to this question there."
    )
    fr = not_found_message("Quel est le CA 2019 ?", corpus, "fr")
    assert fr.startswith("J'ai consulté travel-policy.md, handbook.md")
    assert "2019" not in en + fr and "12" not in en
    assert not_found_message("Anything?", [], "fr") == (
        "Je n'ai pas trouvé la réponse à cette question : aucune source n'a été consultée."
    )


def test_not_found_message_bounds_a_long_source_list():
    evidence = [Evidence(n=i, tool="search_docs", text="x", source=f"doc_{chr(97 + i)}.md") for i in range(9)]
    message = not_found_message("q", evidence, "en")
    assert message.count(".md") == 5 and "and others" in message


def test_tool_errors_are_never_quoted(embed):
    error = Evidence(n=1, tool="search_docs", text="Error: the hotel cap index for Paris is missing a file.")
    assert best_quote("What is the hotel cap for Paris?", [error], embed) is None


def test_structured_input_is_not_shown_as_an_expression():
    stats = Evidence(n=1, tool="statistics", text="2.0", input='{"values": [1, 2, 3], "op": "mean"}', computed=True)
    (unit,) = split_units([stats])
    assert unit.text == "2.0"
    plain = Evidence(n=2, tool="calculator", text="65.5", input="250 / 4 + 3", computed=True)
    assert split_units([plain])[0].text == "250 / 4 + 3 = 65.5"


FAQ = {
    "Where is the sales data?": "The consolidated sales table is refreshed every night at 02:00 in the warehouse "
    "schema sales_core. The quarterly extract ships with this handbook as sales_2025.csv.",
    "What currency do we report in?": "All group figures are reported in euros. UK figures are converted at the "
    "monthly average rate published by the treasury team.",
    "Où sont les données de ventes ?": "La table consolidée est rafraîchie chaque nuit dans le schéma sales_core.",
}


@pytest.mark.parametrize("question", list(FAQ))
def test_the_section_whose_heading_is_the_question_answers_it_without_not_sure(embed, question):
    """An FAQ answer need not repeat the question's words: its heading is the question."""
    evidence = [
        Evidence(n=1, tool="search_docs", text=text, source="faq.html", location=f"FAQ > {heading}", rank=i)
        for i, (heading, text) in enumerate(FAQ.items())
    ]
    quote = best_quote(question.rstrip(" ?") + "?", evidence, embed, language="fr" if "Où" in question else "en")
    assert quote is not None and quote.confident
    assert quote.text.startswith(FAQ[question].split(".")[0][:30])
    assert not quote.preface.startswith(("Not sure", "Pas sûr"))


PARAGRAPH = (
    "Fiscal year 2025 (January to December) closed with revenue of 48.2 million euros, up 7.4% on 2024. "
    "Gross margin was 38.6%. Operating expenses were 13.9 million euros.\n\n"
    "Headcount grew in 2023. Travel costs fell."
)


def test_a_sentence_naming_no_year_is_about_the_year_of_its_paragraph():
    units = split_units([Evidence(n=1, tool="search_docs", text=PARAGRAPH, source="handbook.md")])
    periods = {u.text: u.period for u in units}
    assert periods["Gross margin was 38.6%."] == "2025"  # the nearest sentence before it that names a year
    assert periods["Operating expenses were 13.9 million euros."] == "2025"
    assert periods["Travel costs fell."] == "2023"  # a new paragraph, its own year
    assert periods[units[0].text] == ""  # a sentence naming its year keeps its own


@pytest.mark.parametrize("with_model", [True, False])
def test_the_figure_of_a_year_stated_in_the_next_sentence_is_quoted(embed, with_model):
    """The handbook states the 2025 gross margin in the sentence after the one naming 2025:
    that sentence answers "Gross margin in 2025", and no longer loses to the year's first sentence."""
    evidence = [Evidence(n=1, tool="search_docs", text=PARAGRAPH, source="handbook.md", location="Company figures")]
    quote = best_quote("Gross margin in 2025", evidence, embed if with_model else None)
    assert quote is not None and quote.text == "Gross margin was 38.6%."
    other = best_quote("What was the gross margin in 2024?", evidence, embed if with_model else None)
    assert other is None or other.text != "Gross margin was 38.6%."  # 2025's margin never answers 2024


@pytest.mark.parametrize(
    ("question", "figure"),
    [
        ("What is the Restricted Share Awards for fiscal years 2019, 2018 and 2017 respectively?", True),
        ("What was the respective income tax benefits in 2019 and 2018?", True),
        ("What are the two segments of the company, respectively?", False),  # names, no year
        ("What caused the changes in 2019 and 2018, respectively?", False),  # words asked
    ],
)
def test_values_asked_year_by_year_ask_for_figures(question, figure):
    assert asks_for_figure(question) is figure


EXPENSES = (
    "Selling and marketing expenses increased by 17% to RMB6,712 million for the fourth quarter of 2019. "
    "The increase was mainly driven by greater marketing spending on cloud services and smart phone games. "
    "General and administrative expenses increased by 41% to RMB16,002 million for the fourth quarter of 2019. "
    "The increase was mainly due to greater R&D expenses and staff costs."
)


def test_a_reason_that_opens_on_the_sentence_before_it_is_quoted_with_it(embed):
    evidence = [Evidence(n=1, tool="search_docs", text=EXPENSES, source="report.md", rank=0)]
    quote = best_quote("What was the reason for the increase in General and administrative expenses?", evidence, embed)
    assert quote is not None
    assert quote.text == (
        "General and administrative expenses increased by 41% to RMB16,002 million for the fourth quarter of 2019. "
        "The increase was mainly due to greater R&D expenses and staff costs."
    )
    figure = best_quote(
        "How much did selling and marketing expenses increase by in the fourth quarter of 2019?", evidence, embed
    )
    assert (
        figure is not None and figure.text.startswith("Selling") and "driven" not in figure.text
    )  # a figure asked: one sentence


RESEARCH = (
    "Research and development expense increased by $19.1 million in 2018 compared to 2017. The increase was "
    "primarily due to a $18.1 million increase in employee-related costs. The remaining increase was principally "
    "the result of a $2.9 million increase in hosting and software related cost to support research and "
    "development activities."
)


def test_a_reason_is_quoted_with_its_sentence_when_the_search_returns_several_passages(embed):
    # the passages of one search share its number: each is read apart, the one holding the reason first
    evidence = [
        Evidence(n=1, tool="search_docs", text=RESEARCH, source="report.md", rank=0),
        Evidence(
            n=1, tool="search_docs", text="| Research and development | $ 41,305 | $ 22,241 |", source="report.md"
        ),
    ]
    quote = best_quote("What caused the increase in research and development expense?", evidence, embed)
    assert quote is not None
    assert quote.text.startswith("Research and development expense increased by $19.1 million")
    assert "primarily due to a $18.1 million" in quote.text  # "the remaining increase" is the rest, not the cause


def test_a_brief_answer_keeps_the_sentence_that_continues_its_first():
    from engine.react.fact_answer import first_sentence

    assert first_sentence(RESEARCH) == (
        "Research and development expense increased by $19.1 million in 2018 compared to 2017. The increase was "
        "primarily due to a $18.1 million increase in employee-related costs."
    )
    assert first_sentence("Revenue was 5. Costs were 4.") == "Revenue was 5."


def test_a_reason_given_without_a_year_answers_a_question_naming_one(embed):
    text = (
        "Cable adjusted EBITDA increased by 3% in 2018 on higher revenue.\n\n"
        "Cable revenue increased by 1% due to the movement of customers to higher speed Internet tiers."
    )
    evidence = [Evidence(n=1, tool="search_docs", text=text, source="report.md", rank=0)]
    quote = best_quote("What led to the increase in cable revenue in 2018?", evidence, embed)
    assert quote is not None and quote.text.startswith("Cable revenue increased by 1% due to")
    figure = best_quote("What was the cable revenue growth in 2018?", evidence, embed)
    assert (
        figure is None or "due to" not in figure.text
    )  # a figure of 2018 asked: a sentence naming no year does not give it


HEDGES = (
    "As of May 26, 2019, the cumulative amount of net derivative gains from economic hedges that had been "
    "recognized in general corporate expenses and not yet allocated to reporting segments was $1.4 million. "
    "This amount reflected net gains of $1.0 million incurred during the fiscal year ended May 26, 2019."
)


def test_a_cumulative_amount_the_passage_writes_is_its_figure_not_a_sum_to_compute(embed):
    question = (
        "What is the cumulative amount of net derivative gains from economic hedges that had been recognized in "
        "general corporate expenses but not yet allocated to reporting segments?"
    )
    evidence = [Evidence(n=1, tool="search_docs", text=HEDGES, source="report.md", rank=0)]
    quote = best_quote(question, evidence, embed)
    assert quote is not None and quote.confident and "$1.4 million" in quote.text
    summed = best_quote("What is the total amount of net gains in fiscal 2019 and before?", evidence, embed)
    assert summed is None or not summed.confident  # a total no sentence writes is computed, not quoted


SUPPLIERS = (
    "We purchase a significant amount of our inventory from certain manufacturers or suppliers including "
    "components, assemblies and electronic manufacturing parts. The inventory is purchased under standard supply "
    "agreements that outline the terms of the product delivery. The title and risk of loss of the product "
    "generally pass to us upon shipment from the manufacturers' plant or warehouse."
)


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("How is the inventory purchased?", "The inventory is purchased under"),
        ("What do we purchase from certain manufacturers or suppliers?", "We purchase a significant"),
    ],
)
def test_a_question_on_a_passive_clause_is_answered_by_the_sentence_stating_it(embed, question, start):
    """ "How is the inventory purchased?" is answered by "The inventory is purchased under …",
    not by the sentence nearest in meaning ("We purchase … our inventory from …")."""
    evidence = [Evidence(n=1, tool="search_docs", text=SUPPLIERS, source="report.md", rank=0)]
    quote = best_quote(question, evidence, embed)
    assert quote is not None and quote.text.startswith(start)


@pytest.mark.parametrize(
    ("question", "sentence", "restated"),
    [
        ("How is the inventory purchased?", "The inventory is purchased under supply agreements.", True),
        ("When are trade payables paid?", "Trade payables are unsecured and are usually paid within 30 days.", True),
        ("How were the company's inventories valued?", "Inventories were valued at the lower of cost.", True),
        ("How is the inventory purchased?", "We purchase most of our inventory from suppliers.", False),
        ("What is the inventory?", "The inventory is purchased under supply agreements.", None),
    ],
)
def test_the_restatement_of_a_passive_question(question, sentence, restated):
    pattern = _restatement(question)
    assert (None if pattern is None else bool(pattern.search(sentence.lower()))) == restated


OPTIONS = (
    "The fair values of our stock options were estimated at the grant dates or at the acquisition dates for options "
    "assumed in a business combination. We estimated the fair values of our stock options that were solely subject "
    "to service-based vesting requirements using the Black-Scholes-Merton option-pricing model, which was developed "
    "for use in estimating the fair values of stock options."
)


@pytest.mark.parametrize(
    "question",
    [
        "How does the company estimate the fair value of their stock options?",
        "How were the fair values of the stock options estimated?",
    ],
)
def test_a_method_asked_is_answered_by_the_sentence_that_gives_one(embed, question):
    """ "How does the company estimate X?" is answered by the sentence that says how ("using
    the Black-Scholes-Merton model"), not by the one that says when X was estimated."""
    evidence = [Evidence(n=1, tool="search_docs", text=OPTIONS, source="report.md", rank=0)]
    quote = best_quote(question, evidence, embed)
    assert quote is not None and "Black-Scholes-Merton" in quote.text


RATES = """|  | Domestic |  | International |  |
|---|---|---|---|---|
|  | September 30, |  | September 30, |  |
|  | 2019 | 2018 | 2019 | 2018 |
| Discount rate | 4.00% | 3.75% | 1.90% | 2.80% |"""


def test_a_line_of_a_tables_head_is_never_quoted_as_the_answer_to_a_figure(embed):
    """ "|  | 2019 | 2018 | 2019 | 2018 |" has no label and no figure but years: quoting it
    ("Not sure: , 2019, 2018, 2019, 2018") answers nothing."""
    evidence = [Evidence(n=1, tool="search_docs", text=RATES, source="table.csv", rank=0)]
    question = "What is the difference between the domestic and international discount rates as at September 30, 2019?"
    quote = best_quote(question, evidence, embed)
    assert quote is None or "Discount rate" in quote.text


def test_a_reason_asked_of_a_year_is_quoted_from_the_part_about_that_year():
    text = (
        "Fiscal Year 2019 Compared with Fiscal Year 2018\n\n"
        "Research and development expenses increased $2.2 billion or 15%, driven by investments in AI.\n\n"
        "Fiscal Year 2018 Compared with Fiscal Year 2017\n\n"
        "Research and development expenses increased $1.7 billion or 13%, primarily due to cloud engineering."
    )
    ev = Evidence(n=1, tool="search_docs", text=text, source="report.md")
    quote = best_quote("Why did research and development expenses increase in 2018?", [ev], None)
    assert quote is not None and "$1.7 billion" in quote.text


def test_a_sentence_naming_every_word_asked_outranks_a_closer_paraphrase_of_another_subject(embed):
    """The sentence with the year and "shell egg sales" reads closer to the question; the one
    that names egg products, net sales and "accounted for" is the report's answer."""
    text = (
        "In fiscal 2019, shell egg sales made up approximately 97% of our net sales. Total dozens sold in fiscal "
        "2019 were 1,038.9 million.\n\nEgg products accounted for approximately 3% of our net sales. These revenues "
        "were $41.5 million for the fiscal year ended June 1, 2019."
    )
    evidence = [Evidence(n=1, tool="search_docs", text=text, source="report.md")]
    quote = best_quote("What percentage of net sales did egg products accounted for in 2019?", evidence, embed)
    assert quote is not None and quote.text.startswith("Egg products accounted for approximately 3%")


OPERATING_COSTS = (
    "| Years ended August 31, | 2019 | 2018 |\n|---|---|---|\n| Service delivery costs(1) | 661,214 | 615,267 |\n"
    "| Customer related costs(2) | 83,401 | 68,744 |\n\n"
    "(1) Include cost of equipment sold, content and programming costs and network costs.\n\n"
    "(2) Include advertising and marketing expenses, selling costs and billing expenses."
)


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("What is included in Service delivery costs?", "(1) Include cost of equipment sold"),
        ("What is included in Customer related costs?", "(2) Include advertising"),
    ],
)
def test_what_a_row_includes_is_its_footnote_not_its_cells(embed, question, opening):
    evidence = [Evidence(n=1, tool="search_docs", text=OPERATING_COSTS, source="report.md")]
    assert best_quote(question, evidence, embed).text.startswith(opening)
    # a figure asked of the row is still its cells
    assert "661,214" in best_quote("What were the service delivery costs in 2019?", evidence, embed).text


COMPENSATION = (
    "The Company recognized $2.3 million, $2.1 million and $1.9 million of stock-based compensation expense for the"
    " years ended March 31, 2019, 2018 and 2017, respectively, as follows:\n\n"
    "Stock-based compensation expense in the years ended March 31, 2019, 2018 and 2017 included $211,000, $207,000"
    " and $150,000, respectively, related to the Company’s Employee Stock Purchase Plan."
)


def test_a_sentence_giving_what_a_figure_included_ranks_below_the_one_giving_it(embed):
    evidence = [Evidence(n=1, tool="search_docs", text=COMPENSATION, source="report.md")]
    whole = best_quote(
        "What was the stock-based compensation expense in 2019, 2018 and 2017 respectively?", evidence, embed
    )
    assert whole.text.startswith("The Company recognized $2.3 million")
    part = best_quote(
        "How much of the stock-based compensation expense in 2019 was related to the Employee Stock Purchase Plan?",
        evidence,
        embed,
    )
    assert part.text.startswith("Stock-based compensation expense in the years ended")
