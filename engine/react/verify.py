"""After the answer: every figure checked against this run's evidence. A small model's
answer that fails the check is replaced, visibly, by the fact the evidence states: the
figure the question asks for first, on one line, the passage behind its footnote.

The model's answer is never altered silently: when it is replaced, the stream keeps it
as a Draft with the reason, and the fact follows as the Answer. Every caution about the
answer (replaced, unsupported, not sure, not found, a filter the plan ignored) is listed
once in ``Review.cautions``, which the stored turn, the CLI and the exports carry."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from pydantic import BaseModel, Field

from engine.grounding import Evidence, GroundingReport, Quote, check_answer, not_found_message
from engine.grounding.answer_kinds import (
    YES_NO,
    YES_NO_ASKED,
    answer_kind,
    asks_about_table,
    asks_for_name,
    asks_for_words,
    fit,
    fold,
    introduces_table,
    is_prose,
    names_in,
)
from engine.grounding.derive import preferred_ops
from engine.grounding.evidence_index import CUT_NOTE_RE, SEARCH_HEADER_RE, EvidenceIndex
from engine.grounding.facts import cite_passage
from engine.grounding.models import Figure
from engine.grounding.quotes import asks_for_figure, best_quotes, computed_quote
from engine.grounding.restated import restates_question
from engine.react.fact_answer import fact_answer, quoted
from engine.react.plan_check import sentence_against_plan
from engine.react.prompts import message
from engine.react.run_state import Caution, CautionKind
from engine.react.sentence_computation import sentence_computation
from engine.react.step import Observation, ObservationStatus, Step, observations
from engine.react.stream import StreamWriter
from engine.react.types import ReActType

Embed = Callable[[list[str]], object]
_CITATION = re.compile(r"\[[^\]]*\]|\([^)]*\.(?:md|csv|pdf|html?|txt|docx?)[^)]*\)")  # [doc, p. 2], (table.csv, …)
QUOTES_BY_DETAIL = {"brief": 1, "normal": 1, "detailed": 3}  # passages a detailed evidence answer quotes


class Review(BaseModel):
    report: GroundingReport
    answer: str  # the answer the run ends with
    draft_reason: str | None = None  # set when the model's answer was replaced
    # what replaced it is a computed result, a figure traced to its cell or sentence, or a
    # sentence that restates the question it answers (``restates_question``)
    verified_fact: bool = False
    unsure: str | None = None  # a warning when the fact that replaced it may not answer the question
    added: str = ""  # the passages a detailed answer quotes below a small model's answer that stands
    cautions: list[Caution] = Field(default_factory=list)  # about ``answer``: from the fields above and the report


def _cautions(review: Review, language: str, unsure_kind: CautionKind = "unsure") -> list[Caution]:
    """The cautions about the answer, from this review alone: what the stream shows as a
    Draft or Warning, and what the check found in the answer that stands."""
    out: list[Caution] = []
    if review.draft_reason:
        out.append(Caution(kind="replaced", text=review.draft_reason, draft_only=review.verified_fact))
    if review.unsure:
        out.append(Caution(kind=unsure_kind, text=review.unsure))
    report = review.report
    if report.grounding == "not_found":
        out.append(Caution(kind="not_found", text=message("review_not_found", language)))
    misplaced = {m.figure for m in report.misplaced} | set(report.miscomputed)
    nowhere = [f for f in report.unsupported if f not in misplaced]
    if nowhere:
        figures = ", ".join(nowhere)
        out.append(Caution(kind="unsupported", text=message("review_answer_unsupported", language, figures=figures)))
    if report.notes:  # held by the evidence, but for another row, period or scale than the question's
        notes = "; ".join(report.notes)
        out.append(Caution(kind="unsupported", text=message("review_answer_misplaced", language, notes=notes)))
    if report.invented_sources:
        sources = ", ".join(report.invented_sources)
        out.append(Caution(kind="invented", text=message("review_answer_invented", language, sources=sources)))
    return out


def _reviewed(review: Review, language: str, unsure_kind: CautionKind = "unsure") -> Review:
    return review.model_copy(update={"cautions": _cautions(review, language, unsure_kind)})


def evidence_of(steps: list[Step]) -> list[Evidence]:
    """This run's Observations as evidence: one per document passage, else one per result."""
    out: list[Evidence] = []
    for obs in observations(steps):
        if not obs.is_evidence or not obs.text:
            continue
        if obs.passages:
            out += [
                Evidence(n=obs.n, tool=obs.tool, text=p.text, source=p.source, location=p.location or None, rank=i)
                for i, p in enumerate(obs.passages)
            ]
        else:
            source = f"mcp:{obs.server}/{obs.tool}" if obs.server else None  # cited with its server
            out.append(
                Evidence(
                    n=obs.n, tool=obs.tool, text=obs.text, computed=obs.computed, input=_input(obs), source=source,
                    operands_in_input=obs.operands_in_input,
                )
            )  # fmt: skip
    return out


