"""What kind of answer a question asks for, and whether a passage holds one.

A small multilingual embedding model ranks sentences loosely: an introduction that
names the question's subject often outranks the sentence that answers it. The kind of
answer a question expects (a person, a date, a duration, an area, a share, an amount, a
count) is a sharper test, and it holds across languages: "Qui dirige l'antenne ?"
expects a name whatever the language of the passage. The years and months a question
names are constraints: a row of May 2025 does not answer a question about December 2024.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from engine.grounding.dates import FULL_MONTHS_EN, FULL_MONTHS_FR
from engine.grounding.figures import NUMBER_WORDS, extract_figures


def fold(text: str) -> str:
    """Lower-cased, accents removed."""
    if text.isascii():  # nothing to decompose: the common case, kept cheap
        return text.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


AnswerKind = Literal["person", "date", "duration", "area", "percent", "amount", "count"]
Fit = Literal["match", "other", "none", "any"]  # holds the kind / another figure / nothing / no kind asked

_TIME_WORDS = r"(?:days?|jours?|hours?|heures?|minutes?|mins?|weeks?|semaines?|months?|mois|years?|ans|annees?)"
# Checked in order: "how many days" is a duration before it is a count; "what share of the
# budget" a percentage before an amount. Patterns read accent-folded, lower-cased text.
_QUESTION_KINDS: tuple[tuple[AnswerKind, re.Pattern[str]], ...] = (
    ("person", re.compile(r"^\W*(?:who|whom|qui)\b|\bname of the (?:person|manager|head)\b|\bnom du responsable\b")),
    (
        "date",
        re.compile(
            r"\b(?:when|what date|which date|what years?|which years?|since when|on what day|how often|how frequently|"
            r"quand|quelle date|quel jour|en quelle annee|depuis quand|a quelle date|a quelle frequence)\b"
        ),
    ),
    (
        "duration",
        re.compile(
            rf"\b(?:how long|combien de temps|quel delai|dans quel delai|au bout de combien|within how many|"
            r"over what (?:\w+ )?(?:duration|period|term|timeframe|time frame|length of time)|what duration|"
            r"period over which|sur quelle duree|quelle duree|(?:remaining|amortization) "
            r"(?:\w+ )?period\b(?! (?:ended|ending))|"
            rf"how many (?:\w+ ){{0,2}}{_TIME_WORDS}|combien de (?:\w+ ){{0,1}}{_TIME_WORDS}|"
            rf"sous combien de {_TIME_WORDS})\b"
        ),
    ),
    ("area", re.compile(r"\b(?:surface|superficie|floor area|floor space|how big|square (?:metres|meters|feet))\b")),
    (
        "percent",
        re.compile(
            r"\b(?:percent|percentage|pourcentage|pour ?cent|what share|quelle part|what (?:proportion|portion)|"
            r"quelle proportion|what fraction|quel taux|what rate|represent(?:s|ed)? how much of)\b|(?<![\d ])(?<!\d )\s?%\s(?:of|de|du|des)\b"  # "the % of revenue", not "5% of 200"
        ),
    ),
    (
        "amount",
        re.compile(
            r"\b(?:how much|combien (?:coute|coutent|paie|verse|rembourse|rapporte)|what amount|quel montant|"
            r"up to what amount|above what amount|what sum|budget|montant|amount|price|prix|cout|cost|fee|salary|"
            r"salaire|allowance|indemnite|spending limit|plafond|cap|ceiling)\b"
            # "what was the company's goodwill at the end of 2018?": a balance, unless a reason or a policy is asked
            r"|^\W*what (?:is|was|are|were) (?!.*\b(?:reason|cause|purpose|policy|strategy|nature|basis|method|status)\b)"
            r"(?:the |\w+['’]s )(?:[\w'’-]+ ){1,4}at the end of (?:fiscal )?(?:19|20)\d\d\b"
        ),
    ),
    ("count", re.compile(r"\b(?:how many|combien d[e']|number of|nombre d[e']|quel nombre)")),
)
# "was X greater than Y?", "did altria outperform the s&p 500?": yes or no, which figures alone do not say
YES_NO_ASKED = re.compile(
    r"^\W*(?:is|are|was|were|did|does|do|has|have|had|will|would|can|could|should)\b(?![^?]*\bor\b)"
)
YES_NO = re.compile(r"(?i)\b(?:yes|no|oui|non|not|pas)\b|n't\b")
# "the sum of all tax credit carryforwards": the rows under a name, which no one row's cell is
ALL_SUMMED = re.compile(r"\b(?:sum|total)(?: \w+){0,2} of all\b|\bsomme(?: \w+){0,2} de (?:tous|toutes)\b")
_MONEY_WORDS = re.compile(r"(?i)[€$£]|\b(?:eur|usd|gbp|chf|euros?|dollars?|budget\w*|cost\w*|price\w*|montant|prix)\b")
_NUMBER_WORDS = rf"(?:{'|'.join(sorted([*NUMBER_WORDS, 'one', 'un', 'une'], key=len, reverse=True))})"
_NEAR_TIME = re.compile(rf"(?:\d[\d\s.,]*|\b{_NUMBER_WORDS}\s)\s*(?:[^\W\d]+\s+){{0,2}}?{_TIME_WORDS}\b")
_AREA = re.compile(r"(?i)\d[\d\s.,]*\s*(?:m²|m2|sq\.? ?(?:ft|m)|square (?:metres|meters|feet)|hectares?|ha\b|km²)")
_WEEKDAYS = (
    "monday tuesday wednesday thursday friday saturday sunday lundi mardi mercredi jeudi vendredi samedi dimanche"
)
_MONTHS_EN = [*FULL_MONTHS_EN, "may"]  # dates.py leaves "may" out of full names ("3 may be")
_MONTHS = sorted({fold(m) for m in [*_MONTHS_EN, *FULL_MONTHS_FR]})
_WHEN_WORDS = re.compile(
    rf"\b(?:{'|'.join(_WEEKDAYS.split() + _MONTHS)}|business day|working day|"
    r"jour ouvre|jour ouvrable|quarter|trimestre|weekly|monthly|yearly|annual|every|chaque|daily|quotidien)\b"
)
_NAME = re.compile(r"\b([A-ZÀ-Ý][a-zà-ÿ'’-]+)\s+([A-ZÀ-Ý][a-zà-ÿ'’-]+)\b")
_NOT_NAMES = frozenset(
    """the this these those that a an each every any all our your their its in on at for from to by with as if
    when after before during since le la les l un une des ce cet cette ces chaque tout tous toute toutes notre
    votre leur leurs son sa ses il elle ils elles en dans sur pour par avec depuis apres avant pendant si quand""".split()
    + _WEEKDAYS.split()
    + _MONTHS_EN
)
_BODY = re.compile(
    r"\b(?:Board of Directors|[A-Z][a-z]+ Committee|Supervisory Board|Management Board|[Ss]hareholders|[Ss]tockholders|"
    r"conseil d'administration|[Cc]omité \w+)\b"
)
_LABEL_WORDS = frozenset({"Action", "Input", "Thought", "Observation", "Answer", "Final", "Question"})  # ReAct labels
_RANGE_WORDS = re.compile(r"\b(?:to|through|until|between|jusqu|entre)\b|\bde \w+ (?:a|au) \w+")


def answer_kind(question: str) -> AnswerKind | None:
    """The kind of answer ``question`` expects, or None when it could be anything."""
    text = fold(question)
    for kind, pattern in _QUESTION_KINDS:
        if pattern.search(text):
            return kind
    return None


# Questions that ask for words: a reason, a definition, a method, what something includes.
# A figure, a row or a computation does not answer them (accent-folded, lower-cased text).
_WORDS_ASKED = re.compile(
    r"^\W*(?:why|pourquoi)\b"
    r"|\bwhat (?:caused|causes|led to|leads to|drove|drives|explains?|contributed to|accounted for|accounts for|"
    r"resulted in|results in)\b"
    r"|\b(?:what|which) (?:is|are|was|were) (?:the )?(?:(?:main|primary|principal|key|major) )?(?:reasons?|factors?|definition|purpose|nature|policy|basis|"
    r"method|methods|cause|causes|drivers?)\b"
    r"|\b(?:what|which) (?:is|are|was|were) (?:the )?(?:\w+ )?(?:forms?|types?|kinds?|categories|components|areas|regions|"
    r"segments|countries|items)(?: in the table)? (?:(?:factored|included) )?(?:of|in|making up|that make up|which make up)\b"
    r"|\bwhat (?:method|methods|approach|basis|assumptions?)\b"
    r"|^\W*what (?:is|are|was|were) (?:the )?(?:[\w'’]+ ){0,2}assumptions? (?:on|for|about|regarding)\b|\b(?:raisons?|methode)\b"
    r"|^\W*how (?:do|does|did) (?:the )?(?:company|group|entity|we|it|management) (?:derive|calculate|determine|"
    r"estimate|measure|compute|assess|arrive at|convert|hedge|manage|mitigate|fund|finance|define|account for)\b"
    r"|^\W*how (?:is|are|was|were) (?!much\b|many\b)[^?]*\b[a-z]+ed\s*\??\s*$"  # "how is the revenue diversified?"
    r"|^\W*how (?:is|are|was|were|do|does|did) .*\b(?:determined|calculated|measured|defined|recogni[sz]ed|"
    r"accounted|treated|classified|valued|estimated|presented|allocated|computed)\b"
    r"|\bqu'est-ce qui (?:explique|a cause)|\bcomment (?:est|sont) (?:calcule|determine|mesure|defini)"
    r"|^\W*what (?:has|have|had|is|are|was|were) .*\b(?:restated|adjusted|translated|used|designed|intended|"
    r"reclassified) for\b"  # "What have the values in the 2018 column been restated for?": a purpose
    r"|^\W*what (?:is|are|was|were) .*\b(?:related|attributable|attributed|due) to\s*\??\s*$"  # "… in 2019 related to?"
    r"|^\W*what (?:is|are|was|were) .*\b(?:classified|recorded|presented|reported|categori[sz]ed) as\b"  # a line item
    r"|^\W*(?:what|which) (?:types?|kinds?|forms?|sorts?) of .*\b(?:is|are|was|were) (?:excluded|included|omitted)\b"
    r"|^\W*what (?:do|does|did) (?:the )?(?:company|group|management|we|they) (?:use|consider|believe|require)s?\b"
    r"|^\W*what (?:do|does|did) [^?]{1,120}\b(?:do|achieve|aim to do|seek to do)\s*\??\s*$"  # "what does the arrangement do?"
)  # "What does the Company use to reduce the inventory cost basis?": a practice, in words
# "What does X include / represent / show?" asks for words unless it asks a percentage or an amount.
_CONTENT_ASKED = re.compile(
    r"^\W*what (?:\w+ ){0,2}(?:do|does|did) .*\b(?:include|exclude|represent|relate|refer|show|consist|mean|"
    r"comprise|provide|classify|cover|describe|contain|reflect|indicate|allow|permit|entail|involve)s?\b(?: \w+)?(?: to| as)?\s*\??\s*$"
    r"|^\W*what (?:do|does|did) (?:the )?(?:company|group|management|we|they)\b.*\b(?:expect|intend)s?\b"
    r"|^\W*what (?:is|are|was|were) the (?:\w+ )?(?:schedule|terms|conditions)\b"
    r"|^\W*what (?:is|are|was|were) (?:included|excluded|contained|comprised) (?:in|within|under)\b"
    r"|\bque (?:comprend|represente|contient|couvre|signifie)\b"
)
# "What is the currency translation reserve made up of?", "How should the data be read in conjunction with?":
# a question that ends on its preposition asks what the thing is made of, used for or read with, in words.
_ENDS_ON_PREPOSITION = re.compile(
    r"^\W*(?:what|how)\b(?!.*\b(?:rates?|amounts?|values?|percentages?|percent|numbers?|figures?|ratios?|much|many|"
    r"years?|dates?|periods?)\b).*\b(?:with|of|for|to|on|by|from|about|into|as)\s*\??\s*$"
)
_PROSE_WORD = re.compile(r"[^\W\d_]{3,}")


# "What does the table show?", "Which years does the table cover?": asked of a table itself, which
# its title and headings answer; no passage or cell of it states that (accent-folded, lower-cased).
_TABLE_ASKED = re.compile(
    r"\b(?:what|which \w+) (?:does|do|did) (?:the|this) table\b"
    r"|\bwhat (?:is|was) (?:the|this) table (?:about|for)\b|\bque (?:montre|represente|presente) (?:le|ce) tableau\b"
)


# "Which years does the table provide information for?", "What fiscal years are included in the table?"
_TABLE_YEARS_ASKED = re.compile(
    r"\b(?:which|what) (?:fiscal |financial )?(?:years?|periods?) (?:does|do|did|is|are|was|were) (?:the|this) "
    r"(?:table|information|data|figures)\b|\b(?:years?|periods?) (?:are |were )?(?:included|listed|shown|covered|given) "
    r"in (?:the|this) table\b|\b(?:quelles?|quel) (?:annees?|exercices?|periodes?) .*\b(?:le|ce) tableau\b"
)


# "In which years was X recorded?", "Which years does the table provide information for?" (folded text)
PERIODS_ASKED = re.compile(
    r"^\W*(?:(?:in|for) )?(?:which|what) (?:financial |fiscal |calendar )?(?P<period>years?|periods?)(?:'s?)?\b"
    r".*\b(?:table|provided?|calculated|recorded|accounted|included|listed|shown|show|available|presented|"
    r"information|data)\b"
    r"|^\W*(?:pour |sur )?(?:quelles?|quels?) (?:annees?|exercices?|periodes?)\b.*\b(?:tableau|fourni\w*|present\w*)\b"
)


def asks_table_years(question: str) -> bool:
    """Whether ``question`` asks which years a table gives ("Which years does the table provide
    information for?", "In which years was X recorded?"): its header answers, not a year written
    anywhere in it. "In which year was X recorded?" may ask when an event was, so only plural
    periods count there."""
    folded = fold(question)
    if _TABLE_YEARS_ASKED.search(folded):
        return True
    periods = PERIODS_ASKED.search(folded)
    return periods is not None and (periods.group("period") or "s").endswith("s")


def asks_about_table(question: str) -> bool:
    """Whether ``question`` asks what a table shows, represents or covers."""
    return bool(_TABLE_ASKED.search(fold(question)))


# The sentence a report writes over its table: "The geographic distribution of pretax income is as follows:"
_TABLE_INTRO = re.compile(
    r"(?:\b(?:the following table|table below|tableau (?:ci-dessous|suivant))\b"
    r"|\b(?:is|are|were|was) (?:\w+ )?(?:as follows|(?:presented|summari[sz]ed|shown|set out) below)\b"
    r"|\b(?:consist(?:s|ed)?|comprise[sd]?|include[sd]?) (?:of )?the following\b)[^|]*$"
)


def introduces_table(sentence: str) -> bool:
    """Whether ``sentence`` is the one a report writes to say what its table shows."""
    text = fold(sentence).strip()
    return "|" not in text and len(text) < 400 and bool(_TABLE_INTRO.search(text))


# "what is X comprised of?" asks what it includes; "what percentage of X was comprised of Y?" asks a figure
_MADE_OF = re.compile(r"\b(?:comprised?|consists?) (?:(?:primarily|mainly|principally|largely|chiefly|mostly) )?of\b")
_FIGURE_FIRST = re.compile(
    r"^\W*(?:what|which) (?:percent(?:age)?|portion|proportion|fraction|share)\b|^\W*how (?:much|many)\b"
)


def asks_for_words(question: str) -> bool:
    """Whether ``question`` asks for words (a reason, a definition, what a figure includes),
    so that no figure, table row or computation answers it."""
    text = fold(question)
    return bool(
        _WORDS_ASKED.search(text)
        or _MADE_OF.search(text)
        and not _FIGURE_FIRST.search(text)
        or (_CONTENT_ASKED.search(text) or _ENDS_ON_PREPOSITION.search(text))
        and answer_kind(question) is None
    )


# "Which assets …", "who …", "where …": a name or a place asked, which no bare figure gives (a period asked is one)
_NAME_ASKED = re.compile(
    r"^\W*(?:which|who|whom|where|qui|ou)\b(?!\s+(?:fiscal |financial )?(?:years?|quarters?|months?|periods?|"
    r"dates?|annees?|trimestres?|mois)\b)"
)


def asks_for_name(question: str) -> bool:
    """Whether ``question`` asks which thing, who or where ("Which assets had …?"), not a figure or a period."""
    return bool(_NAME_ASKED.search(fold(question)))


def is_prose(text: str, least: int = 4) -> bool:
    """Whether ``text`` says something in words: at least ``least`` words of three letters,
    and no table row ("a | b") or bare expression ("695 / 4 + 3 = 176.75")."""
    if "|" in text:
        return False
    return len(_PROSE_WORD.findall(text)) >= least


def names_in(text: str) -> set[str]:
    """Two capitalised words in a row, the first no function word: what a person's name looks like."""
    return {f"{a} {b}" for a, b in _NAME.findall(text) if fold(a) not in _NOT_NAMES and not {a, b} & _LABEL_WORDS}


def fit(kind: AnswerKind | None, text: str, common_names: frozenset[str] = frozenset(), computed: bool = False) -> Fit:
    """Whether ``text`` holds an answer of ``kind`` ("match"), only figures of another
    kind ("other"), nothing of the sort ("none"); "any" when no kind is asked.
    ``common_names`` are capitalised pairs frequent in the evidence (a company's name), not answers."""
    if kind is None:
        return "any"
    if computed and kind != "person":  # a tool's result answers the computation it was asked for
        return "match" if extract_figures(text) else "none"
    if kind == "person":  # a name, or a body that decides ("approved by the Board of Directors")
        return "match" if names_in(text) - common_names or _BODY.search(text) else "none"
    figures = extract_figures(text)
    kinds = {f.kind for f in figures}
    matched = {
        "date": "date" in kinds or bool(_WHEN_WORDS.search(fold(text))),
        "duration": "duration" in kinds or bool(_NEAR_TIME.search(fold(text))),
        "area": bool(_AREA.search(text)),
        "percent": "percent" in kinds,
        "amount": "amount" in kinds or (bool(figures) and bool(_MONEY_WORDS.search(text))),
        "count": bool(kinds & {"number", "duration", "amount"}),
    }[kind]
    if matched:
        return "match"
    return "other" if figures else "none"


Aggregate = Literal["mean", "max", "min", "sum"]
_AGGREGATES: tuple[tuple[Aggregate, re.Pattern[str]], ...] = (
    (
        "mean",
        re.compile(r"(?<!weighted )(?<!weighted-)\b(?:average|mean|moyenne|moyen)\b"),
    ),  # "weighted average …": a name
    ("max", re.compile(r"\b(?:most|highest|largest|biggest|greatest|maximum|le plus|la plus|les plus|maximal)\b")),
    ("min", re.compile(r"\b(?:least|lowest|smallest|fewest|minimum|le moins|la moins|les moins|minimal)\b")),
    ("sum", re.compile(r"\b(?:total|sum|in all|altogether|somme|au total|en tout|cumul\w*|tous les|toutes les)\b")),
)


# "total comprehensive income", "weighted average duration of", "the cumulative amount of net derivative gains":
# a name, not an operation, when the evidence writes it (of folded words one space apart)
NAMED_AGGREGATE = re.compile(r"\b(?:total|average|cumul[a-z]*) [a-z]+ [a-z]+\b")


def aggregate_asked(question: str) -> Aggregate | None:
    """The total, average or extreme the question asks for (no single sentence or row
    states one), or None."""
    text = fold(question)
    return next((op for op, pattern in _AGGREGATES if pattern.search(text)), None)


def years_in_order(text: str) -> list[str]:
    """The years a text names, alone ("in 2025") or in a date ("March 2025"), in order, once each."""
    found = extract_figures(text)
    years = [
        f.value[:4] if f.kind == "date" else f.value
        for f in found
        if f.kind == "date" or f.kind == "number" and re.fullmatch(r"(19|20)\d\d", f.value)
    ]
    return list(dict.fromkeys(years))


def years_named(question: str) -> set[str]:
    """The years a question names, alone ("in 2025") or in a date ("March 2025")."""
    return set(years_in_order(question))


def constraints_met(question: str, text: str) -> bool:
    """Whether ``text`` (a passage with its source and location) names every year the
    question names, and the month when the question names one month and ``text`` dates its rows by month."""
    if any(year not in text for year in years_named(question)):
        return False
    months = [f.value for f in extract_figures(question) if f.kind == "date" and len(f.value) == 7]
    if len(months) != 1 or _RANGE_WORDS.search(fold(question)):
        return True
    held = {f.value[:7] for f in extract_figures(text) if f.kind == "date" and len(f.value) >= 7}
    return not held or months[0] in held


# A question asking why (EN and FR, accent-folded), and the words a sentence gives a reason with
# (also what engine/grounding/restated.py and quotes.py read as a cause restated).
REASON_ASKED = re.compile(
    r"^\W*(?:why|pourquoi)\b|\bwhat (?:caused|causes|led to|leads to|drove|drives|contributed to|resulted in|"
    r"results in|explains?)\b|\breasons?\b|\bdrivers?\b|\bdriven\b|\bqu'est-ce qui (?:explique|a cause)|\braisons?\b"
)
REASON_GIVEN = re.compile(
    r"\b(?:due to|driven by|because|as a result of|result(?:ed|ing)? from|result of|attributable to|attributed to|"
    r"owing to|caused by|reflect(?:s|ed|ing)?|primarily from|mainly from|largely from|led by|thanks to|en raison|"
    r"du fait|grace a|s'explique)\b"
)

# A question asking how a figure is arrived at ("how is X calculated?", "how does the company
# estimate X?"), and the words a sentence gives its method with ("using the Black-Scholes model",
# "based upon", "by dividing"); also what engine/grounding/restated.py and quotes.py read as a method restated.
_METHOD_VERBS = r"(?:calculat|determin|measur|comput|estimat|deriv|valu|assess)\w*"
METHOD_ASKED = re.compile(
    rf"^\W*how (?:is|are|was|were) .*\b{_METHOD_VERBS}\b"
    rf"|^\W*how (?:do|does|did) (?:the )?(?:\w+ ){{1,3}}?{_METHOD_VERBS}\b"
)
METHOD_GIVEN = re.compile(
    r"\b(?:based (?:up)?on|by (?:dividing|multiplying|subtracting|adding|applying|using|comparison|reference)|"
    r"using|with reference to|by means of)\b"
)
