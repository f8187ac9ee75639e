"""Conversation export as Markdown or JSON, with or without the reasoning trace, read from
each turn's record (``Turn.run_record``: tables and charts as data). The cautions about
each answer, the analyst's rating of it and the follow-ups sent during its run are in
both, with the trace or without it."""

from __future__ import annotations

import json

from components.cautions import turn_cautions, turn_notes
from components.i18n import money, t
from components.inert import inert
from components.state import Conversation, Preferences, Turn
from engine.react.record import RecordBlock
from engine.react.types import ANSWER_TYPES, CANONICAL_LABEL, TRACE_TYPES, ReActType
from engine.tools.results import TableData


def _cell(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def markdown_table(payload: str | TableData, max_rows: int = 200) -> list[str]:
    """A table, or a TABLE block's JSON, as a Markdown table (cut at ``max_rows``, with a note)."""
    if isinstance(payload, TableData):
        columns, rows = list(payload.columns), payload.rows
    else:
        try:
            data = json.loads(payload)
            columns, rows = [str(c) for c in data["columns"]], data["rows"]
        except (ValueError, KeyError, TypeError):
            return ["```", payload[:2000], "```"]
    lines = ["| " + " | ".join(_cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows[:max_rows]]
    if len(rows) > max_rows:
        lines.append(f"_({len(rows) - max_rows} more rows in the JSON export)_")
    return lines


def _data_blocks(turn_blocks: list[RecordBlock], kind: ReActType) -> list:
    """The data of the turn's TABLE or CHART blocks (one the record could not type is read as JSON, as shown)."""
    out: list = []
    for block in turn_blocks:
        if block.type is not kind:
            continue
        if block.table is not None:
            out.append(block.table.model_dump(mode="json"))
        elif block.chart is not None:
            out.append(block.chart)
        else:
            try:
                out.append(json.loads(block.text))
            except ValueError:
                continue
    return out


def _caution_items(turn: Turn, lang: str) -> list[dict[str, str]]:
    if turn.cautions is not None:
        return [c.model_dump(exclude={"draft_only"}) for c in turn.cautions if c.about_answer]
    return [{"kind": "note", "text": text} for text in turn_cautions(turn, lang)]


def _rating_line(turn: Turn, lang: str) -> str:
    """The rating as one Markdown line, the comment on it quoted (inert: nothing in it loads anything)."""
    assert turn.feedback is not None
    line = f"**{t('feedback_label', lang)}** {t(f'feedback_{turn.feedback.rating}', lang)}"
    comment = " ".join(turn.feedback.comment.split())
    if comment:
        line += f" — “{inert(comment)}”"
    return line


def to_markdown(conversation: Conversation, with_thoughts: bool = False, settings: Preferences | None = None) -> str:
    lang = settings.language if settings is not None else "en"
    lines = [f"# {conversation.title or 'Conversation'}", ""]
    if settings is not None:
        lines += [f"_Theme: {settings.theme or '—'} · language: {settings.language} · detail: {settings.detail}_", ""]
    for turn in conversation.turns:
        if turn.role == "user":
            lines += [f"**You** ({turn.created_at}): {turn.content}", ""]
            continue
        for item in turn.followups:  # inert: nothing in it loads anything
            lines += [f"**You** ({t('sent_during_run', lang)}, {item.sent_at}): {inert(item.text)}", ""]
        lines.append(f"**Assistant** ({turn.created_at}):")
        for block in turn.run_record().blocks:
            if block.type in ANSWER_TYPES:
                lines += ["", block.content]
            elif block.type is ReActType.ERROR:
                lines += ["", f"> Error: {block.content}"]
            elif block.type is ReActType.TABLE:
                lines += ["", *markdown_table(block.table or block.text)]
            elif with_thoughts and block.type in TRACE_TYPES:
                label = CANONICAL_LABEL.get(block.type, "Note")
                body = block.content.replace("\n", "\n> ")
                lines += ["", f"> *{label}:* {body}"]
        report = turn.grounding
        if report is not None and report.citations:
            lines += [
                "",
                *[
                    f"[{c.n}] {f'{c.derivation}: ' if c.derivation else ''}"
                    f"{c.source}{f' ({c.location})' if c.location else ''}: “{c.quote}”"
                    for c in report.citations
                ],
            ]
        if report is not None and report.unsupported and turn.cautions is None:
            lines += ["", f"_Unsupported figures: {', '.join(report.unsupported)}_"]
        cautions = turn_cautions(turn, lang)
        if cautions:
            label = t("caution_label", lang)
            lines += ["", *[f"> **{label}** {' '.join(text.split())}" for text in cautions]]
        notes = turn_notes(turn)
        if notes:
            label = t("note", lang)
            lines += ["", *[f"_{label}: {' '.join(text.split())}_" for text in notes]]
        if turn.status in ("stopped", "suspended", "interrupted"):
            lines += ["", f"_({turn.status})_"]
        if turn.cost is not None:
            lines += ["", f"_{t('cost', lang)}: {money(turn.cost, lang)}_"]
        if turn.feedback is not None:
            lines += ["", _rating_line(turn, lang)]
        lines.append("")
    if costs := conversation.costs():
        lines += [f"_{t('conversation_cost', lang)}: {' + '.join(money(c, lang) for c in costs)}_", ""]
    return "\n".join(lines).rstrip() + "\n"


def to_json(conversation: Conversation, with_thoughts: bool = False, settings: Preferences | None = None) -> str:
    lang = settings.language if settings is not None else "en"
    turns = []
    for turn in conversation.turns:
        item: dict = {"role": turn.role, "status": turn.status, "created_at": turn.created_at}
        if turn.ended_at:
            item["ended_at"] = turn.ended_at
        if turn.role == "user":
            item["content"] = turn.content
        else:
            item["answer"] = turn.answer
            if turn.error:
                item["error"] = turn.error
            item["meta"] = {
                "iterations": turn.iterations,
                "tokens": turn.tokens,
                "elapsed": round(turn.elapsed, 3),
                "backend": turn.backend,
            }
            if turn.cost is not None:
                item["meta"]["cost"] = turn.cost.model_dump()
            blocks = turn.run_record().blocks
            tables, charts = _data_blocks(blocks, ReActType.TABLE), _data_blocks(blocks, ReActType.CHART)
            if tables:
                item["tables"] = tables
            if charts:
                item["charts"] = charts
            report = turn.grounding
            item["citations"] = (
                [c.model_dump(include={"n", "source", "location", "quote", "derivation"}) for c in report.citations]
                if report
                else []
            )
            item["unsupported"] = list(report.unsupported) if report else []
            item["grounding"] = report.grounding if report else "none"
            item["cautions"] = _caution_items(turn, lang)
            item["notes"] = [c.model_dump(exclude={"draft_only"}) for c in turn.cautions or [] if not c.about_answer]
            if turn.followups:
                item["followups"] = [f.model_dump(include={"text", "status", "sent_at"}) for f in turn.followups]
            if turn.feedback is not None:
                item["feedback"] = turn.feedback.model_dump(mode="json")
            if with_thoughts:
                item["blocks"] = [{"type": b.type.value, "content": b.content} for b in blocks]
        turns.append(item)
    head = {"id": conversation.id, "title": conversation.title}
    if costs := conversation.costs():
        head["cost_total"] = [c.model_dump() for c in costs]
    if settings is not None:
        head |= {"theme": settings.theme, "settings": settings.model_dump(include={"language", "detail", "theme"})}
    return json.dumps({**head, "turns": turns}, ensure_ascii=False, indent=2)