_CONSTANTS = frozenset({"1", "2", "3", "4", "12", "100", "1000"})  # halves, quarters, months, percent, thousands


def admitted(ev: Evidence, index: EvidenceIndex, question: str) -> bool:
    """Whether ``ev`` counts as evidence: a computation from figures its input gives counts
    only when each of them stands in the question or in what the run saw before it ("1654 /
    23" from nowhere computes nothing the analyst can trust)."""
    from engine.grounding.figures import extract_figures

    if not ev.operands_in_input:
        return True
    asked = EvidenceIndex.of_text(question)
    figures = [f for f in extract_figures(ev.input) if f.kind != "date" and f.value not in _CONSTANTS]
    return all(index.find(f) is not None or asked.find(f) is not None for f in figures)


def evidence_index(steps: list[Step], question: str) -> EvidenceIndex:
    """This run's evidence, indexed, in the order it arrived; computations from figures of nowhere left out."""
    index = EvidenceIndex([])
    for ev in evidence_of(steps):
        if admitted(ev, index, question):
            index.add(ev)
    return index


def _input(obs: Observation) -> str:
    if obs.status is ObservationStatus.USER_REPLY:
        return ""
    return json.dumps(obs.args, ensure_ascii=False)


def _why_replace(
    answer: str,
    report: GroundingReport,
    evidence: list[Evidence],
    question: str,
    language: str,
    computation: Observation | None,
) -> str | None:
    """The reason shown when a small model's answer is replaced, or None to keep it."""
    computed = _engine_result(computation)
    if computed is not None and computed not in {f.value for f in report.figures}:
        return message("review_contradicts", language, result=computed)
    if evidence and _dumps(answer, report):  # a row dumped: its other columns' figures are no answer either
        return message("review_dump", language)
    if report.unsupported:
        return message("review_unsupported", language, figures=", ".join(report.unsupported[:5]))
    if report.invented_sources:
        return message("review_invented", language, sources=", ".join(report.invented_sources[:3]))
    found_any = any(f.citation is not None for f in report.figures)
    if evidence and not found_any and asks_for_figure(question):
        return message("review_ignored", language)
    kind = None if asks_for_words(question) else answer_kind(question)  # "what method … when …": no date asked
    if evidence and kind is not None and fit(kind, answer) != "match":  # "who" answered without a name
        return message("review_ignored", language)
    if evidence and YES_NO_ASKED.search(fold(question)) and _FIGURE_FIRST.match(answer) and not YES_NO.search(answer):
        return message("review_yes_no", language)  # "was the 2019 return greater …?" answered "281.09; 224.73"
    if evidence and asks_for_words(question) and not is_prose(_CITATION.sub("", answer)):
        return message("review_ignored", language)  # "what do the figures exclude?" answered by figures or a row
    if evidence and asks_for_name(question) and _BARE_FIGURE.fullmatch(_CITATION.sub("", answer)):
        return message("review_ignored", language)  # "which assets …?" answered "820" (of "ASC 820")
    each = _EACH_ASKED.search(fold(question)) or _TWO_YEARS.search(question) and not preferred_ops(question)
    if evidence and each and len(_amount_figures(report)) == 1:
        return message("review_one_of_each", language)  # "the respective values of A and B" answered "108."
    return None


_FIGURE_FIRST = re.compile(r"\W*[$€£]?\s?\(?-?\d")
_RESPECTIVE = r"\b(?:respective(?:ly)?|respecti(?:fs?|ves?|vement))\b"
_EACH_ASKED = re.compile(rf"{_RESPECTIVE}.*\b(?:and|et)\b|\b(?:and|et)\b.*{_RESPECTIVE}")
# "What was X in 2019 and 2018?": a figure for each year, when no computation is asked of them
_TWO_YEARS = re.compile(r"(?i)\b(?:fy\s?)?(?:19|20)\d\d,? (?:and|et|&) (?:fy\s?)?(?:19|20)\d\d\b")
_YEAR_FIGURE = re.compile(r"FY'?(?:19|20)?\d\d|(?:19|20)\d\d", re.IGNORECASE)


def _amount_figures(report: GroundingReport) -> list[Figure]:
    """The figures of the answer that are no date and no bare year."""
    return [f for f in report.figures if f.kind != "date" and not _YEAR_FIGURE.fullmatch(f.text)]


