"""How well a row label or a column name fits a question: by its words, and by the
embedding model (so "chiffre d'affaires Logiciels" finds the row "Software revenue");
and which rows a question names (``named_rows``; its columns: ``column_match``).

The labels' vectors are computed once per catalog and model (its ``memo``): one query vector a plan.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import Any

import numpy as np

from engine.grounding.answer_kinds import fold
from engine.grounding.initialisms import dotted
from engine.grounding.measure import opposite
from engine.grounding.stems import word_sequence, words
from engine.grounding.totals import is_total_label
from engine.tools.tables.catalog import TableCatalog
from engine.tools.tables.question_reading import Reading

Encode = Callable[[list[str]], Any]
_REMARK = re.compile(r"\((?:[^()]*\d[^()]*|[^()\s]+(?:\s+[^()\s]+){2,})\)")  # "(net of refunds of $11.2 …)"
_DEFINED_TERM = re.compile(r"\(\s*[“\"'‘]([^”\"'’()]{1,40})[”\"'’]\s*\)")  # (“Apple”): the name the report uses
INSIDE = re.compile(r"\(([^()]*)\)")
_QUALIFIED = re.compile(r"^([^,]+),\s*([^,]{2,30})$")  # "Monetary assets, non-current"
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_PORTION = re.compile(r"\bwhat (?:portion|proportion) of (?:the )?total\b")  # a part of the Total row
_PER_SHARE = re.compile(r"(?i)\bper (?:\w+ )?(?:share|unit|ads)\b|\beps\b")  # "per common share", "EPS"
HEAD_NAMED = 0.2  # the bonus of a row named with its section
_OPERATOR = re.compile(r"(?i)^\s*(?:less|add|plus|minus|deduct)\b\s*:?")  # "Less: valuation allowance"
HYPHENATED = re.compile(r"\w+(?:-\w+)+")  # "non-vested": its "vested" is no word written apart
_FOOTNOTES = re.compile(r"\(\d{1,2}\)|(?<=[a-z])\d{1,2}\b")  # "services(1)(2)", "dividends1"


_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")  # "Guaranty fund contributions<sup>(2)</sup>"


def label_text(name: str) -> str:
    """A column name or row label as words: ``late_deliveries`` → "late deliveries"; the inline markup a report
    converted from HTML keeps ("<sup>", "<i>") is no word of it."""
    return re.sub(r"[_\W]+", " ", _TAG.sub(" ", name)).strip()


def label_words(label: str) -> set[str]:
    """A row label's words, without its footnote marks, with its dotted initialisms ("U.S." → "u.s.")."""
    return words(label_text(_FOOTNOTES.sub(" ", label))) | dotted(label)


def _sequence(text: str) -> list[str]:
    """A label's or question's words in their order, without footnote marks."""
    return word_sequence(label_text(_FOOTNOTES.sub(" ", text)))


def longest_run(label: str, asked: list[str]) -> int:
    """How many of the label's words the question writes in a row, in the label's order
    ("net deferred tax" in "the total net deferred taxes": 3 for "Net deferred tax assets", 2 for
    "Total deferred tax assets")."""
    own = _sequence(label)
    return SequenceMatcher(None, own, asked, autojunk=False).find_longest_match(0, len(own), 0, len(asked)).size


def lexical(label: str, asked: frozenset[str] | set[str], subject: frozenset[str] | set[str]) -> tuple[float, float]:
    """(share of the label's words that stand in the question, share of the question's
    subject words the label holds). A remark in parentheses ("Cash paid for income taxes
    (net of refunds of $11.2, $25.0 and $20.7, respectively)") is not part of the name a
    question gives, so its words count only when the question uses them; nor is the sign word
    that opens a reconciliation row ("Less: valuation allowance"). A row that defines its short
    name ("Apple Inc. (“Apple”)") is named whole by it."""
    own = label_words(label)
    for term in _DEFINED_TERM.findall(label):  # "Apple Inc. (“Apple”)": the question may call it by its short name
        short = label_words(term)
        if short and short <= asked:
            return 1.0, (len(own & subject) / len(subject) if subject else 0.0)
    core = label_words(_OPERATOR.sub(" ", _REMARK.sub(" ", label)))
    if core and core != own:
        own = core | (own & asked)
    if not own:
        return 0.0, 0.0
    hit = own & asked
    return len(hit) / len(own), (len(own & subject) / len(subject) if subject else 0.0)


