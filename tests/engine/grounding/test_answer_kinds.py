"""The kind of answer a question asks for, in EN and FR, and whether a passage holds one."""

import pytest

from engine.grounding.answer_kinds import (
    aggregate_asked,
    answer_kind,
    asks_about_table,
    asks_for_name,
    asks_for_words,
    asks_table_years,
    constraints_met,
    fit,
    introduces_table,
    is_prose,
    names_in,
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Who approves a restatement?", "person"),
        ("Qui dirige l'antenne de Lyon ?", "person"),
        ("When did the Lyon office open?", "date"),
        ("How often does the company review the assumptions the benefit cost is based on?", "date"),  # not "cost"
        ("Depuis quand le site est-il ouvert ?", "date"),
        ("How many unused days of paid leave can be carried over?", "duration"),
        ("Au bout de combien de temps l'écran se verrouille-t-il ?", "duration"),
        ("Sous combien de jours les factures sont-elles payées ?", "duration"),
        ("Over what duration will the unrecognized compensation cost be recognized?", "duration"),  # not "cost"
        ("What is the weighted average period over which the cost is recognized?", "duration"),
        ("What is the weighted average remaining amortization period for the customer relationships?", "duration"),
        ("What was the company's goodwill at the end of 2018?", "amount"),  # a balance
        ("What was the reason for the change at the end of 2019?", None),
        ("Quelle est la surface de l'entrepôt ?", "area"),
        ("Quelle part des véhicules sera électrique ?", "percent"),
        ("What was the % of revenue for research and development in 2019?", "percent"),
        ("Accrued interest represented how much of the ending balance in 2014?", "percent"),  # a share
        ("How much of the revenue came from the Americas in 2019?", "amount"),
        ("What is 5% of 200?", None),  # a figure given, not asked
        ("What is 17% of 2,340?", None),  # a percentage given, not asked for
        ("Above what amount must the CFO approve?", "amount"),
        ("What is the hotel cap per night?", "amount"),
        ("How many heavy goods vehicles are there?", "count"),
        ("Combien de palettes ont été expédiées ?", "count"),
        ("What is the minimum length of a password?", None),
    ],
)
def test_answer_kind(question, kind):
    assert answer_kind(question) == kind


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("person", "Elle est dirigée par Solène Marchetti, responsable de site.", "match"),
        ("person", "Cette note présente l'antenne régionale de Lyon.", "none"),
        ("person", "Solène Marchetti manages the site.", "match"),
        ("person", "The Lyon Office opened in 2023.", "none"),
        ("person", "The financial statements were approved by the Board of Directors on 6 June 2019.", "match"),
        ("date", "The assumptions are reviewed on an annual basis.", "match"),
        ("person", 'Reply with "Action Input: <JSON>".', "none"),
        ("date", "L'antenne a ouvert ses portes le 14 avril 2023.", "match"),
        ("date", "The monthly close happens on the fifth business day.", "match"),
        ("duration", "A tender is published for at least 26 calendar days.", "match"),
        ("duration", "Les analystes peuvent télétravailler jusqu'à trois jours par semaine.", "match"),
        ("duration", "Brenmoor operates 86 heavy goods vehicles.", "other"),
        ("area", "L'entrepôt couvre une surface de 6 200 m².", "match"),
        ("area", "Elle a ouvert le 14 avril 2023.", "other"),
        ("percent", "Electric vehicles will make up 35% of the pool.", "match"),
        ("amount", "Each fuel card has a limit of EUR 420 per week.", "match"),
        ("amount", "department: IT; budget_eur: 618500; headcount: 18", "match"),
        ("count", "This page describes the road fleet.", "none"),
        (None, "Anything at all.", "any"),
    ],
)
def test_fit(kind, text, expected):
    assert fit(kind, text) == expected


def test_a_recurring_name_is_not_an_answer_to_who():
    text = "These rules apply to every Brenmoor Freight laptop."
    assert names_in(text) == {"Brenmoor Freight"}
    assert fit("person", text, frozenset({"Brenmoor Freight"})) == "none"


def test_a_computed_result_answers_the_computation():
    assert fit("amount", "38.5 * 120 = 4620", computed=True) == "match"


@pytest.mark.parametrize(
    ("question", "text", "met"),
    [
        ("Combien de palettes en décembre 2024 ?", "month: 2025-05; warehouse: Gdansk; pallets: 2545", False),
        ("How many pallets in March 2025?", "month: 2025-03; warehouse: Gdansk; pallets: 2738", True),
        ("How many pallets in March 2025?", "month: 2025-04; warehouse: Gdansk; pallets: 2334", False),
        ("How many pallets from January to June 2025?", "month: 2025-04; warehouse: Gdansk", True),
        ("What is the 2026 budget of IT?", "budget_2026.csv department: IT; budget_eur: 618500", True),
        ("What share by the end of 2028?", "35% of the light van pool by the end of 2030", False),
        ("How many days of leave?", "Chaque salarié acquiert 27 jours.", True),
    ],
)
def test_constraints(question, text, met):
    assert constraints_met(question, text) is met


