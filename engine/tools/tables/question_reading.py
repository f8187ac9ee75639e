"""What a question asks of a table, read from its words alone: the operation (a change,
a percentage change, an average, a sum, a ratio, a count of periods meeting a condition,
the largest or smallest, which periods meet a condition or hold figures, the rows making up
a total), the periods it names (years, months, quarters), the condition
of a count, the dimension of a "which …" question, and the words left once those are
taken out (the row or column it is about). English and French, read accent-folded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from engine.grounding.answer_kinds import (
    PERIODS_ASKED,
    aggregate_asked,
    answer_kind,
    asks_about_table,
    asks_for_words,
    fold,
)
from engine.grounding.compare import Condition, condition_asked, condition_in, extreme_asked
from engine.grounding.dates import FULL_MONTHS_EN, FULL_MONTHS_FR, MONTHS
from engine.grounding.derive import YEAR_AVERAGE
from engine.grounding.layout import pairs_as_end_years, spaced_years
from engine.grounding.measure import HYPOTHETICAL, RETURN_OVER_SPAN, TOTAL_RETURN
from engine.grounding.quotes import asks_for_figure
from engine.grounding.scope import periods_ended
from engine.grounding.stems import words

Operation = Literal[
    "value", "change", "decrease", "difference", "percent_change", "mean", "sum", "ratio", "share", "count_if",
    "max", "min", "which_if", "periods", "items",
]  # fmt: skip
# which_if: the periods (or rows) whose figure meets a condition; periods: those a row has figures for;
# items: the rows that make up a total or a heading

_PERCENT_CHANGE = re.compile(  # "the absolute percentage change" of a rate is its change in points
    r"(?<!absolute )(?:%\s?(?:change|increase|decrease)|\b(?:percent(?:age|ual)? (?:change|increase|decrease|decline|growth|variation|difference"
    r"|higher|lower|greater|larger|smaller|more|less)|growth rate|"
    r"(?:variation|evolution|hausse|baisse|croissance) en (?:pourcentage|%)|pourcentage (?:de )?(?:variation|hausse|"
    r"baisse|croissance)|taux de (?:croissance|variation))"
    r"|\bby what (?:percent(?:age)?|%) (?:did|does|do|has|have|had|will|would|was|were|is|are)\b(?:(?! (?:points?|pts)\b).)*"
    r"\b(?:increase|decrease|grow|grew|decline|fall|fell|rise|rose|change|drop)"
    r"|\bpercent(?:age)? of the (?:increase|decrease|growth|change) in\b[^?]*\bfrom (?:19|20)\d\d to (?:19|20)\d\d\b"
    r"|" + RETURN_OVER_SPAN.pattern + ")"
)  # "by what percentage did total residential mortgages increase from 2011 to 2012?", "the percent of the
# increase in compensation cost from 2008 to 2009" (not "what percent of the increase came from X"), "the return on
# investment for the S&P 500 from 2004 to 2006": the growth of what was invested
_CHANGE = re.compile(
    r"\b(?:change|changed|difference|increased?|decreased?|variation|evolution|ecart|fluctuation|"
    r"how much (?:more|less|higher|lower|greater|larger|bigger|smaller)|de combien|spread between)\b"
)
_DECREASE = re.compile(r"\b(?:decreased?|declined?|drop(?:ped)?|fall|fell|reduction|baisse|diminution|recul)\b")
# "for each financial year listed", "for the 3 financial years shown", "each of the 3 financial year ends": every period
EACH_PERIOD = re.compile(
    r"\b(?:(?:each|every|all)(?: of)?(?: the)?(?: \d| two| three| four| five)?|the (?:\d|two|three|four|five)) "
    r"(?:listed )?(?:financial |fiscal )?(?:year|period)s?\b|\bchaque annee\b"
)
# "the total X across all 3 years", "over the three years": one sum over the periods, not each period's cell
ACROSS_PERIODS = re.compile(
    r"\b(?:across|over|combined for|in total for|altogether for)(?: all)?(?: of)?(?: the)?(?: \d| two| three| four| five| both)? "
    r"(?:financial |fiscal )?(?:years|periods)\b"
    r"|\b(?:for|in|during|over) the (?:\d|two|three|four|five)[- ]year period\b"  # "for the three year period": one span
)
FROM_TO = re.compile(r"\bfrom\b.+\bto\b")  # "from the beginning to the end of the period": a direction
_DIFFERENCE = re.compile(r"\b(?:difference|differ|ecart|spread between)\b")  # a magnitude, whichever is named first
_EITHER_WAY = re.compile(r"\b(?:increased?|rise|rose|growth|changed?|hausse|augmentation|variation|evolution)\b")
_RATIO = re.compile(r"\b(?:ratio|rapport entre|expressed as a (?:ratio|multiple)|proportion)\b")
# "what proportion of the total cost does X form?": a part of a whole, not "the proportion of A over B"
_PROPORTION_OF_WHOLE = re.compile(
    r"\bwhat (?:(?:is|was) (?:the )?)?(?:proportion|portion) of\b(?!.*\b(?:over|(?<!related )(?<!due )(?<!attributable )(?<!dedicated )(?<!allocated )(?<!assigned )to|against|versus|vs)\b)"
    r"|\bhow many (?:%|percent)(?= |$)"
)  # "how many % does X make up out of the total": a share too
_AS_PERCENT_OF = re.compile(
    r"\bas an? (?:percentage|percent|%) of\b|\bratio \((?:in )?(?:percentage|percent|%)\) of\b"
)  # "the ratio (in percentage) of A to B": A / B × 100
_SHARE = re.compile(
    r"\b(?:percentage|percent|(?<!per )(?<!per \w{5} )(?<!per \w{7} )share(?!\s+(?:price|capital|count|based))|fraction|"
    r"pourcentage|(?<!\bas )(?<!\bin )part|quote-part)\b"
)  # "earnings per share", "per basic share", "per diluted share", "share price": no share of a total
_RANGE = re.compile(
    r"\b((?:19|20)\d\d)\s*(?:-|–|to|through|until|a|au|jusqu'en)\s*((?:19|20)\d\d)\b"
    r"|\bbetween ((?:19|20)\d\d) and ((?:19|20)\d\d)\b"
)  # an average or a sum "from 2017 to 2019", "between 2017 and 2019": every year of the span
_EACH_ASKED = re.compile(r"\b(?:respectively|respectivement|each|chaque)\b")
# "the top 3", "the three highest": several rows ranked, which one computation does not give
_TOP_N = re.compile(r"\b(?:top|(?:the )?(?:two|three|four|five|\d) (?:highest|largest|biggest|lowest|smallest|most))\b")
_PERIOD_NOUN = r"(?:years?|periods?|months?|quarters?|times|annees?|ans|periodes?|mois|trimestres?|fois)"
_COUNT_IF = re.compile(rf"\b(?:how many|combien)\s+(?:d['e]\s*)?{_PERIOD_NOUN}\b")
_COUNT_ROWS = re.compile(
    r"\b(?:how many|combien d['e]\s*)\s*(?:[a-z-]+\s+|(?:in|en) (?:19|20)\d\d\s+){0,6}?"
    r"(?:had|have|has|did|were|was|ont|avaient|exceed(?:ed|s)?|surpass(?:ed|es)?|depass\w*)\b"
)
_ASKS_VALUE = re.compile(r"^\W*(?:what|quel(?:le)?s?)\s+(?:is|was|are|were|est|etait|sont|etaient)\b")
_SINGLE = re.compile(r"\b(?:a single|one single|in one (?:month|quarter|year|row)|un seul|une seule|en un mois)\b")
_MONTH_RANGE = re.compile(r"\b(?:from|between|de|du|entre)\b.*\b(?:to|and|until|through|a|au|et|jusqu)\b")
_LOWEST = re.compile(r"\b(?:le|la|les) plus (?:bas|basse|faible|petit|petite)s?\b")  # "le plus" alone is the most
_WHICH = re.compile(
    r"\b(?:which|what(?!\s+(?:is|was|are|were|did|does|do|has|had|have|the|a|an)\b)|quel(?:le)?s?"
    r"(?!\s+(?:est|etait|sont|etaient|a|ont)\b))\s+([a-z]+)"
)
# "What is the component that contributes the most …": the thing named, as "which component" names it
_WHAT_THE = re.compile(r"\bwhat (?:is|was|are|were) the ([a-z]+) (?:that|which|with)\b")
# "What is the largest cost of revenue item?", "the biggest component of revenue": rows compared, by the noun
_EXTREME_THING = re.compile(
    r"\bwhat (?:is|was|are|were) the (?:single )?(?:largest|biggest|highest|greatest|smallest|lowest|main|major)"
    r"(?: [a-z]+){0,4}? (item|component|element|segment|category|contributor|constituent|source|type|line)s?\b"
)
_NOT_NAMED_THING = frozenset(
    "amount value number figure percentage percent rate ratio total sum change difference average year period".split()
)
_YEAR = re.compile(r"(?<![\d.,])(?:fy\s?|fiscal\s)?((?:19|20)\d\d)(?![\d.,]\d)|\bfy\s?'?(\d\d)\b(?![.,]\d)")  # "FY19"
_QUARTER = re.compile(
    r"\b(?:q([1-4])|t([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th) quarter|"
    r"(premier|1er|deuxieme|second|2e|troisieme|3e|quatrieme|4e) trimestre)\b"
)
_QUARTER_WORDS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "premier": 1, "1er": 1, "deuxieme": 2, "2e": 2, "troisieme": 3, "3e": 3, "quatrieme": 4, "4e": 4,
}  # fmt: skip
_MONTH_NAMES = sorted({fold(m) for m in [*FULL_MONTHS_EN, *FULL_MONTHS_FR]}, key=len, reverse=True)
_MONTH = re.compile(rf"\b(?:{'|'.join(_MONTH_NAMES)})\b|\b(?:in|en|of|de) (may|mai)\b")
_MONTH_OF_YEAR = re.compile(rf"\b({'|'.join(_MONTH_NAMES)})\s+(?:19|20)\d\d\b")
_PERIOD_END = re.compile(
    rf"\b(?:ended|ending|as of|as at|at|au|clos le|clos au)\s+(?:{'|'.join(_MONTH_NAMES)})\s+\d{{1,2}}\b"
    rf"|\b(?:au|le|ended|ending|as of|as at|at)\s+\d{{1,2}}\s+(?:{'|'.join(_MONTH_NAMES)})\b"  # "ended 31 December"
    rf"|\b(?:{'|'.join(_MONTH_NAMES)})\s+\d{{1,2}},?\s+(?:19|20)\d\d\b"  # "December 31, 2018": a balance date
)
# Words that say what is asked, not what it is about: left out when rows and columns are matched.
_ASKING = frozenset(
    words(
        "change difference increase decrease percentage percent average mean sum ratio between from "
        "compared how much many what which year years period value amount number fiscal fy growth rate "
        "moyenne somme variation evolution ecart entre annee annees combien valeur montant nombre pourcentage "
        "share proportion portion part highest lowest largest smallest most least maximum minimum exceed above below more less than "
        "plus moins haut bas grand petit"
    )
)


# "the percent of total sales from APAC": the whole a share is of, which a table's "% of Total"
# column names, not its Total row
_OF_TOTAL = re.compile(r"(?i)(?:\b(?:percent|percentage|share|proportion)|%) of (?:the )?(total)\b")
TOTAL_WORDS = frozenset(words("total totale totaux"))  # a Total row's word, but no subject for the embedding model


@dataclass(frozen=True)
class Reading:
    operation: Operation | None  # None: the question asks no figure of a table
    years: tuple[str, ...]  # in the order the question names them
    months: tuple[int, ...]
    quarters: tuple[int, ...]
    condition: Condition | None
    dimension: str | None  # "region" in "Which region had …", folded
    single: bool  # "in a single month": the extreme of one row, not of a group's total
    counts_periods: bool  # "how many years …": a count over period columns, else over rows
    month_range: bool  # "from January to June": every month between the two named
    subject: frozenset[str]  # content words, without the operation and period words
    percent: bool  # the answer is a percentage
    subject_text: str  # the question's own words that make the subject, for the embedding model


def quarters_in(text: str) -> tuple[int, ...]:
    found = []
    for match in _QUARTER.finditer(text):
        digit = match.group(1) or match.group(2)
        found.append(int(digit) if digit else _QUARTER_WORDS[match.group(3) or match.group(4)])
    return tuple(dict.fromkeys(found))


def _months(text: str) -> tuple[int, ...]:
    """The months the question filters on: "year ended December 31" and "as of June 30" date
    a report's period or balance, and filter on no month."""
    text = _PERIOD_END.sub(" ", text)
    dated = [MONTHS.get(m.group(1), 0) for m in _MONTH_OF_YEAR.finditer(text)]
    if len(dated) >= 2 and len(set(dated)) == 1 and len(dated) == len(_MONTH.findall(text)):
        return ()  # "between September 2018 and September 2019": each year's closing date, no month filter
    found = [MONTHS.get(m.group(1) or m.group(0), 0) for m in _MONTH.finditer(text)]
    return tuple(dict.fromkeys(m for m in found if m))