class Semantic:
    """Rescaled embedding similarity (0-1) of a question's words to labels; the labels'
    vectors are kept per catalog and model, the question's for one plan."""

    def __init__(self, catalog: TableCatalog, encode: Encode | None) -> None:
        self._encode = encode
        self._queries: dict[str, np.ndarray] = {}
        model = getattr(encode, "_encode", encode)
        self._vectors: dict[str, np.ndarray] = catalog.memo.setdefault(("label_vectors", model), {})
        self._range = getattr(encode, "similarity_range", (0.0, 1.0))

    def scores(self, text: str, labels: Sequence[str]) -> list[float]:
        if self._encode is None or not labels or not text.strip():
            return [0.0] * len(labels)
        if text not in self._queries:
            query = getattr(self._encode, "query", self._encode)
            self._queries[text] = np.asarray(query([text]), dtype=np.float32)[0]
        missing = [text for text in dict.fromkeys(labels) if text not in self._vectors]
        if missing:
            vectors = np.asarray(self._encode([label_text(t) or t for t in missing]), dtype=np.float32)
            self._vectors.update(zip(missing, vectors, strict=True))
        matrix = np.stack([self._vectors[t] for t in labels])
        low, high = self._range
        return [float(np.clip((s - low) / (high - low), 0.0, 1.0)) for s in matrix @ self._queries[text]]


ROW_MIN_WORDS = 0.6  # share of a row label's words that stand in the question
# Or, when no label stands in the question's words, the embedding similarity of its subject
# words to the label, clear of the next label: "chiffre d'affaires logiciels" scores 0.68
# with "Software" and 0.58 with the next; "coût des ventes" 0.83 with "Cost of sales".
ROW_MIN_SIMILARITY = 0.65
ROW_MARGIN = 0.1
SEMANTIC_MAX_LABELS = 400  # more row labels than this are matched by words only


# "A and B, respectively": the cells of several rows; "Government grants" alone is one row,
# however many labels ("Government grants1", "Government grants2") hold its words.
_SEVERAL_ASKED = re.compile(r"\b(?:respective(?:ly)?|respectivement|each of|both)\b")
# Words that say what to compute ("the increase in franchise rental revenues"): a row
# labelled with them alone ("% increase") is not named by a question asking for that
# computation.
_OPERATION_WORDS = words("increase decrease change difference growth average mean ratio percentage percent")


def position(label: str, folded: str, shared: frozenset[str] = frozenset()) -> int:
    """Where the question first writes the label's words, those ``shared`` with the other rows it names aside
    ("state" of "Domestic–state" against "Domestic–federal")."""
    own = [w for w in re.findall(r"[a-z0-9]+", fold(label)) if len(w) > 2]
    own = [w for w in own if w not in shared] or own or [fold(label)]
    spots = [folded.find(w) for w in own if w in folded]
    return min(spots) if spots else len(folded)


def _written_apart(part: str, whole: str, asked: list[str]) -> bool:
    """Whether the question writes ``whole``'s words in a row, and ``part``'s more often: once
    inside "in-game net bookings" and once on their own ("net bookings and in-game net bookings")."""
    written = _runs(_sequence(whole), asked)
    return 0 < written < _runs(_sequence(part), asked)


def _written_instead(part: str, whole: str, asked: list[str]) -> bool:
    """Whether the question writes ``part``'s words in a row, two or more, and never ``whole``'s:
    "net interest revenue", not "Revenues, net of interest expense"."""
    own = _sequence(part)
    return len(own) >= 2 and _runs(own, asked) > 0 and not _runs(_sequence(whole), asked)


def _kept(part: str, whole: str, asked: list[str]) -> bool:
    return _written_apart(part, whole, asked) or _written_instead(part, whole, asked)


def _runs(label: list[str], asked: list[str]) -> int:
    n = len(label)
    return sum(1 for i in range(len(asked) - n + 1) if asked[i : i + n] == label) if n else 0


def best_named(labels: Sequence[str], asked: set[str], subject: frozenset[str] | set[str]) -> str | None:
    """Of the headings the question names, the one it names most of ("Non-current" before
    "Current" for "the components under Non-current"), the first on a tie; None when it names none."""
    named = [h for h in dict.fromkeys(labels) if h and lexical(h, asked, subject)[0] >= ROW_MIN_WORDS]
    return max(named, key=lambda h: len(label_words(h) & asked), default=None)


