"""Who is the user: the name every conversation read and write is scoped to.

In order: Streamlit's built-in authentication when it is configured (``[auth]`` in
secrets; ``st.user`` then carries ``is_logged_in``), else the request header named by
``AUTH_HEADER``, else one local user. The header is only trustworthy behind a proxy
that sets it and strips it from client requests; anyone reaching the app directly can
send any value.

When authentication or ``AUTH_HEADER`` is configured but gives no identity, nobody is
let in: falling back to the local user would show its conversations to anyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from engine.store.errors import BadInput
from engine.store.inputs import check_user

LOCAL_USER = "local"
_CLAIMS = ("email", "sub", "preferred_username", "name")  # the first present names the user


class Identity(BaseModel):
    """``name`` is None when the visitor must log in (``login``) or the proxy header is missing (``no_header``)."""

    name: str | None
    source: Literal["streamlit", "header", "local", "login", "no_header"]


def _usable(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return check_user(value.strip())
    except BadInput:
        return None


def identify(user_info: Mapping[str, Any], headers: Mapping[str, str], auth_header: str | None) -> Identity:
    """The identity from ``st.user`` (as a mapping), the request headers and the ``AUTH_HEADER`` setting."""
    if "is_logged_in" in user_info:  # Streamlit authentication is configured
        if not user_info.get("is_logged_in"):
            return Identity(name=None, source="login")
        for claim in _CLAIMS:
            name = _usable(user_info.get(claim))
            if name:
                return Identity(name=name, source="streamlit")
        return Identity(name=None, source="login")
    if auth_header:
        wanted = auth_header.strip().lower()
        value = next((v for k, v in headers.items() if k.lower() == wanted), None)
        name = _usable(value)
        return Identity(name=name, source="header") if name else Identity(name=None, source="no_header")
    return Identity(name=LOCAL_USER, source="local")


def current_user(lang: str = "en") -> str:
    """The user of this browser session; shows a login button (or a reason) and stops the page if there is none."""
    import streamlit as st

    from components.i18n import t
    from engine.settings import current

    identity = identify(dict(st.user), dict(st.context.headers), current().auth_header)
    if identity.name is not None:
        return identity.name
    if identity.source == "login":
        st.info(t("conv_login_needed", lang))
        st.button(t("conv_login", lang), icon=":material/login:", on_click=st.login)
    else:
        st.error(t("conv_no_identity", lang))
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the script run")