_INCREMENT = re.compile(
    r"\b(?:additional|incremental|supplementaires?)\b(?![ -]paid)"
)  # not "additional paid-in capital"
_PERIODS_UP_TO = re.compile(
    r"\b\d+\s*(?:years?|months?|days?|ans|mois|jours)\s+(?:or|and|ou)\s+"
    r"(?:below|less|under|fewer|shorter|sooner|more|above|over|longer|later|moins|plus)\b"
)
_DATES_ASKED = re.compile(
    r"\b(?:what|which) (?:(?:is|are|was|were) )?(?:the )?(?:(?:maturity|expiry|expiration|due|effective|payment|"
    r"grant|vesting|issue|record) )?dates?\b|\bon what dates?\b"
)


_ITEMS_ASKED = re.compile(
    r"^\W*(?:what|which) (?:are|were) the (?:broad |different )?(?:\w+ )?(?:components|items|types|categories|elements|classes)"
    r"\b(?! of (?:the )?(?:risk|uncertaint))"
    r"|^\W*(?:quels?|quelles?) (?:sont|etaient) les (?:composantes|elements|postes|types|categories)\b"
)


_COMPUTED_EXTREME = re.compile(
    r"\b(?:lowest|highest|largest|smallest|greatest|biggest|least|most|plus (?:forte?|faible|grande?))\s+"
    r"(?:(?:percentage|percent|net|absolute|annual|year-on-year|yoy)\s+)*"
    r"(?:change|difference|increase|decrease|growth|ratio|variation|ecart|hausse|baisse|evolution)\b"
)