def named_rows(
    question: str,
    asked: set[str],
    reading: Reading,
    labels: list[str],
    sem: Semantic,
    heads: dict[str, str] | None = None,
) -> list[str]:
    """The row labels the question names: several when it asks for, adds, averages or
    compares rows it names in full, else the one that fits it best, else none (``asked``:
    the question's words without its years). A row's
    heading (``heads``: "Net loss per share:" over "Basic") adds to how much of the
    question it covers, never to whether the question names it."""
    scored, full, shares = [], [], []
    in_order = _sequence(question)
    apart = words(HYPHENATED.sub(" ", question))
    compounds = [words(c) for c in HYPHENATED.findall(question)]
    asked_all = frozenset(words(question))
    for label in labels:
        if len(label) <= 3:  # "IT" must stand as written
            share = 1.0 if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", question) else 0.0
            cover = share / max(1, len(reading.subject))
        elif reading.operation != "value" and label_words(label) <= _OPERATION_WORDS:
            share, cover = 0.0, 0.0  # "% increase" is not what "the increase in X" names
        elif _part_of_compound(label_words(label), compounds, apart) or opposite(
            asked_all, frozenset(label_words(label))
        ):
            share, cover = 0.0, 0.0  # "Vested" for "non-vested shares", "Current" "non-current", "loss" for "gains"
        else:
            share, cover = lexical(label, asked, reading.subject)
            if heads and heads.get(label):
                cover = max(cover, lexical(f"{heads[label]} {label}", asked, reading.subject)[1])
        shares.append(share)
        hits = len(label_words(label) & asked) if share >= ROW_MIN_WORDS else 0
        head = label_words(heads.get(label, "")) if heads else set()
        # "the current state provision": a row whose section the question names too ("Current: State")
        # before the table's bottom line whose words it also holds ("Provision for income taxes")
        sectioned = HEAD_NAMED if share == 1.0 and head and head <= asked else 0.0
        # of two labels the question names whole ("Revenue", "Revenue growth"), the one it names more of,
        # then the one whose words it writes in a row
        run = 0.0001 * longest_run(label, in_order) if share >= ROW_MIN_WORDS else 0.0
        scored.append(0.75 * share + 0.25 * cover + 0.001 * hits + run + sectioned if share >= ROW_MIN_WORDS else 0.0)
        own = _without_head(label, heads or {})  # "Total revenues by business: Hardware" is no Total row
        if share == 1.0 and not (is_total_label(own) and reading.operation in ("sum", "mean")):
            full.append(label)  # a Total row is never added again
    remarked = _remark_holders(question, labels) or _per_share_holders(question, labels, heads or {})
    if remarked:  # "basic earnings per share (cents per share)": not the share count of the same name
        scored = [score if label in remarked else 0.0 for label, score in zip(labels, scored, strict=True)]
        full = [label for label in full if label in remarked]
    if max(shares, default=1.0) == 0.0 and len(labels) <= SEMANTIC_MAX_LABELS:  # no label's word asked: by meaning
        semantic = sem.scores(reading.subject_text, labels)
        ranked = sorted(semantic, reverse=True) + [0.0]
        if ranked[0] >= ROW_MIN_SIMILARITY and ranked[0] - ranked[1] >= ROW_MARGIN:
            best = semantic.index(ranked[0])
            scored[best] = max(scored[best], ranked[0])
    if not reading.percent:  # "Cost of net revenue" over its own "Cost of net revenue: % of net revenue"
        full = [
            a
            for a in full
            if not ("%" in a and any(b != a and "%" not in b and label_words(b) == label_words(a) for b in full))
        ]
    full = [  # "Software" in "Software revenue", unless written apart too ("net bookings and in-game net bookings");
        a  # a label the question writes in a row inside one it does not ("net interest revenue" and
        for a in full  # "Revenues, net of interest expense"): the one written
        if not any(a != b and label_words(a) < label_words(b) and not _kept(a, b, in_order) for b in full)
        and not any(a != b and label_words(b) < label_words(a) and _written_instead(b, a, in_order) for b in full)
    ]
    folded = fold(question)
    several = reading.operation in (
        "sum",
        "mean",
        "ratio",
        "share",
        "change",
        "decrease",
        "difference",
        "percent_change",
    ) or (reading.operation == "value" and _SEVERAL_ASKED.search(folded) is not None)
    if several and len(full) >= 2:
        shared = (  # the order of a ratio or change is the question's; a sum's, the table's
            frozenset.intersection(*(frozenset(re.findall(r"[a-z0-9]+", fold(label))) for label in full))
            if reading.operation not in ("sum", "mean")
            else frozenset()
        )
        ranked = sorted(full, key=lambda label: position(label, folded, shared))
        spots = [position(label, folded, shared) for label in ranked]
        if reading.operation != "value" or len(set(spots)) == len(spots):  # each row named in its own words
            return ranked
    if reading.operation == "sum" and len(parts := qualified_parts(labels, asked, heads, reading.years, apart)) >= 2:
        return parts  # "the total deferred revenue": "Deferred revenue (current)" and "(non-current)"
    if reading.operation == "share" and len(full) == 1 and is_total_label(full[0]) and _PORTION.search(folded):
        # "what portion of total purchase price is related to stock awards": the Total, and the one row
        # the question names half of ("Value of Metavante stock awards"), in the question's order
        half = [
            (sh, label)
            for sh, label in zip(shares, labels, strict=True)
            if 0.5 <= sh < 1 < longest_run(label, in_order)
        ]
        if len(half) == 1 or len(half) > 1 and sorted(half)[-1][0] > sorted(half)[-2][0]:
            pair = [full[0], max(half)[1]]
            return sorted(pair, key=lambda label: position(label, folded, frozenset()))
    best = max(range(len(labels)), key=scored.__getitem__, default=None)
    if best is None or scored[best] <= 0 or _section_unnamed(labels[best], labels, heads or {}, asked):
        return []
    return [labels[best]]


