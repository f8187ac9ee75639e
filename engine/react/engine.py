"""The ReAct loop: stateless, streaming, and never silent.

``ReActEngine`` is built fresh for every turn. It receives the compressed history,
streams one raw ReAct text (the model's tokens under canonical labels, plus the
engine's Actions, Observations, Thoughts, Warnings and Errors), and ends every run
with an Answer block or an explicit Error block. Inside a step only RetryException
and ForceFinalizeException escape; everything else is converted to one of them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.config import EngineConfig
from engine.errors import ForceFinalizeException, RetryException
from engine.llm.base import LLM, LLMError, ToolCallRequest
from engine.react.finalizer import clean_answer, fallback_answer
from engine.react.history import clean_history, compress_history
from engine.react.hooks import Hooks
from engine.react.parser import MODEL_LABELS, ParseEvent, ReActStreamParser, escape_labels, reemit
from engine.react.prompts import citation_rule, render, style_instructions
from engine.react.run_state import EngineResult, RunState, SuspendedRun, ToolCall
from engine.react.step_parsing import parse_action_input, resolve_tool_name
from engine.react.types import ANSWER_TYPES, CANONICAL_LABEL, ReActType
from engine.tools.ask_user import ASK_USER, AskUserArgs
from engine.tools.base import Tool, ToolRegistry

TEXT_STOP = ["Observation:", "\nQuestion:"]
EMBEDDED_OBSERVATION_CHARS = 600
_NOTHING = "(no reply)"


class _StopStep(Exception):
    """The model went past where its step ends (e.g. wrote its own Observation)."""


@dataclass
class StepOutcome:
    thought: str = ""
    answer: str | None = None
    calls: list[ToolCall] = field(default_factory=list)
    assistant_text: str = ""
    finish_reason: str | None = None
    native_calls: list[ToolCallRequest] = field(default_factory=list)
    answer_cut: bool = False


class StreamWriter:
    """Writes the raw stream and parses it with the same parser the client uses."""

    def __init__(self) -> None:
        self.parser = ReActStreamParser()
        self.at_line_start = True

    def write(self, text: str) -> str:
        if text:
            self.parser.feed(text)
            self.at_line_start = text.endswith("\n")
        return text

    def block(self, block_type: ReActType, content: str = "", end: bool = True) -> str:
        lead = "" if self.at_line_start else "\n"
        first, newline, rest = content.partition("\n")  # the first line follows the label: never a label
        body = first + newline + escape_labels(rest)
        return self.write(f"{lead}{CANONICAL_LABEL[block_type]}: {body}" + ("\n" if end else ""))


def _call_hash(name: str, args: dict[str, Any]) -> str:
    return hashlib.sha1(f"{name}:{json.dumps(args, sort_keys=True, default=str)}".encode()).hexdigest()[:16]


class ReActEngine:
    """One turn of the agent. Build a new one per turn; it keeps nothing afterwards."""

    def __init__(
        self,
        config: EngineConfig | dict[str, Any] | None = None,
        llmapikey: str | None = None,
        ragkwargs: dict[str, Any] | None = None,
        *,
        llm: LLM | None = None,
        tools: ToolRegistry | list[Tool] | None = None,
        hooks: Hooks | None = None,
    ) -> None:
        if config is None:
            from engine.llm.factory import load_models_file

            config = EngineConfig.model_validate(load_models_file().engine)
        self.config = config if isinstance(config, EngineConfig) else EngineConfig.model_validate(config)
        self.ragkwargs = dict(ragkwargs or {})
        self.config = self.config.model_copy(
            update={k: self.ragkwargs[k] for k in ("language", "detail") if self.ragkwargs.get(k)}
        )
        if llm is None:
            from engine.llm.factory import build_llm, resolve_spec

            llm = build_llm(resolve_spec(api_key=llmapikey))
        self.llm = llm
        if llm.name == "embedded" and "observation_max_chars" not in self.config.model_fields_set:
            # a 270M model loses the thread after long observations: keep them short
            self.config = self.config.model_copy(update={"observation_max_chars": EMBEDDED_OBSERVATION_CHARS})
        self._tools = tools if isinstance(tools, ToolRegistry) or tools is None else ToolRegistry(tools)
        self.hooks = hooks or Hooks()
        self._history: list[dict[str, Any]] = []
        self.result = EngineResult()

    # ---- set-up -------------------------------------------------------------
    def start(self, theme: str | None = None) -> ReActEngine:
        """Daemon-style start: pick the theme and load its toolkits now, not on first use."""
        if theme:
            self.ragkwargs["theme"] = theme
        self._tools = None
        _ = self.tools
        return self

    @property
    def tools(self) -> ToolRegistry:
        if self._tools is None:
            from engine.tools.toolkits import build_registry

            self._tools = build_registry(self.ragkwargs)
        return self._tools

    @property
    def backend_label(self) -> str:
        return f"{self.llm.name} · {self.llm.model}"

    def set_history(self, history: list[dict[str, Any]]) -> None:
        """Take the conversation so far (OpenAI-style), cleaned and fitted to the budget."""
        cleaned = clean_history(history)

        def summarise(prompt: str) -> str:
            return self.llm.generate([{"role": "user", "content": prompt}], max_tokens=300, temperature=0.0).text

        self._history = compress_history(
            cleaned, self.config.history_token_budget, self.config.history_recent_share, summarise
        )

    @property
    def history(self) -> list[dict[str, Any]]:
        return [dict(m) for m in self._history]

    # ---- public runs ------------------------------------------------------------
    async def stream(self, prompt: str) -> AsyncIterator[str]:
        """Run the agent on ``prompt`` and yield the raw ReAct stream."""
        state = self._new_state(prompt)
        async for token in self._drive(state):
            yield token

    async def resume_stream(self, suspended: SuspendedRun | dict[str, Any], answer: str) -> AsyncIterator[str]:
        """Continue a suspended run with the user's reply as the ask_user Observation."""
        if not isinstance(suspended, SuspendedRun):
            suspended = SuspendedRun.model_validate(suspended)
        state = suspended.state.model_copy(deep=True)
        async for token in self._drive(state, resume=(suspended, answer)):
            yield token

    def stream_sync(self, prompt: str, heartbeat_s: float | None = None) -> Iterator[str]:
        """The raw stream for sync callers; with ``heartbeat_s``, idle periods yield ``""``."""
        from engine.llm.base import iterate_async

        return iterate_async(lambda: self.stream(prompt), heartbeat_s)

    def resume_sync(
        self, suspended: SuspendedRun | dict[str, Any], answer: str, heartbeat_s: float | None = None
    ) -> Iterator[str]:
        from engine.llm.base import iterate_async

        return iterate_async(lambda: self.resume_stream(suspended, answer), heartbeat_s)

    def get_engine_response(self, prompt: str) -> EngineResult:
        """The whole run at once: answer, blocks, iterations, usage, elapsed."""
        for _ in self.stream_sync(prompt):
            pass
        return self.result

    def resume(self, suspended: SuspendedRun | dict[str, Any], answer: str) -> EngineResult:
        for _ in self.resume_sync(suspended, answer):
            pass
        return self.result

    # ---- the loop -------------------------------------------------------------------
    def _mode(self) -> str:
        return "native" if self.llm.abilities.tool_call else "text"

    def _system_prompt(self, mode: str, registry: ToolRegistry, earlier: str = "") -> str:
        theme = self.ragkwargs.get("theme")
        context = f"The analyst's knowledge theme is '{theme}'." if theme else ""
        style = style_instructions(self.config.language, self.config.detail)
        if mode == "native":
            text = render("system_native", context=context, citation_rule=citation_rule(), style=style)
        else:
            text = render(
                "system_text",
                context=context,
                tools=registry.text_descriptions(),
                tool_names=", ".join(registry.names()),
                citation_rule=citation_rule(),
                style=style,
            )
        if earlier:
            text += "\n\n" + earlier
        if self.llm.name == "embedded":  # a base model: worked examples right before the question
            text += "\n\n" + render("embedded_fewshot")
        return text

    def _new_state(self, prompt: str) -> RunState:
        mode = self._mode()
        registry = self._routed_tools(prompt)
        summaries = [m["content"] for m in self._history if m["role"] == "system"]
        turns = [{"role": m["role"], "content": m["content"]} for m in self._history if m["role"] != "system"]
        earlier = "\n".join(summaries)
        if self.llm.name == "embedded" and turns:
            # A small base model copies the latest Q/A pair; it reads earlier turns as context instead.
            lines = [f"{'User' if m['role'] == 'user' else 'Assistant'}: {m['content']}" for m in turns]
            earlier = (earlier + "\n" if earlier else "") + "Earlier in this conversation:\n" + "\n".join(lines)
            turns = []
        messages = [{"role": "system", "content": self._system_prompt(mode, registry, earlier)}]
        messages += turns
        messages.append({"role": "user", "content": prompt})
        return RunState(prompt=prompt, mode=mode, messages=messages, tool_names=registry.names())

    def _routed_tools(self, prompt: str) -> ToolRegistry:
        router = getattr(self.tools, "router", None)
        if router is None:
            return self.tools
        try:
            return self.tools.subset(router.route(prompt, self.tools))
        except Exception:  # routing is an optimisation: the full set is always correct
            return self.tools

    async def _drive(self, state: RunState, resume: tuple[SuspendedRun, str] | None = None) -> AsyncIterator[str]:
        started = time.monotonic()
        writer = StreamWriter()
        self.result = EngineResult(backend=self.backend_label, iterations=state.iterations)
        registry = self.tools.subset(state.tool_names)
        finished = False
        try:
            if resume is not None:
                yield self._apply_user_reply(state, writer, *resume)
            async for token in self._loop(state, registry, writer, started):
                yield token
            finished = True
        except (GeneratorExit, asyncio.CancelledError):
            self.result.status = "stopped"
            raise
        except Exception as exc:  # a bug of ours must still end in an explicit error block
            yield writer.block(ReActType.ERROR, f"Internal error ({type(exc).__name__}); the run was stopped.")
            self.result.status = "error"
            self.result.error = f"Internal error ({type(exc).__name__})."
            self.result.error_source = "internal"
            finished = True
        finally:
            writer.parser.close()
            self.result.blocks = writer.parser.blocks
            self.result.iterations = state.iterations
            self.result.usage = state.usage
            self.result.elapsed = state.elapsed_before + (time.monotonic() - started)
            if self.result.suspended is not None:
                self.result.suspended.state.elapsed_before = self.result.elapsed
            if finished and self.result.status == "answered":
                answers = [b for b in self.result.blocks if b.type in ANSWER_TYPES]
                self.result.answer = clean_answer(answers[-1].content) if answers else ""

    async def _loop(
        self, state: RunState, registry: ToolRegistry, writer: StreamWriter, started: float
    ) -> AsyncIterator[str]:
        cfg = self.config
        while True:
            reason = None
            if state.iterations >= cfg.max_iterations:
                reason = f"I reached the limit of {cfg.max_iterations} reasoning steps."
            elif time.monotonic() - started + state.elapsed_before > cfg.run_timeout_s:
                reason = f"The run took longer than {cfg.run_timeout_s:.0f} seconds."
            if reason:
                async for token in self._finalize(state, writer, reason):
                    yield token
                return
            state.iterations += 1
            try:
                outcome = StepOutcome()
                async for token in self._step(state, registry, writer, outcome):
                    yield token
                if outcome.answer is not None:
                    if outcome.answer_cut:
                        yield writer.block(ReActType.WARNING, "The answer was cut at the length limit.")
                    self.result.status = "answered"
                    return
                if self.result.status == "suspended":
                    return
                state.format_retries = 0
            except RetryException as exc:
                state.format_retries += 1
                yield writer.block(
                    ReActType.WARNING, f"Unusable model output ({exc.message.rstrip('.')}); asking it to fix it."
                )
                self._append_feedback(state, exc.message)
                if state.format_retries > cfg.max_format_retries:
                    async for token in self._finalize(
                        state, writer, "The model kept producing output in the wrong format."
                    ):
                        yield token
                    return
            except ForceFinalizeException as exc:
                backend_error = exc.user_message if exc.fatal else None
                async for token in self._finalize(state, writer, exc.message, backend_error=backend_error):
                    yield token
                return

    async def _step(
        self, state: RunState, registry: ToolRegistry, writer: StreamWriter, outcome: StepOutcome
    ) -> AsyncIterator[str]:
        """One model call and its tool calls. Only the two control exceptions escape."""
        try:
            async for token in self._model_call(state, registry, writer, outcome):
                yield token
            if outcome.answer is not None:
                return
            async for token in self._run_calls(state, registry, writer, outcome):
                yield token
        except (RetryException, ForceFinalizeException):
            raise
        except LLMError as exc:
            raise ForceFinalizeException(exc.message, fatal=True) from None
        except (GeneratorExit, asyncio.CancelledError):
            raise
        except Exception as exc:
            raise ForceFinalizeException(f"An internal step failed ({type(exc).__name__}: {str(exc)[:120]}).") from None

    # ---- one model call -----------------------------------------------------------------
    async def _model_call(
        self, state: RunState, registry: ToolRegistry, writer: StreamWriter, outcome: StepOutcome
    ) -> AsyncIterator[str]:
        native = state.mode == "native"
        kw: dict[str, Any] = {"max_tokens": self.config.max_tokens_per_step, "temperature": self.config.temperature}
        if native:
            kw["tools"] = registry.function_schemas()
        else:
            kw["stop"] = TEXT_STOP
            kw["assistant_prefix"] = "Thought:"
        parser = ReActStreamParser(accept=MODEL_LABELS)
        held: list[str] = []  # native mode: unlabeled content waits until we know if it is a Thought or an Answer
        seen: list[ReActType] = []  # the type each accepted block ends up with
        meta: dict[str, Any] = {}

        def release_held(kind: ReActType) -> str:
            text = "".join(held).strip()
            held.clear()
            seen[seen.index(ReActType.UNKNOWN)] = kind
            return writer.block(kind, text, end=False) if text else ""

        def forward(event: ParseEvent) -> str:
            if event.kind == "start":
                kind = event.type
                if (
                    seen
                    and (seen[-1] is ReActType.ACTION_INPUT or seen[-1] in ANSWER_TYPES)
                    and kind not in ANSWER_TYPES
                ):
                    raise _StopStep
                if kind is ReActType.OBSERVATION:
                    raise _StopStep
                if kind is ReActType.UNKNOWN:
                    if native:  # leading unlabeled content: held back until its role is known
                        seen.append(kind)
                        return ""
                    kind = ReActType.THOUGHT
                lead = release_held(ReActType.THOUGHT) if ReActType.UNKNOWN in seen else ""
                seen.append(kind)
                return lead + writer.block(kind, end=False)
            text = reemit(event)
            if seen and seen[-1] is ReActType.UNKNOWN:
                held.append(text)
                return ""
            return writer.write(text)

        if self.llm.abilities.prefill and "assistant_prefix" in kw:
            for event in parser.feed(kw["assistant_prefix"]):
                yield forward(event)
        stream = self.llm.astream_generate(state.messages, **kw)
        try:
            async for chunk in stream:
                if "meta" in chunk:
                    meta = chunk["meta"] or {}
                    continue
                for event in parser.feed(chunk.get("delta", "")):
                    yield forward(event)
            for event in parser.close():
                yield forward(event)
        except _StopStep:
            meta.setdefault("finish_reason", "stop")
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()
        usage = meta.get("usage") or {}
        state.usage.add(usage)
        outcome.finish_reason = meta.get("finish_reason")
        outcome.native_calls = [ToolCallRequest.model_validate(c) for c in meta.get("tool_calls") or []]
        if ReActType.UNKNOWN in seen:
            yield release_held(ReActType.THOUGHT if outcome.native_calls else ReActType.ANSWER)
        blocks = [b.model_copy(update={"type": kind}) for b, kind in zip(parser.blocks, seen, strict=False)]
        self._interpret(state, registry, blocks, outcome)

    def _interpret(self, state: RunState, registry: ToolRegistry, blocks: list, outcome: StepOutcome) -> None:
        thoughts = [b.content for b in blocks if b.type is ReActType.THOUGHT]
        outcome.thought = "\n".join(t for t in thoughts if t)
        outcome.assistant_text = "\n".join(f"{CANONICAL_LABEL[b.type]}: {b.content}" for b in blocks)
        answer_idx = next((i for i, b in enumerate(blocks) if b.type in ANSWER_TYPES), None)
        action_idx = next((i for i, b in enumerate(blocks) if b.type is ReActType.ACTION), None)
        if outcome.native_calls:
            outcome.calls = [self._native_call(c, registry) for c in outcome.native_calls]
            return
        truncated = outcome.finish_reason == "length"
        if answer_idx is not None and (
            action_idx is None or answer_idx < action_idx or not self._has_input(blocks, action_idx)
        ):
            answer = "\n\n".join(b.content for b in blocks[answer_idx:] if b.type in ANSWER_TYPES)
            if not clean_answer(answer):
                raise RetryException("the Answer is empty; write the final answer after 'Answer:'.")
            outcome.answer = answer
            outcome.answer_cut = truncated
            return
        if action_idx is None:
            if truncated:
                raise RetryException("your reply was cut off at the length limit; keep the Thought short.")
            if not any(b.content for b in blocks):
                raise RetryException("the reply was empty.")
            raise RetryException("there was a Thought but no Action and no Answer.")
        name, inline = resolve_tool_name(blocks[action_idx].content, registry)
        tool = registry.get(name)
        assert tool is not None
        input_block = next((b for b in blocks[action_idx + 1 :] if b.type is ReActType.ACTION_INPUT), None)
        required = bool(tool.json_schema().get("required"))
        if input_block is None and inline is None:
            if truncated:
                raise RetryException("your reply was cut off before the Action Input; keep the Thought short.")
            if required:
                raise RetryException(
                    f"the Action Input line is missing after 'Action: {name}'; give its input as JSON."
                )
        text = input_block.content if input_block is not None else (inline or "")
        args = parse_action_input(text, name, tool.single_string_field, required)
        outcome.calls = [ToolCall(id=f"call_{uuid.uuid4().hex[:9]}", name=name, args=args)]

    @staticmethod
    def _has_input(blocks: list, action_idx: int) -> bool:
        return any(b.type is ReActType.ACTION_INPUT for b in blocks[action_idx + 1 :])

    @staticmethod
    def _native_call(call: ToolCallRequest, registry: ToolRegistry) -> ToolCall:
        try:
            args = json.loads(call.arguments or "{}")
        except ValueError:
            args = {"__invalid_json__": call.arguments}
        if not isinstance(args, dict):
            args = {"__invalid_json__": call.arguments}
        return ToolCall(id=call.id, name=call.name, args=args)

    # ---- tools ---------------------------------------------------------------------------
    async def _run_calls(
        self, state: RunState, registry: ToolRegistry, writer: StreamWriter, outcome: StepOutcome
    ) -> AsyncIterator[str]:
        native = state.mode == "native"
        calls = outcome.calls
        ask = next((c for c in calls if c.name == ASK_USER), None)
        ask_args = self._ask_args(ask) if ask is not None else None
        if native:
            for call in calls:
                yield writer.block(ReActType.ACTION, call.name)
                yield writer.block(ReActType.ACTION_INPUT, json.dumps(call.args, ensure_ascii=False))
            state.messages.append(
                {
                    "role": "assistant",
                    "content": outcome.thought,
                    "tool_calls": [
                        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments or "{}"}}
                        for c in outcome.native_calls
                    ],
                }
            )
        else:
            if not writer.at_line_start:
                yield writer.write("\n")
            state.messages.append({"role": "assistant", "content": outcome.assistant_text})
        others = [c for c in calls if c is not ask]
        results = await asyncio.gather(*(self._run_tool(state, registry, c) for c in others))
        notes: list[tuple[ReActType, str]] = []
        for call, observation in zip(others, results, strict=True):
            yield writer.block(ReActType.OBSERVATION, observation)
            notes.extend(self._guards_after(state, call, observation))
            if native:
                state.messages.append(
                    {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": observation}
                )
        for kind, note in notes:
            yield writer.block(kind, note)
        note_text = "\n".join(n for _, n in notes)
        if not native and others:
            body = "\n".join(f"Observation: {o}" for o in results)
            state.messages.append({"role": "user", "content": body + (f"\n{note_text}" if note_text else "")})
        elif native and note_text and others:
            state.messages[-1]["content"] += f"\n\n[Note: {note_text}]"
        if ask is not None and ask_args is not None:
            self.result.status = "suspended"
            self.result.suspended = SuspendedRun(
                state=state, question=ask_args.question, choices=ask_args.choices, call_id=ask.id
            )

    @staticmethod
    def _ask_args(call: ToolCall) -> AskUserArgs:
        try:
            return AskUserArgs.model_validate(call.args)
        except Exception:
            raise RetryException('ask_user needs {"question": "...", "choices": ["..."] (optional)}.') from None

    def _apply_user_reply(self, state: RunState, writer: StreamWriter, suspended: SuspendedRun, answer: str) -> str:
        answer = answer.strip() or "(the user gave no answer)"
        if state.mode == "native":
            state.messages.append(
                {"role": "tool", "tool_call_id": suspended.call_id, "name": ASK_USER, "content": answer}
            )
        else:
            state.messages.append({"role": "user", "content": f"Observation: {answer}"})
        state.findings.append(f"The user answered '{suspended.question}': {answer[:200]}")
        return writer.block(ReActType.OBSERVATION, answer)

    async def _run_tool(self, state: RunState, registry: ToolRegistry, call: ToolCall) -> str:
        """Run one call; every failure becomes an Observation the model can act on."""
        cfg = self.config
        state.tool_calls += 1
        key = _call_hash(call.name, call.args)
        count = state.call_counts.get(key, 0) + 1
        state.call_counts[key] = count
        if call.name not in state.tools_used:
            state.tools_used.append(call.name)
        tool = registry.get(call.name)
        if tool is None:
            observation = f"Error: there is no tool named '{call.name}'. The tools are: {', '.join(registry.names())}."
        elif "__invalid_json__" in call.args:
            observation = f"Error: the arguments for {call.name} were not valid JSON. Send one JSON object."
        elif count >= cfg.cycle_block_at:
            observation = render("cycle_blocked", tool=call.name, count=count - 1)
        else:
            call, blocked = self.hooks.before(call)
            if blocked:
                observation = f"Blocked: {blocked}"
            else:
                try:
                    observation = await tool.acall(call.args, cfg.tool_timeout_s)
                except RetryException as exc:
                    observation = f"Error: {exc.message}"
                except TimeoutError:
                    observation = f"Error: {call.name} took longer than {cfg.tool_timeout_s:g} s and was stopped."
                except Exception as exc:
                    observation = f"Error: {call.name} failed ({type(exc).__name__}: {str(exc)[:200]})."
                observation = self.hooks.after(call, observation)
        observation = observation.strip()
        if len(observation) > cfg.observation_max_chars:
            cut = len(observation) - cfg.observation_max_chars
            observation = observation[: cfg.observation_max_chars].rstrip() + f"\n[… {cut} more characters cut]"
        if observation and not observation.startswith(("Error:", "Blocked:", "Not run:")):
            state.findings.append(
                f"{call.name}({json.dumps(call.args, ensure_ascii=False)[:120]}) → {observation[:200]}"
            )
        return observation

    def _guards_after(self, state: RunState, call: ToolCall, observation: str) -> list[tuple[ReActType, str]]:
        cfg = self.config
        notes: list[tuple[ReActType, str]] = []
        if not observation:
            notes.append((ReActType.THOUGHT, render("empty_observation", tool=call.name)))
        count = state.call_counts.get(_call_hash(call.name, call.args), 0)
        if count == cfg.cycle_warn_at:
            notes.append((ReActType.WARNING, render("cycle_warning", tool=call.name, count=count)))
        if state.tool_calls % cfg.reflection_every == 0:
            notes.append((ReActType.THOUGHT, render("reflection", count=state.tool_calls)))
        if not state.checklist_done and state.tool_calls >= cfg.checklist_after_tools:
            state.checklist_done = True
            notes.append((ReActType.THOUGHT, render("checklist")))
        return notes

    def _append_feedback(self, state: RunState, problem: str) -> None:
        """Tell the model what to fix, keeping the message order valid for every backend."""
        if state.mode == "native":
            feedback = render("reformat_native", problem=problem)
            last = state.messages[-1]
            if last["role"] == "tool":
                last["content"] += f"\n\n[Note: {feedback}]"
                return
            state.messages.append({"role": "assistant", "content": _NOTHING})
            state.messages.append({"role": "user", "content": feedback})
            return
        feedback = render("reformat", problem=problem)
        state.messages.append({"role": "assistant", "content": _NOTHING})
        state.messages.append({"role": "user", "content": f"Observation: {feedback}"})

    # ---- forced final answer ------------------------------------------------------------
    async def _finalize(
        self, state: RunState, writer: StreamWriter, reason: str, backend_error: str | None = None
    ) -> AsyncIterator[str]:
        """End the run with an answer written from what was found, or an explicit error."""
        if backend_error is not None:
            yield writer.block(ReActType.ERROR, backend_error)
            self.result.status = "error"
            self.result.error = backend_error
            self.result.error_source = "backend"
            return
        yield writer.block(ReActType.WARNING, f"{reason} Writing the final answer from what was found.")
        instruction = render("force_final", reason=reason)
        messages = [dict(m) for m in state.messages]
        if messages[-1]["role"] == "tool":
            messages[-1]["content"] += f"\n\n[Note: {instruction}]"
        elif messages[-1]["role"] == "user":
            messages[-1]["content"] += f"\n{instruction}"
        else:
            messages.append({"role": "user", "content": instruction})
        kw: dict[str, Any] = {"max_tokens": self.config.max_tokens_per_step, "temperature": self.config.temperature}
        if state.mode == "text":
            kw["stop"] = TEXT_STOP
            kw["assistant_prefix"] = "Answer:"
        parser = ReActStreamParser(accept=MODEL_LABELS)
        written: list[str] = []
        yield writer.block(ReActType.ANSWER, end=False)

        def take(events: list[ParseEvent]) -> str:
            out = []
            for event in events:
                if event.kind != "start" and (event.type is ReActType.UNKNOWN or event.type in ANSWER_TYPES):
                    text = reemit(event)
                    if not written and not text.strip():
                        continue
                    written.append(text)
                    out.append(text)
            return writer.write("".join(out))

        error: str | None = None
        try:
            stream = self.llm.astream_generate(messages, **kw)
            try:
                async for chunk in stream:
                    if "meta" in chunk:
                        state.usage.add((chunk["meta"] or {}).get("usage"))
                        continue
                    yield take(parser.feed(chunk.get("delta", "")))
                yield take(parser.close())
            finally:
                await stream.aclose()
        except LLMError as exc:
            error = exc.message
        except Exception as exc:
            error = f"The final answer could not be written ({type(exc).__name__})."
        if not clean_answer("".join(written)):
            yield writer.write(fallback_answer(reason, state.findings))
        if error is not None:
            yield writer.block(ReActType.ERROR, error)
            self.result.status = "error"
            self.result.error = error
            self.result.error_source = "backend"
            return
        self.result.status = "answered"