def operation_in(text: str, question: str) -> Operation | None:
    """The operation ``question`` (``text``: folded) asks for, or None when it asks no figure."""
    if (extreme := extreme_asked(question)) is not None:
        if _COMPUTED_EXTREME.search(text):
            return None  # "which year had the lowest percentage difference in A and B": no row holds it
        return extreme  # "in which year was X larger?": the period of the larger figure
    if condition_asked(question) is not None:
        return "which_if"  # "in which years was X less than 10,000?"
    if PERIODS_ASKED.search(text):
        return "periods"
    if _ITEMS_ASKED.search(text) and condition_in(text) is None:
        return "items"  # "what are the components of total inventories?": the rows above its Total  # "which years does the table provide information for?", "in which years was X recorded?"
    if asks_for_words(question) or asks_about_table(question):
        return None  # "what caused the increase in X?" asks a reason, not the increase
    if _TOP_N.search(text):
        return None  # "the sum of the three highest …": no one computation ranks rows
    if _PERCENT_CHANGE.search(text):
        return "percent_change"
    if (_COUNT_IF.search(text) or _COUNT_ROWS.search(text)) and condition_in(text) is not None:
        return "count_if"
    kind = answer_kind(question)
    extreme = _LOWEST.search(text) or aggregate_asked(question.replace("greatest", "")) in ("max", "min")
    # "the date where shares issued is the greatest" asks a date, which no table plan states
    if kind in ("person", "duration") or (kind == "date" or _DATES_ASKED.search(text)) and not extreme:
        return None  # "over how many years will the total … be amortized?", "what are the dates …?": no figure
    if _PROPORTION_OF_WHOLE.search(text) or _AS_PERCENT_OF.search(text):
        return "share"  # "the proportion of products as a percentage of the total cost": 61%, not 0.61
    if _RATIO.search(text):
        return "ratio"
    if _DECREASE.search(text) and not _EITHER_WAY.search(text):
        return "decrease"  # "what is the decrease in X": earlier − later, as the question reads it
    if _CHANGE.search(text):  # "the difference between 2018 and 2019": a magnitude, as reports and analysts write it
        magnitude = _DIFFERENCE.search(text) and not _EITHER_WAY.search(text) and not FROM_TO.search(text)
        return "difference" if magnitude else "change"  # "from the beginning to the end": a direction
    if _SHARE.search(text):
        return "share"  # "what percentage of A is B": no cell states it
    if _LOWEST.search(text):
        return "min"
    if (op := aggregate_asked(question)) is not None:  # "the total X in 2018 and 2019 respectively": each total
        return "value" if op == "sum" and re.search(r"\brespective(?:ly)?\b|\brespectivement\b", text) else op
    if _INCREMENT.search(text):
        return None  # "how much additional revenue was contributed by the strategy?": a sentence states it, no cell
    return "value" if kind is not None or asks_for_figure(question) or _ASKS_VALUE.search(text) else None


