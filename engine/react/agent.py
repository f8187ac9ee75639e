"""The ReAct loop: stateless, streaming, and never silent.

``ReActEngine`` is built fresh for every turn. It receives the compressed history,
streams one raw ReAct text, and ends every run with an Answer or an explicit Error.

``run → step → query / execute``: each step is recorded once as a ``Step``; the wire
protocol turns it into messages and the ``StreamWriter`` into stream text. Every
interruption is an exception raised where it happens: ``FixableError`` (a format or
tool error, handled in ``_step``: the model is told what to fix), then in ``_drive``
``ForceFinalizeException`` (a limit or a failed step: the next call must answer;
``fatal`` when the backend failed), ``Suspended`` (ask_user) and ``Answered``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from engine.errors import FixableError, ForceFinalizeException, UnreadableOutput
from engine.grounding.question_parts import question_parts
from engine.llm.base import LLM, LLMError, iterate_async
from engine.react.evidence_answer import parts_review, repeated_answer
from engine.react.execute import (
    Suspended,
    call_key,
    notes_after,
    observation_budget,
    question_of,
    reply_observation,
    run_calls,
    suspend,
)
from engine.react.finalize import FinalAnswer
from engine.react.first_step import engine_step, resumed_step
from engine.react.followups import FollowUp, Inbox, after_tools, hand_over, hold_back
from engine.react.hooks import Hooks
from engine.react.opening import (
    bound_question,
    clean_history,
    compress_history,
    fall_back,
    opening_messages,
    question_budget,
)
from engine.react.prompts import message
from engine.react.protocols import WireProtocol, select
from engine.react.query import traced_final, traced_query
from engine.react.run_state import Caution, EngineResult, RunOptions, RunState, SuspendedRun
from engine.react.step import Step
from engine.react.stream import StreamWriter, chart_payload
from engine.react.types import ReActType
from engine.react.verify import Review, admitted, evidence_index, evidence_of, replacement_text, review
from engine.settings import EngineConfig
from engine.tools.base import Tool, ToolRegistry
from engine.tracing import RunTracer


class Answered(Exception):
    """The run has its answer."""


class ReActEngine:
    """One turn of the agent. Build a new one per turn; it keeps nothing afterwards."""

    def __init__(
        self,
        config: EngineConfig | dict[str, Any] | None = None,
        llmapikey: str | None = None,
        token: str | None = None,
        ragkwargs: dict[str, Any] | None = None,
        *,
        llm: LLM | None = None,
        tools: ToolRegistry | list[Tool] | None = None,
        hooks: Hooks | None = None,
        context: Any = None,
        tracer: RunTracer | None = None,
    ) -> None:
        """``token``: the credential of the data servers that ask for the engine's token
        (``"token": "engine"`` in ``mcp_servers.json``); kept out of every log, trace and export."""
        from engine.context import EngineContext

        self.context = context if context is not None else EngineContext()
        self._token = token
        self.tracing = tracer if tracer is not None else self.context.run_tracer()
        if config is None:
            config = self.context.engine_config()
        config = config if isinstance(config, EngineConfig) else EngineConfig.model_validate(config)
        self.options = RunOptions.from_ragkwargs(ragkwargs)
        self.config = config.model_copy(update=self.options.style())
        self.llm = llm if llm is not None else self.context.build_llm(api_key=llmapikey)
        if self.llm.abilities.max_steps and "max_iterations" not in self.config.model_fields_set:
            self.config = self.config.model_copy(update={"max_iterations": self.llm.abilities.max_steps})
        self._price = self.context.price_of(self.llm.model)
        self.protocol: WireProtocol = select(self.llm.abilities, self.config.wire_protocol)
        self._tools = tools if isinstance(tools, ToolRegistry) or tools is None else ToolRegistry(tools)
        self.hooks = hooks or Hooks()
        self._history: list[dict[str, Any]] = []
        self.result = EngineResult()
        self.followups = Inbox()  # the app's messages sent during the run: recall, edit and pending are there

    _follow_up = property(lambda self: (self.config.language, self.question_tokens))
    observation_chars = property(lambda self: observation_budget(self.config, self.llm.abilities))
    question_tokens = property(lambda self: question_budget(self.config, self.llm.abilities))

    def start(self, theme: str | None = None) -> ReActEngine:
        """Pick the theme and load its toolkits now, not on first use."""
        if theme:
            self.options.theme = theme
        self._tools = None
        _ = self.tools
        return self

    @property
    def tools(self) -> ToolRegistry:
        if self._tools is None:
            self._tools = self.context.registry(
                self.options.theme,
                attachments=self.options.attachments,
                attachments_index=self.options.attachments_index,
                small_model=self.llm.abilities.small,
                language=self.config.language,
                **({"token": self._token} if self._token else {}),
            )
        return self._tools

    def inject(self, text: str) -> FollowUp | None:
        """Hand the running engine a follow-up (from any thread); None once the run has its answer."""
        return self.followups.put(text)

    backend_label = property(lambda self: f"{self.llm.name} · {self.llm.model}")

    def set_history(self, history: list[dict[str, Any]]) -> None:
        """Take the conversation so far (OpenAI-style), cleaned and fitted to the budget."""

        def summarise(prompt: str) -> str:
            return self.llm.generate([{"role": "user", "content": prompt}], max_tokens=300, temperature=0.0).text

        cfg = self.config
        self._history = compress_history(
            clean_history(history), cfg.history_token_budget, cfg.history_recent_share, summarise, cfg.language
        )

    @property
    def history(self) -> list[dict[str, Any]]:
        """The history as this turn will send it (cleaned and fitted to the budget)."""
        return [dict(m) for m in self._history]

    # ---- public runs ------------------------------------------------------------
    async def stream(self, prompt: str) -> AsyncIterator[str]:
        """Run the agent on ``prompt`` (bounded, saying so when cut) and yield the raw ReAct stream."""
        prompt, cut = bound_question(prompt, self.question_tokens)
        notes = [message("question_cut", self.config.language, n=len(prompt) - 4)] if cut else []  # 4: " […]"
        async for token in self._drive(self._new_state(prompt), notes=notes):
            yield token

    async def resume_stream(self, suspended: SuspendedRun | dict[str, Any], answer: str) -> AsyncIterator[str]:
        """Continue a suspended run with the user's reply as the ask_user Observation."""
        if not isinstance(suspended, SuspendedRun):
            suspended = SuspendedRun.model_validate(suspended)
        if suspended.state.mode != self.protocol.name:  # the run fell back to another protocol before it asked
            self.protocol = select(self.llm.abilities, suspended.state.mode)
        async for token in self._drive(suspended.state.model_copy(deep=True), resume=(suspended, answer)):
            yield token

    def stream_sync(self, prompt: str, heartbeat_s: float | None = None) -> Iterator[str]:
        """The raw stream for sync callers; with ``heartbeat_s``, idle periods yield ``""``."""
        return iterate_async(lambda: self.stream(prompt), heartbeat_s)

    def resume_sync(
        self, suspended: SuspendedRun | dict[str, Any], answer: str, heartbeat_s: float | None = None
    ) -> Iterator[str]:
        return iterate_async(lambda: self.resume_stream(suspended, answer), heartbeat_s)

    def get_engine_response(self, prompt: str) -> EngineResult:
        """The whole run at once: answer, blocks, iterations, usage, elapsed."""
        return self._drain(self.stream_sync(prompt))

    def resume(self, suspended: SuspendedRun | dict[str, Any], answer: str) -> EngineResult:
        return self._drain(self.resume_sync(suspended, answer))

    def _drain(self, tokens: Iterator[str]) -> EngineResult:
        for _ in tokens:
            pass
        return self.result

    # ---- the run ------------------------------------------------------------------
    def _new_state(self, prompt: str) -> RunState:
        registry = self.context.route(prompt, self.tools)
        messages = opening_messages(
            prompt, self._history, self.protocol, self.llm.abilities, self.config, registry, self.options.theme
        )
        return RunState(prompt=prompt, mode=self.protocol.name, messages=messages, tool_names=registry.names())

    async def _drive(
        self, state: RunState, resume: tuple[SuspendedRun, str] | None = None, notes: list[str] | None = None
    ) -> AsyncIterator[str]:
        """The one place where every way a run can end is handled; ``notes`` open the stream as warnings."""
        started = time.monotonic()
        writer = StreamWriter(self.config.turn_data_bytes)
        self._evidence = evidence_index(state.steps, state.prompt)  # grown as Observations arrive
        result = self.result = EngineResult(backend=self.backend_label, iterations=state.iterations)
        registry = self.tools.subset(state.tool_names)
        self._span = self.tracing.turn(self.llm.name, self.llm.model, state.prompt)
        try:
            for note in notes or []:
                yield writer.block(ReActType.WARNING, note)
            if resume is not None:
                asked_by_engine = bool(state.steps) and state.steps[-1].number == 0
                yield self._apply_user_reply(state, writer, *resume)
                self._evidence = evidence_index(state.steps, state.prompt)  # the reply is evidence too
                if asked_by_engine and (step := self._resumed_step(state, registry, resume[1])) is not None:
                    yield writer.block(ReActType.THOUGHT, step.thought) + writer.calls(step.calls)
                    async for token in self._execute(state, registry, writer, step):
                        yield token
            elif (step := self._first_step(state, registry)) is not None:
                yield writer.block(ReActType.THOUGHT, step.thought) + writer.calls(step.calls)
                async for token in self._execute(state, registry, writer, step):
                    yield token
            while True:
                async for token in self._step(state, registry, writer, started):
                    if token:
                        yield token
        except Answered:
            result.status = "answered"
        except Suspended as exc:
            result.status, result.suspended = "suspended", exc.suspended
        except ForceFinalizeException as exc:
            if exc.fatal:
                yield writer.block(ReActType.ERROR, exc.user_message)
                result.status, result.error, result.error_source = "error", exc.user_message, "backend"
            else:
                final = FinalAnswer(self.llm, self.protocol, self.config)
                async for token in traced_final(self.tracing, self._span, final, state, writer, exc.message):
                    yield token
                yield self._grounded(final.text, state, writer)
                if final.error is not None:
                    yield writer.block(ReActType.ERROR, final.error)
                    result.status, result.error, result.error_source = "error", final.error, "backend"
        except (GeneratorExit, asyncio.CancelledError):
            result.status = "stopped"
            raise
        except Exception as exc:  # a bug of ours must still end in an explicit error block
            kind, language = type(exc).__name__, self.config.language
            yield writer.block(ReActType.ERROR, message("internal_error_stopped", language, kind=kind))
            result.status, result.error_source = "error", "internal"
            result.error = message("internal_error", language, kind=kind)
        finally:
            writer.parser.close()
            if notes and result.status == "answered":  # the answer is to the part of the question that was read
                result.cautions = [Caution(kind="question_cut", text=n) for n in notes] + result.cautions
            result.blocks = writer.parser.blocks
            result.steps = state.steps
            result.followups, result.followups_left = self.followups.taken(), self.followups.close()
            result.iterations = state.iterations
            result.usage = state.usage
            result.elapsed = state.elapsed_before + (time.monotonic() - started)
            result.cost = self._price.cost(result.usage) if self._price is not None else None
            if result.suspended is not None:
                result.suspended.state.elapsed_before = result.elapsed
            self.tracing.end_turn(self._span, result.status, result.usage, result.iterations, result.error)

    async def _step(self, state: RunState, registry: ToolRegistry, writer: StreamWriter, started: float):
        """One model call and its tool calls; raises to end the run."""
        cfg = self.config
        if state.iterations >= cfg.max_iterations:
            raise ForceFinalizeException(message("limit_iterations", n=cfg.max_iterations))
        if time.monotonic() - started + state.elapsed_before > cfg.run_timeout_s:
            raise ForceFinalizeException(message("limit_time", seconds=cfg.run_timeout_s))
        state.iterations += 1
        step = Step(number=state.iterations)
        try:
            async for token in traced_query(
                self.tracing, self._span, self.llm, self.protocol, self.config, state, registry, writer, step
            ):
                yield token
            if step.answer is not None:
                state.steps.append(step)
                if (held := hold_back(self.followups, step, state.messages, writer, *self._follow_up)) is not None:
                    yield held  # the answer waits: the follow-up comes first
                    return
                replaced = self._grounded(step.answer, state, writer)
                yield replaced
                if step.answer_cut and self.result.answer.startswith(step.answer):  # not a replaced draft
                    yield writer.block(ReActType.WARNING, message("answer_cut", self.config.language))
                chart = writer.chart(chart_payload(state.steps))
                if chart:  # an empty token is a heartbeat
                    yield chart
                raise Answered
            if self._repeats(state, step):
                state.steps.append(step)
                yield self._evidence_answer(state, writer)
                raise Answered
            native = after_tools(self.protocol)  # else the model's step is the boundary (ask_user's reply comes first)
            early = [] if native or question_of(step.calls) else self.followups.take()
            async for token in self._execute(state, registry, writer, step):
                yield token
            taken = early + (self.followups.take() if native else [])
            yield hand_over(taken, state.messages, writer, *self._follow_up)
            state.format_retries = state.unreadable = 0
        except FixableError as exc:
            step.feedback = exc.message
            state.steps.append(step)
            state.format_retries += 1
            state.unreadable = state.unreadable + 1 if isinstance(exc, UnreadableOutput) else 0
            reason = exc.message.rstrip(".")
            yield writer.block(ReActType.WARNING, message("unusable_output", cfg.language, reason=reason))
            if state.unreadable > 1 and getattr(self.protocol, "fallback", None):
                self.protocol = fall_back(
                    state, self.protocol, self.llm.abilities, self.config, registry, self.options.theme
                )
                yield writer.block(ReActType.WARNING, message("json_fallback", self.config.language))
            self.protocol.feedback(state.messages, exc.message)
            if state.format_retries > cfg.max_format_retries:
                raise ForceFinalizeException(message("format_gave_up")) from None
        except (ForceFinalizeException, Answered, Suspended, GeneratorExit, asyncio.CancelledError):
            raise
        except LLMError as exc:
            raise ForceFinalizeException(exc.message, fatal=True) from None
        except Exception as exc:
            raise ForceFinalizeException(
                message("internal_step_failed", kind=type(exc).__name__, detail=str(exc)[:120])
            ) from None

    async def _execute(self, state: RunState, registry: ToolRegistry, writer: StreamWriter, step: Step):
        """Run the step's tool calls concurrently; ask_user suspends the run after them."""
        asked = question_of(step.calls)
        others = [c for c in step.calls if asked is None or c is not asked[0]]
        step.observations = await run_calls(
            self.tracing, self._span, others, registry, state, self.config, self.hooks, self.observation_chars
        )
        for ev in evidence_of([step]):
            if admitted(ev, self._evidence, state.prompt):
                self._evidence.add(ev)
        for observation in step.observations:
            yield writer.observation(observation)
            step.notes.extend(notes_after(state, observation, self.config))
        for note in step.notes:
            yield writer.note(note)
        state.steps.append(step)
        state.messages.extend(self.protocol.step_messages(step))
        if asked is not None:
            raise suspend(state, *asked)

    def _first_step(self, state: RunState, registry: ToolRegistry) -> Step | None:
        """A small model starts with the engine's own computation, table query or document search."""
        if not self.llm.abilities.small:
            return None
        return engine_step(state.prompt, registry, self.context.embed, self.config.language)

    def _resumed_step(self, state: RunState, registry: ToolRegistry, reply: str) -> Step | None:
        """The engine asked the analyst in its own first step: it now makes that step on
        the question the reply completes."""
        if not self.llm.abilities.small:
            return None
        return resumed_step(state.prompt, reply, registry, self.context.embed, self.config.language)

    def _repeats(self, state: RunState, step: Step) -> bool:
        """A small model calling again, with the same input, what it already has, while
        evidence is in hand: it is going round in circles, and the engine answers."""
        if not self.llm.abilities.small or not step.calls or not self._evidence.evidence:
            return False
        return all(call_key(c.name, c.args) in state.call_counts for c in step.calls)

    def _evidence_answer(self, state: RunState, writer: StreamWriter) -> str:
        """The answer from the evidence, each part of the question addressed, with its cautions."""
        checked, text = repeated_answer(state.prompt, state.steps, writer, **self._answering(self.context.embed))
        return self._keep(checked, text)

    def _grounded(self, answer: str, state: RunState, writer: StreamWriter) -> str:
        """Check the answer against the evidence; a small model's failing answer becomes a
        Draft, and the fact the evidence states becomes the Answer. The cautions go with it."""
        small = self.llm.abilities.small
        if small and self._evidence.evidence and len(question_parts(state.prompt)) > 1:  # each part from its evidence
            checked = parts_review(state.prompt, state.steps, **self._answering(self.context.embed))
        else:
            embed = self.context.embed if small else None
            checked = review(answer, state.prompt, state.steps, small=small, **self._answering(embed))
        return self._keep(checked, replacement_text(checked, writer))

    def _answering(self, embed: Any) -> dict[str, Any]:
        return {"language": self.config.language, "embed": embed, "detail": self.config.detail, "index": self._evidence}

    def _keep(self, checked: Review, text: str) -> str:
        self.result.answer, self.result.grounding = checked.answer, checked.report
        self.result.cautions = checked.cautions
        return text

    def _apply_user_reply(self, state: RunState, writer: StreamWriter, suspended: SuspendedRun, answer: str) -> str:
        call, observation = reply_observation(state, suspended, answer)
        state.messages.extend(self.protocol.user_reply(call, observation.text))
        return writer.observation(observation)