_BARE_FIGURE = re.compile(r"\W*[$€£]?\s?[\d.,]+\s?(?:%|[a-z]{0,8})\W*", re.IGNORECASE)
_MD_ROW = re.compile(r"(?m)^\s*\|.*\|\s*$")  # a line of a Markdown table
_TABLE_ROW = re.compile(r"\|[^|\n]*\d[^|\n]*\||^[^|\n]*\d[^|\n]*\|\s*$")  # a cell with a figure between bars
DUMP_FIGURES = 5  # a small model's answer of this many figures, and no derivation, is a row or table dumped


def _dumps(answer: str, report: GroundingReport) -> bool:
    """Whether a small model's answer dumps evidence (a row "label: 57.5, label: 27.6, …", a
    Markdown row's cells, or an Observation copied with the notes only the engine writes)
    instead of stating a fact: many figures, none derived from the others."""
    first = answer.strip().split("\n", 1)[0]
    if _TABLE_ROW.search(first) or len(_MD_ROW.findall(answer)) >= 2:
        return True  # "2019 | 8,841,166 |", or a sentence over a table copied: cells of a table, not a statement
    if CUT_NOTE_RE.search(answer) or SEARCH_HEADER_RE.search(answer):
        return True  # "10.0 billion [… 2019 more characters cut] …": an Observation copied, with the engine's notes
    return len([f for f in report.figures if f.start < len(first)]) >= DUMP_FIGURES and " = " not in first


def _engine_computation(steps: list[Step]) -> Observation | None:
    """The computation the engine made itself before the model's first step, if it made one."""
    first = _engine_step(steps)
    return first.observations[0] if first is not None else None


def _engine_step(steps: list[Step]) -> Step | None:
    """The engine's own last step with a computation first (after the analyst's reply, the step it made then)."""
    return next((s for s in reversed(steps) if s.number == 0 and s.observations and s.observations[0].computed), None)


def _engine_result(obs: Observation | None) -> str | None:
    """The normalised result of the engine's own computation ``obs``, if it made one."""
    from engine.grounding.figures import extract_figures

    if obs is None or (obs.value is None and "\n" in obs.text.strip()):
        return None  # a table of results is no one figure the answer must hold
    figures = extract_figures(obs.value if obs.value is not None else obs.text)
    return figures[-1].value if figures else None


def review(
    answer: str,
    question: str,
    steps: list[Step],
    *,
    small: bool,
    language: str,
    embed: Embed | None,
    detail: str = "normal",
    index: EvidenceIndex | None = None,
) -> Review:
    """``index`` holds ``evidence_of(steps)`` indexed as the Observations arrived, so the
    check only looks the answer's figures up."""
    evidence = index.evidence if index is not None else evidence_of(steps)
    report = check_answer(answer, question, evidence, index=index, language=language)
    if not small:
        return _reviewed(Review(report=report, answer=answer), language)
    computation = _engine_computation(steps)
    reason = _why_replace(answer, report, evidence, question, language, computation)
    stated = computation.statement if computation is not None else None  # the engine computed what is asked
    against = None  # a sentence stating the planned cell's subject more fully, and otherwise
    if stated:
        quote = computed_quote(stated, computation.n, computation.tool, language)
        quotes = [quote.model_copy(update={"confident": not _engine_step(steps).unsure})]
        against = sentence_against_plan(question, computation.args, computation.value or stated, evidence, stated)
    else:
        quotes = best_quotes(question, evidence, embed, language=language, limit=QUOTES_BY_DETAIL.get(detail, 1))
    if reason is None and quotes and not _agrees(answer, report, quotes[0], question, language):
        reason = message("review_disagrees", language)
    if reason is None:  # the model stated the engine's result: a filter the plan ignored still says so
        added = _passages(quotes) if detail == "detailed" else ""
        ignored = stated is not None and steps[0].unsure
        about_table = asks_about_table(question)  # the model's words about a table: nothing quotes what it shows
        said = "review_unsure_period" if ignored else "review_unsure_table" if about_table else None
        unsure = message(said, language) if said else None
        unsure = message("review_plan_disagrees", language, sentence=against) if against else unsure
        kept = Review(report=report, answer=answer + added, added=added, unsure=unsure)
        return _reviewed(kept, language, "filter" if ignored and not against else "unsure")
    if not quotes:
        text = not_found_message(question, evidence, language)
        checked = check_answer(text, question, evidence, language=language)
        review = Review(report=checked.model_copy(update={"grounding": "not_found"}), answer=text, draft_reason=reason)
        return _reviewed(review, language)
    stated_answer = fact_answer(question, quotes, language, detail)
    checked = check_answer(stated_answer.text, question, evidence, ignore=stated_answer.ignore, language=language)
    checked = cite_passage(checked, quotes[0], stated_answer.fact, len(stated_answer.text.split("\n", 1)[0]))
    ignored = stated is not None and _engine_step(steps).unsure  # the plan left out a period the question names
    kind: CautionKind = "several" if stated_answer.fact.several else "filter" if ignored else "unsure"
    intro = asks_about_table(question) and not stated and introduces_table(quotes[0].text)  # "… is as follows:"
    about_table = asks_about_table(question) and not stated and not intro
    # "These assumptions are estimated as follows:" says a table follows; of any other question it answers nothing
    leads_in = not stated and not asks_about_table(question) and introduces_table(quotes[0].text)
    doubt = stated_answer.fact.several or not stated_answer.sure or about_table or leads_in or bool(against)
    fact = stated_answer.fact
    figure = stated is not None or fact.picked is not None or fact.each  # a result, one figure, one a year asked
    restated = not stated and quotes[0].confident and restates_question(question, _CITATION.sub("", stated_answer.text))
    restated = restated or intro
    # a stated computation whose line does not name what is asked is doubted for that, not for a period
    unsure_kind = "unsure_period" if kind == "filter" else "unsure_computed" if stated else kind
    doubt_key = "review_" + ("unsure_table" if about_table else unsure_kind)
    review = Review(
        report=checked.model_copy(update={"grounding": "quoted"}),
        answer=stated_answer.text,
        draft_reason=reason,
        verified_fact=(figure or restated) and not doubt and not checked.unsupported,
        unsure=message("review_plan_disagrees", language, sentence=against) if against else
        message(doubt_key, language) if doubt else None,
    )  # fmt: skip
    return _reviewed(review, language, "unsure" if against else kind)


