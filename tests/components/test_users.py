import pytest

from components.users import LOCAL_USER, identify


def test_no_authentication_configured_is_the_local_user():
    assert identify({}, {"X-Forwarded-User": "mallory"}, None).model_dump() == {"name": LOCAL_USER, "source": "local"}


def test_streamlit_login_names_the_user_by_email():
    info = {"is_logged_in": True, "email": "alice@example.com", "name": "Alice", "sub": "123"}
    assert identify(info, {"X-User": "mallory"}, "X-User").model_dump() == {
        "name": "alice@example.com",
        "source": "streamlit",
    }


def test_streamlit_login_without_email_uses_the_subject():
    assert identify({"is_logged_in": True, "sub": "oidc|42"}, {}, None).name == "oidc|42"


def test_streamlit_auth_configured_but_not_logged_in_lets_nobody_in():
    identity = identify({"is_logged_in": False}, {"X-User": "alice"}, "X-User")
    assert (identity.name, identity.source) == (None, "login")


def test_header_names_the_user_case_insensitively():
    assert identify({}, {"x-forwarded-user": " bob "}, "X-Forwarded-User").model_dump() == {
        "name": "bob",
        "source": "header",
    }


@pytest.mark.parametrize("headers", [{}, {"X-User": ""}, {"X-User": "a\nb"}, {"X-User": "x" * 500}])
def test_missing_or_odd_header_lets_nobody_in(headers):
    identity = identify({}, headers, "X-User")
    assert (identity.name, identity.source) == (None, "no_header")
