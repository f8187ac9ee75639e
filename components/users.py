"""Who is the user: the name every conversation read and write is scoped to.

In order: Streamlit's built-in authentication when it is configured (``[auth]`` in
secrets; ``st.user`` then carries ``is_logged_in``), else the request header named by
``AUTH_HEADER``, else one local user. The header is only trustworthy behind a proxy
that sets it and strips it from client requests; anyone reaching the app directly can
send any value.

When authentication or ``AUTH_HEADER`` is configured but gives no identity, nobody is
let in: falling back to the local user would show its conversations to anyone.

Only stable, verified claims name a user: the e-mail when the provider says it is
verified, else the subject qualified by its issuer. A display name or an unverified
e-mail can be set by the visitor, so it would let anyone take another's conversations.
A header sent twice (or folded into a comma list by a proxy) is ambiguous and refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel

from engine.store.errors import BadInput
from engine.store.inputs import LOCAL_USER, check_user


class Identity(BaseModel):
    """``name`` is None when the visitor must log in (``login``), the proxy header is missing
    (``no_header``) or it names more than one user (``ambiguous``)."""

    name: str | None
    source: Literal["streamlit", "header", "local", "login", "no_header", "ambiguous"]


def _usable(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return check_user(value.strip())
    except BadInput:
        return None


def _verified(value: Any) -> bool:
    """``email_verified`` is a boolean in OIDC; some providers send the string ``"true"``."""
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _claimed_name(user_info: Mapping[str, Any]) -> str | None:
    """The verified e-mail, else ``<issuer>|<subject>`` (the subject alone when there is no issuer)."""
    if _verified(user_info.get("email_verified")):
        email = _usable(user_info.get("email"))
        if email:
            return email
    sub = _usable(user_info.get("sub"))
    if not sub:
        return None
    iss = _usable(user_info.get("iss"))
    return _usable(f"{iss}|{sub}") if iss else sub  # an issuer URL holds "://", which no e-mail can


def _header_values(headers: Mapping[str, str], wanted: str) -> list[str]:
    """Every value of the header ``wanted`` (any case), each copy and each comma-folded part."""
    get_all: Callable[[str], list[str]] | None = getattr(headers, "get_all", None)
    if get_all is not None:  # Streamlit's headers keep every copy of a repeated header
        values = list(get_all(wanted))
    else:
        values = [v for k, v in headers.items() if k.lower() == wanted]
    return [part for value in values for part in str(value).split(",")]


def identify(user_info: Mapping[str, Any], headers: Mapping[str, str], auth_header: str | None) -> Identity:
    """The identity from ``st.user`` (as a mapping), the request headers and the ``AUTH_HEADER`` setting."""
    if "is_logged_in" in user_info:  # Streamlit authentication is configured
        if not user_info.get("is_logged_in"):
            return Identity(name=None, source="login")
        name = _claimed_name(user_info)
        return Identity(name=name, source="streamlit") if name else Identity(name=None, source="login")
    if auth_header:
        values = _header_values(headers, auth_header.strip().lower())
        if len(values) > 1:
            return Identity(name=None, source="ambiguous")
        name = _usable(values[0]) if values else None
        return Identity(name=name, source="header") if name else Identity(name=None, source="no_header")
    return Identity(name=LOCAL_USER, source="local")


def current_user(lang: str = "en") -> str:
    """The user of this browser session; shows a login button (or a reason) and stops the page if there is none."""
    import streamlit as st

    from components.i18n import t
    from engine.settings import current

    identity = identify(dict(st.user), st.context.headers, current().auth_header)  # not a dict: it keeps repeats
    if identity.name is not None:
        return identity.name
    if identity.source == "login":
        st.info(t("conv_login_needed", lang))
        st.button(t("conv_login", lang), icon=":material/login:", on_click=st.login)
    elif identity.source == "ambiguous":
        st.error(t("conv_ambiguous_identity", lang))
    else:
        st.error(t("conv_no_identity", lang))
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the script run")
