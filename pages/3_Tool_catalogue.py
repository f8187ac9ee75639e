"""Tool catalogue: every toolkit and tool with its schema, MCP servers and their
status, and the ToolRouter's scores for a question."""

from __future__ import annotations

import streamlit as st

from components.i18n import t
from components.state import session

st.set_page_config(page_title="Tool catalogue", page_icon=":material/construction:")
conversation, settings = session()
lang = settings.language
st.title(t("tool_catalogue", lang))

from components.app_context import engine_context  # noqa: E402

context = engine_context()
registry = context.registry(settings.theme)
by_kit: dict[str, list] = {}
for tool in registry:
    by_kit.setdefault(tool.toolkit, []).append(tool)
for kit, tools in by_kit.items():
    st.subheader(f"{kit} ({len(tools)})")
    for tool in tools:
        with st.expander(f"`{tool.name}`" + (" · always on" if tool.always_on else "")):
            st.text(tool.description)
            st.json(tool.json_schema(), expanded=False)

st.subheader(t("mcp_servers", lang))
hub = context.hub
if hub is None:
    st.caption("mcp_servers.json declares no server.")
else:
    for name, status in hub.status.items():
        icon = ":green[:material/check_circle:]" if status.state == "up" else ":red[:material/cancel:]"
        cols = st.columns([4, 1])
        cols[0].markdown(f"{icon} **{name}**: {status.state}" + (f" ({status.reason})" if status.reason else ""))
        cols[0].caption(", ".join(status.tools) or "no tools")
        if status.state != "up" and cols[1].button(t("restart", lang), key=f"restart-{name}"):
            hub.restart(name)
            st.rerun()

st.subheader(t("route_query", lang))
query = st.text_input(t("route_query", lang), key="route_query", label_visibility="collapsed")
if query.strip():
    try:
        scores = context.router.explain(query, registry)
        st.dataframe(
            [{"tool": s.name, "score": round(s.score, 3), "offered": s.offered, "why": s.why} for s in scores],
            hide_index=True,
            width="stretch",
        )
    except Exception as exc:  # routing is optional: the full set would be offered
        st.warning(f"Routing unavailable ({type(exc).__name__}); every tool would be offered.")