def whole_as_column(question: str, reading: Reading, names: list[str]) -> tuple[str, Reading]:
    """The question and its reading without the Total a share is of ("the percent of total
    sales" → "the percent of sales") when columns give each row's share of the total
    ("Fiscal Year 2018 · % of Total", among ``names``): that column is named, no Total row."""
    if not any(_OF_TOTAL.search(name) for name in names):
        return question, reading
    without = _OF_TOTAL.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)], question)
    return without, replace(reading, subject=reading.subject - TOTAL_WORDS)


def read_question(question: str) -> Reading:
    question = spaced_years(question)  # "for 2017,2018 and 2019": three years
    text = fold(question)
    found = _YEAR.findall(pairs_as_end_years(text))  # "2018/2019" is fiscal 2019
    years = tuple(dict.fromkeys(full or f"20{short}" for full, short in found))
    operation = operation_in(text, question)
    if operation in ("share", "value") and TOTAL_RETURN.search(text) and len(ended := periods_ended(text)) == 1:
        operation, years = "percent_change", ended[0]  # the return over the span: from its base year's figure
    if HYPOTHETICAL.search(text) or _PERIODS_UP_TO.search(text):
        operation = None  # "what would X be without Y", "assuming …": no cell states it, nor one computation of cells;
        # "payments due in 5 years or below": several columns of a maturity table, which no one column holds
    months = _months(text)
    if operation in ("mean", "sum") and (span := _RANGE.search(text)):  # "from 2017 to 2019": every year
        first, last = sorted(int(y) for y in span.groups() if y)
        years = tuple(str(y) for y in range(last, first - 1, -1)) if last - first < 12 else years
    elif operation == "value" and _EACH_ASKED.search(text) and (span := _RANGE.search(text)):
        first, last = (int(y) for y in span.groups() if y)  # "for fiscal years 2019 to 2017 respectively": each
        step = 1 if last >= first else -1
        years = tuple(str(y) for y in range(first, last + step, step)) if abs(last - first) < 12 else years
    elif operation == "mean" and len(years) == 1 and (closing := YEAR_AVERAGE.search(text)):
        years = (closing.group(1), str(int(closing.group(1)) - 1))  # "the 2019 average X": its opening and closing
    which = _WHICH.search(text)
    subject = {w for w in words(_YEAR.sub(" ", text)) - _ASKING if not w.isdigit()}
    named = _WHAT_THE.search(text) or _EXTREME_THING.search(text)
    dimension = (
        which.group(1) if which else named.group(1) if named and named.group(1) not in _NOT_NAMED_THING else None
    )
    kept = [t for t in re.findall(r"[^\W_]+", question) if words(t) & subject - TOTAL_WORDS and fold(t) != dimension]
    return Reading(
        operation=operation,
        years=years,
        months=months,
        quarters=quarters_in(text),
        condition=condition_in(text),
        dimension=dimension,
        single=bool(_SINGLE.search(text)),
        counts_periods=bool(_COUNT_IF.search(text)),
        month_range=len(months) == 2 and bool(_MONTH_RANGE.search(text)),
        subject=frozenset(subject),
        percent=answer_kind(question) == "percent" or operation in ("percent_change", "share") or "%" in question,
        subject_text=" ".join(kept) or question,
    )


