"""``python -m engine``: ask the agent, ingest documents, prepare local models, export
the answers analysts rated.

Exit codes: 0 answered (or suspended with no reply left), 2 bad input, 3 backend (or
the conversation database) unreachable or failing, 1 internal error. Failures print one
line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.wording import voice

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT, EXIT_BACKEND = 0, 1, 2, 3
FEEDBACK_FORMATS = ("jsonl", "json")
say = voice(Path(__file__).with_name("cli.json"))  # the CLI's words, English and French


def _fail(detail: object) -> None:
    """The one line a failure prints on stderr."""
    print(say("error_line", detail=detail), file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        _fail(message)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description=say("description"))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ask = sub.add_parser("ask", help=say("help_ask"))
    ask.add_argument("question", help=say("help_question"))
    ask.add_argument("--theme")
    ask.add_argument("--language", default="en")
    ask.add_argument("--detail", default="normal", choices=["brief", "normal", "detailed"])
    ask.add_argument("--history", type=Path, help=say("help_history"))
    ask.add_argument("--answer-user", action="append", default=[], metavar="TEXT", help=say("help_answer_user"))
    ask.add_argument("--format", choices=["text", "jsonl"], default="text")
    ingest = sub.add_parser("ingest", help=say("help_ingest"))
    ingest.add_argument("--theme", required=True)
    ingest.add_argument("paths", nargs="+", type=Path)
    sub.add_parser("prepare", help=say("help_prepare"))
    feedback = sub.add_parser("feedback", help=say("help_feedback"))
    feedback.add_argument("--format", choices=FEEDBACK_FORMATS, default="jsonl")
    feedback.add_argument("--user", help=say("help_user"))
    feedback.add_argument("--rating", help=say("help_rating"))
    return parser


MAX_HISTORY_BYTES = 50 * 1024 * 1024
MAX_QUESTION_BYTES = 1024 * 1024


def _load_history(path: Path | None) -> list[dict[str, Any]]:
    if path is None:
        return []
    try:
        size = path.stat().st_size
        text = path.read_text(encoding="utf-8") if size <= MAX_HISTORY_BYTES else ""
    except OSError as exc:
        raise ValueError(say("history_unreadable", path=path, reason=exc.strerror)) from None
    except UnicodeDecodeError:
        raise ValueError(say("history_not_utf8", path=path)) from None
    if size > MAX_HISTORY_BYTES:
        raise ValueError(say("history_too_big", path=path, limit=MAX_HISTORY_BYTES // 2**20))
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(say("history_too_deep", path=path)) from None
    except ValueError:
        raise ValueError(say("history_not_json", path=path)) from None
    if not isinstance(data, list) or not all(isinstance(m, dict) and "role" in m and "content" in m for m in data):
        raise ValueError(say("history_not_list", path=path))
    return data


class _JsonlPrinter:
    """Prints one {"type", "content"} line per block as each block completes."""

    def __init__(self) -> None:
        from engine.react.parser import ReActStreamParser

        self.parser = ReActStreamParser()
        self.printed = 0

    def feed(self, token: str) -> None:
        self.parser.feed(token)
        self._flush(complete=False)

    def close(self) -> None:
        self.parser.close()
        self._flush(complete=True)

    def _flush(self, complete: bool) -> None:
        blocks = self.parser.blocks
        ready = blocks if complete else blocks[:-1]
        for block in ready[self.printed :]:
            print(json.dumps({"type": block.type.value, "content": block.content}, ensure_ascii=False), flush=True)
        self.printed = max(self.printed, len(ready))


def _read_question(question: str) -> str:
    """The question argument, or stdin for "-" (bounded, UTF-8)."""
    if question != "-":
        return question
    data = sys.stdin.buffer.read(MAX_QUESTION_BYTES + 1)
    if len(data) > MAX_QUESTION_BYTES:
        raise ValueError(say("question_too_big", limit=MAX_QUESTION_BYTES // 2**20))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(say("question_not_utf8")) from None


def _ask(args: argparse.Namespace) -> int:
    from engine.context import EngineContext
    from engine.llm.base import LLMError
    from engine.rag.themes import validate_theme
    from engine.react.agent import ReActEngine

    try:
        if args.theme is not None:
            validate_theme(args.theme)
        args.question = _read_question(args.question)
        history = _load_history(args.history)
    except ValueError as exc:
        _fail(exc)
        return EXIT_BAD_INPUT
    if not args.question.strip():
        _fail(say("question_empty"))
        return EXIT_BAD_INPUT
    ragkwargs = {"theme": args.theme, "language": args.language, "detail": args.detail}
    context = EngineContext()
    try:
        engine = ReActEngine(ragkwargs=ragkwargs, context=context)
    except (ValueError, LLMError) as exc:
        _fail(exc)
        return EXIT_BAD_INPUT
    try:
        return _run(engine, args, history)
    finally:
        context.close()


def _run(engine: Any, args: argparse.Namespace, history: list[dict[str, Any]]) -> int:
    from engine.answer_fields import caution_fields, grounding_fields

    engine.set_history(history)
    jsonl = _JsonlPrinter() if args.format == "jsonl" else None

    def emit(token: str) -> None:
        if jsonl is not None:
            jsonl.feed(token)
        else:
            sys.stdout.write(token)
            sys.stdout.flush()

    replies = list(args.answer_user)
    for token in engine.stream_sync(args.question):
        emit(token)
    result = engine.result
    total_iterations, elapsed = result.iterations, result.elapsed
    while result.status == "suspended" and replies and result.suspended is not None:
        for token in engine.resume_sync(result.suspended, replies.pop(0)):
            emit(token)
        result = engine.result
        total_iterations, elapsed = result.iterations, result.elapsed
    if jsonl is not None:
        jsonl.close()
        done = {
            "type": "done",
            "status": result.status,
            "answer": result.answer,
            "iterations": total_iterations,
            "usage": result.usage.model_dump() | {"total_tokens": result.usage.total_tokens},
            "cost": result.cost.model_dump() if result.cost is not None else None,
            "elapsed": round(elapsed, 3),
            **grounding_fields(result.grounding),
            **caution_fields(result.cautions),
        }
        print(json.dumps(done, ensure_ascii=False), flush=True)
    else:
        sys.stdout.write("\n")
    if result.status == "suspended" and result.suspended is not None:
        print(say("agent_asks", question=result.suspended.question), file=sys.stderr)
        return EXIT_OK
    if result.status == "error":
        _fail(result.error)
        return EXIT_BACKEND if result.error_source == "backend" else EXIT_INTERNAL
    return EXIT_OK


def _ingest(args: argparse.Namespace) -> int:
    from engine.context import EngineContext
    from engine.rag.ingest import ingest_cli
    from engine.rag.store import IndexProblem

    context = EngineContext()
    try:
        try:
            manager = context.indexes
        except IndexProblem as exc:
            _fail(exc)
            return EXIT_BAD_INPUT
        return ingest_cli(args.theme, args.paths, manager)
    finally:
        context.close()


def _prepare(_: argparse.Namespace) -> int:
    from engine.prepare import prepare

    return prepare()


def _feedback(args: argparse.Namespace) -> int:
    """The user's rated answers from the conversation store (``DATABASE_URL``, else ``data/app.db``)."""
    from engine.feedback_export import qa_case, write_cases
    from engine.store import BadInput, ConversationStore, Unavailable
    from engine.store.inputs import LOCAL_USER

    try:
        store = ConversationStore()
    except (BadInput, Unavailable) as exc:
        _fail(exc)
        return EXIT_BAD_INPUT if isinstance(exc, BadInput) else EXIT_BACKEND
    try:
        rated = store.rated_turns(args.user or LOCAL_USER, args.rating)
    except BadInput as exc:
        _fail(exc)
        return EXIT_BAD_INPUT
    except Unavailable as exc:
        _fail(exc)
        return EXIT_BACKEND
    finally:
        store.close()
    write_cases((qa_case(r) for r in rated), args.format, sys.stdout)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = {"ask": _ask, "ingest": _ingest, "prepare": _prepare, "feedback": _feedback}[args.command]
    try:
        return handler(args)
    except KeyboardInterrupt:
        _fail(say("interrupted"))
        return EXIT_INTERNAL