def _part_of_compound(own: set[str], compounds: list[set[str]], apart: set[str]) -> bool:
    """Whether a label's words stand in the question only as part of a hyphenated word that
    the label does not hold whole: "Vested" in "non-vested", "Current" in "non-current"."""
    held = apart.union(*(c for c in compounds if c <= own))  # "Domestic–federal" holds "domestic-federal" whole
    return any(own & c and not c <= own and not own & c <= held for c in compounds)


def _remark_holders(question: str, labels: list[str]) -> set[str]:
    """The labels that write the remark of two words or more the question writes in brackets
    ("(cents per share)"), when some do and some do not; else none (a remark no label writes
    restricts nothing). One word in brackets is most often a direction ("increase (decrease)",
    "income (loss)"), which rows write in their own ways."""
    holders: set[str] = set()
    for remark in INSIDE.findall(question):
        wanted = label_words(remark)
        if len(wanted) >= 2:
            holders |= {label for label in labels if wanted <= label_words(label)}
    return holders if len(holders) < len(set(labels)) else set()


def _per_share_holders(question: str, labels: list[str], heads: dict[str, str]) -> set[str]:
    """The labels of amounts per share ("Earnings per share: Basic"), when the question asks one
    ("the basic net income per share") and some rows are not: "Net income" is no amount per share."""
    if not _PER_SHARE.search(question):
        return set()
    holders = {label for label in labels if _PER_SHARE.search(f"{heads.get(label, '')} {label}")}
    return holders if len(holders) < len(set(labels)) else set()


def qualified_parts(
    labels: list[str],
    asked: set[str],
    heads: dict[str, str] | None = None,
    years: Sequence[str] = (),
    apart: set[str] | None = None,
) -> list[str]:
    """The rows that write one item the question names in parts it does not name: "Deferred
    revenue (current)" and "Deferred revenue (non-current)" for "the total deferred revenue";
    "Monetary assets, current" and "…, non-current" of the block dated by the year asked (``heads``:
    each row's section, "As at 31 December 2019"), for "the total monetary assets as at 31 December 2019".
    ``apart``: the question's words written apart, whose qualifiers it names ("non-USD" names no
    "non-current")."""
    bases: dict[frozenset[str], list[str]] = {}
    for label in labels:
        head = (heads or {}).get(label, "")
        if years and set(_YEAR.findall(head)) - set(years):
            continue  # a block of another year than those asked
        own = _without_head(label, heads or {})
        base, inside = INSIDE.sub(" ", own), " ".join(INSIDE.findall(own))
        if not inside.strip() and (qualified := _QUALIFIED.match(own)):
            base, inside = qualified.groups()
        named = frozenset(label_words(base))
        if (
            inside.strip()
            and named
            and named <= asked
            and not label_words(inside) & (asked if apart is None else apart)
            and not is_total_label(own)
        ):
            bases.setdefault(named, []).append(label)
    parts = max(bases.values(), key=len) if len(bases) == 1 else []
    own_names = [_without_head(label, heads or {}) for label in parts]
    return parts if len(set(own_names)) == len(own_names) else []  # each part once, of one block


def _without_head(label: str, heads: dict[str, str]) -> str:
    """The row's own label, without the section heading written before it."""
    head = heads.get(label, "")
    return label[len(head) + 2 :] if head and label.startswith(f"{head}: ") else label


def _section_unnamed(label: str, labels: list[str], heads: dict[str, str], asked: set[str]) -> bool:
    """Whether ``label`` is a row named with its section ("Adjustments: Stock-based compensation",
    a label written in several sections) whose section the question does not tell from the
    others': "the stock-based compensation" is then no one row."""
    base = _without_head(label, heads)
    if base == label:
        return False
    others = [heads[o] for o in labels if o != label and heads.get(o) and o == f"{heads[o]}: {base}"]
    own = label_words(heads[label]) & asked
    return any(not own - label_words(other) for other in others)