_EXTREME = re.compile(r"(?i)\b(?:minimum|maximum|lowest|highest|largest|smallest|least|most)\b")
_AVERAGE = re.compile(r"(?i)\b(?:average|mean|moyenne)\b(?=\W+(\w+))")
# "the 2019 average free cash flow": as an average balance is, the mean of the year's closing
# figure and the one before (the year before's closing is the year's opening)
_WEIGHTED = re.compile(r"(?i)\bweighted[\s-]*$")
_OF_TWO_CELLS = frozenset({"change", "decrease", "difference", "percent_change", "ratio", "share"})


def operation_as_name(question: str, reading: Reading, held: frozenset[str] | set[str], names: list[str]) -> Reading:
    """The question read again without the word of its operation where that word is part of
    a name the table holds (``held``: the words of its labels and columns; ``names``: the
    labels and columns): "the Minimum Pension Liability balance in 2018" asks a value, not
    the lowest row; "the respective average price per megabit in 2017 and 2018" asks the
    cells of "Average price per megabit", not their mean. "The average net loss" where a row
    is "Weighted average common shares" still asks a mean: the words after differ. A change,
    difference or ratio of averages no name holds ("the difference between 2019 average A and
    2019 average B") is no one computation of two cells: the reading asks none."""
    if reading.operation in ("max", "min"):
        named = [m.group(0) for m in _EXTREME.finditer(question) if words(m.group(0)) <= held]
        if not named:
            return reading
        stripped = _EXTREME.sub(lambda m: "" if m.group(0) in named else m.group(0), question)
        return replace(reading, operation=read_question(stripped).operation)
    after = {w for name in names for m in _AVERAGE.finditer(fold(name)) for w in words(m.group(1))}
    # "the weighted-average discount rate": a measure's name, no mean of anything
    said = [m for m in _AVERAGE.finditer(question) if not _WEIGHTED.search(question, 0, m.start())]
    named = bool(said) and all(words(m.group(1)) & after for m in said)  # every "average" said is a name's
    if reading.operation in _OF_TWO_CELLS and said and not named:
        return replace(reading, operation=None)  # "the change between 2018 and 2019 average X": of two means
    if reading.operation != "mean" or not named:
        return reading
    return read_question(_AVERAGE.sub("", question))