def _passages(quotes: list[Quote]) -> str:
    """The passages behind an answer, quoted verbatim below it (what "detailed" adds)."""
    return "".join("\n\n" + quoted(q) for q in quotes)


WORDS_AGREE = 0.5  # share of the passage's own words (not the question's) a worded answer must hold


def _agrees(answer: str, report: GroundingReport, quote: Quote, question: str = "", language: str = "en") -> bool:
    """Whether the answer states the fact of the passage that best answers the question:
    for a question asking for words (a method, a reason), half the passage's words the
    question does not already hold; the result the engine computes from the passage, when
    it computes one ("176 miles" for the total of 176 and 850 miles does not agree); else
    one of its figures, else one of its names (nothing to compare: it agrees)."""
    from engine.grounding.figures import extract_figures
    from engine.grounding.layout import content_words

    if question and asks_for_words(question) and not quote.computed:
        said = content_words(quote.text) - content_words(question)
        return not said or len(said & content_words(answer)) >= WORDS_AGREE * len(said)
    if question and (computed := sentence_computation(question, quote, language)) is not None:
        result = {f.value for f in extract_figures(computed.candidates[0].figure)}
        return bool(result & {f.value for f in report.figures})

    found = extract_figures(quote.text)
    quoted = {f.value for f in found}
    if quoted:
        amounts = [f for f in found if f.kind != "date" and not _YEAR_FIGURE.fullmatch(f.text)]
        if amounts and answer_kind(question) != "date":
            # "… for 2019 and 2018 … was not significant": the question's periods agree with no
            # figure; "$178.4 million … 2019 and 2018" of another sentence shares only its years
            said = {f.value.split(" ")[0] for f in _amount_figures(report)}  # "178.4 million" is "$178.4 million"
            return bool(said & {f.value.split(" ")[0] for f in amounts})
        return bool(quoted & {f.value for f in report.figures})
    names = names_in(quote.text)
    return not names or bool(names & names_in(answer))


def replacement_text(checked: Review, writer: StreamWriter) -> str:
    """The stream text of a replaced answer: the Draft marker with its reason, then the
    evidence answer (document text: no line of it can open a block); of an answer that
    stands, the passages a detailed answer adds below it, then the doubt about it as a
    Warning (a filter the plan ignored, a sentence that states the planned cell otherwise),
    so the raw stream and every view of it show it."""
    if checked.draft_reason is None:  # the model's answer stands, with the passages detail adds and its doubt
        added = writer.untrusted(checked.added) if checked.added else ""
        return added + (writer.block(ReActType.WARNING, checked.unsure) if checked.unsure else "")
    first, _, rest = checked.answer.partition("\n")
    out = writer.block(ReActType.DRAFT, checked.draft_reason) + writer.block(ReActType.ANSWER, first, end=False)
    out += writer.untrusted("\n" + rest) if rest else ""
    return out + (writer.block(ReActType.WARNING, checked.unsure) if checked.unsure else "")