@pytest.mark.parametrize(
    ("question", "aggregate"),
    [
        ("What is the total number of pallets shipped by Gdansk?", True),
        ("Quel est le budget 2026 total de tous les départements ?", True),
        ("Which warehouse shipped the most pallets in a month?", True),
        ("Quelle est la moyenne des retards ?", True),
        ("What was the weighted average exercise price in 2019?", False),  # a name, no average to compute
        ("How many pallets did Rotterdam ship in March 2025?", False),
    ],
)
def test_asks_aggregate(question, aggregate):
    assert (aggregate_asked(question) is not None) is aggregate


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("What caused the increase in capital expenditures related to wireless?", True),
        ("Why did revenue fall in 2019?", True),
        ("What do the figures in the table exclude?", True),
        ("What information does note 3 provide?", True),
        ("What method did the company use when the standard was adopted?", True),
        ("How is the fair value of these instruments determined?", True),
        ("How is the Group's revenue diversified?", True),  # a manner, in words
        ("How much was the revenue recorded?", False),
        ("How many shares were issued?", False),
        ("Pourquoi le chiffre d'affaires a-t-il baissé ?", True),
        ("What are the two forms of revenue generated from contracts with customers?", True),
        ("What are the types of leases the company holds?", True),
        ("What was the number of types of leases in 2019?", False),
        ("What was the change in wireless capital expenditure from 2018 to 2019?", False),
        ("What percentage does the revenue represent?", False),  # a figure asked
        ("What did the revenue in 2019 amount to?", False),
        ("How much was the cumulative-effect adjustment?", False),
        ("What have the values in the 2018 column been restated for?", True),  # a purpose
        ("What are the US$ values for 2015 to 2018 translated for?", True),
        ("What was revenue in the year ended June 30, 2019?", False),
        ("What do intersegment revenues reflect?", True),
        ("What accounted for the decrease in the share of net earnings?", True),
        ("What are the components factored in total inventories?", True),
        ("What were the components making up Total Restructuring Reserves in the table?", True),
        ("What was the income tax benefit in 2019 related to?", True),
        ("What was the total of the components in 2019?", False),
        ("What does the Company use to reduce the inventory cost basis?", True),
        ("What does the investment arrangement of the Bell Canada pension plan do?", True),  # what it does: words
        ("What did revenue do in 2019?", False),
        ("What is the schedule of repayment of the loan?", True),
        ("What does the company expect to pay in 2020?", True),  # no amount asked in its words: a sentence answers
        ("How much does the company expect to pay in 2020?", False),
        ("What is included in the line item financing cash flows?", True),
        ("What is the number of stock options included in the calculation?", False),
        ("What is the currency translation reserve made up of?", True),  # ends on its preposition: what it holds
        ("How should the selected financial data be read in conjunction with?", True),
        ("What can cash reserves be used for?", True),
        ("What was the tax rate that all dividends are franked at?", False),  # a rate asked
        ("What is the number of shares the options can be exercised for?", False),
        ("Which year does the information relate to?", False),
        ("How does the company derive the dividend yield?", True),  # a method, though a rate names it
        ("How did the company convert the facility's variable rate into a fixed rate?", True),  # a means
        ("How did the company's revenue change in 2019?", False),
        ("How many warrants did the company issue altogether?", False),
        ("What are the geographic areas in the table making up the total revenue?", True),  # names asked
        ("What type of granted shares was excluded from the table?", True),
        ("What was the Tax benefit for stock compensation expense classified as within the Statements?", True),
        ("What is the primary reason for operating income increase?", True),
        ("What is the Group's assumptions on mortality?", True),
        ("What does the company's compensation plan allow?", True),
        ("What does the plan allow the company to borrow in 2019?", False),
        ("What are the primary factors that caused a negative balance in operating activities in 2019?", True),
        ("What was the amount that caused the decrease in 2019?", False),
        ("What does Cost of professional service and other revenues consists primarily of?", True),
        ("What is the segment comprised mainly of?", True),
    ],
)
def test_questions_asking_for_words(question, words):
    assert asks_for_words(question) is words


def test_prose_is_words_not_a_row_or_an_expression():
    assert is_prose("The figures exclude the acquisition of Thermocoax.")
    assert not is_prose("695 / 4 + 3 = 176.75")
    assert not is_prose("Group operating profit | 277.3 | 270.3 and the target")


@pytest.mark.parametrize(
    ("question", "about_table"),
    [
        ("What does the table show?", True),
        ("What does the table represent?", True),
        ("Which years does the table provide information for?", True),
        ("Que montre le tableau ?", True),
        ("What does total employee expenditure in the table include?", False),
        ("What was the revenue in the table for 2019?", False),
    ],
)
def test_questions_about_a_table_itself(question, about_table):
    assert asks_about_table(question) is about_table


@pytest.mark.parametrize(
    ("question", "years"),
    [
        ("Which years does the table provide information for?", True),
        ("In which years was the current liabilities recorded for?", True),
        ("What periods are shown in the table?", True),
        ("In which year was the impairment recorded?", False),
        ("In which year was revenue largest?", False),
    ],
)
def test_questions_about_the_years_of_a_table(question, years):
    assert asks_table_years(question) is years


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Which assets had non-material adjusted carrying values?", True),
        ("Who was named an executive officer during FY19?", True),
        ("Where is there more information about the restructuring expenses?", True),
        ("Which year had the higher total loans?", False),  # a period: a figure answers it
        ("Which fiscal years are listed in the table?", False),
        ("What was the revenue in 2019?", False),
        ("Quelle est la surface de l'entrepôt ?", False),  # "quelle" also asks "what"
    ],
)
def test_questions_asking_for_a_name_or_a_place(question, name):
    assert asks_for_name(question) is name


@pytest.mark.parametrize(
    ("sentence", "intro"),
    [
        ("The geographic distribution of pretax income is as follows:", True),
        ("These assumptions are estimated as follows:", True),
        ("The following table sets forth revenue by segment:", True),
        ("The Company's trade accounts receivable, net, consisted of the following (in thousands):", True),
        ("Revenue was $5.2 million in 2019, as follows from the new contracts.", False),
        ("Domestic | (20,597) | 22,325", False),
    ],
)
def test_the_sentence_a_report_writes_over_its_table(sentence, intro):
    assert introduces_table(sentence) is intro
