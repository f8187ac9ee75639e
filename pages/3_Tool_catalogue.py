"""Tool catalogue: the tools each kind of model gets (a model that writes SQL, a small
embedded one), by toolkit with their schemas; MCP servers and their status; and the
ToolRouter's scores for a question."""

from __future__ import annotations

import streamlit as st

from components.i18n import has, number, t
from components.inert import inert
from components.render import spreadsheet_rows
from components.state import session

conversation, settings = session()
lang = settings.language
st.set_page_config(page_title=t("tool_catalogue", lang), page_icon=":material/construction:")
st.title(t("tool_catalogue", lang))

from components.app_context import engine_context  # noqa: E402

context = engine_context()


def toolkit_name(kit: str) -> str:
    return t(f"toolkit_{kit}", lang) if has(f"toolkit_{kit}") else kit


def code(name: str) -> str:
    """A tool name a server chose, shown as code: never markdown (a link or an image)."""
    return "`" + name.replace("`", "'")[:80] + "`"


def show_tools(small: bool) -> None:
    registry = context.registry(settings.theme, small_model=small, language=lang)
    by_kit: dict[str, list] = {}
    for tool in registry:
        by_kit.setdefault(tool.toolkit, []).append(tool)
    for kit, tools in by_kit.items():
        st.subheader(f"{toolkit_name(kit)} ({len(tools)})")
        for tool in tools:
            always = f" · {t('always_on', lang)}" if tool.always_on else ""
            served = f" · {t('mcp_server_of', lang, server=tool.server)}" if tool.server else ""
            with st.expander(inert(f"`{tool.name}`{always}") + served):
                st.text(tool.description)
                st.json(tool.json_schema(), expanded=False)


st.subheader(t("tools_for", lang))
large_tab, small_tab = st.tabs([t("tools_large", lang), t("tools_small", lang)])
with large_tab:
    show_tools(small=False)
with small_tab:
    show_tools(small=True)

st.subheader(t("mcp_servers", lang))
hub = context.hub
if hub is None:
    st.caption(t("no_mcp", lang))
else:
    from engine.tools.mcp_tools import offered_names
    from engine.tools.toolkits import builtin_names

    naming: dict[str, list] = {}
    for named in offered_names(hub, builtin_names()):
        if named.reason:
            naming.setdefault(named.server, []).append(named)
    for name, status in hub.status.items():
        icon = {"up": ":green[:material/check_circle:]", "unauthorised": ":orange[:material/lock:]"}.get(
            status.state, ":red[:material/cancel:]"
        )
        state = t(f"mcp_state_{status.state}", lang)
        cols = st.columns([4, 1])
        reason = f" ({status.reason})" if status.reason else ""  # an MCP server's own words: untrusted
        cols[0].markdown(f"{icon} **{inert(name)}**: {state}" + inert(reason))
        cols[0].caption(", ".join(code(n) for n in status.tools) or t("no_tools", lang))
        if status.state == "unauthorised":
            cols[0].warning(t("mcp_unauthorised", lang), icon=":material/lock:")
        for named in naming.get(name, []):
            key = f"mcp_tool_{named.reason}" if named.offered else f"mcp_tool_refused_{named.reason}"
            spaced = named.offered or f"{name}__{named.name}"
            cols[0].warning(t(key, lang, name=code(named.name), offered=code(spaced)), icon=":material/shield:")
        if status.state != "up" and cols[1].button(t("restart", lang), key=f"restart-{name}"):
            hub.restart(name)
            st.rerun()

st.subheader(t("route_query", lang))
query = st.text_input(t("route_query", lang), key="route_query", label_visibility="collapsed")
if query.strip():
    registry = context.registry(settings.theme, language=lang)
    try:
        scores = context.router.explain(query, registry)
    except Exception as exc:  # routing is optional: the full set would be offered
        st.warning(t("routing_unavailable", lang, error=type(exc).__name__))
    else:
        top = context.router.top_k
        st.dataframe(
            spreadsheet_rows(
                [
                    {
                        t("col_tool", lang): s.name,
                        t("col_score", lang): number(s.score, lang, 3),
                        t("col_offered", lang): s.offered,
                        t("col_why", lang): t(f"why_{s.reason}", lang, k=top),
                    }
                    for s in scores
                ]
            ),
            hide_index=True,
            width="stretch",
        )
