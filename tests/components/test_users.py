import pytest
from streamlit.runtime.context import StreamlitHeaders

from components.users import LOCAL_USER, identify


def test_no_authentication_configured_is_the_local_user():
    assert identify({}, {"X-Forwarded-User": "mallory"}, None).model_dump() == {"name": LOCAL_USER, "source": "local"}


def test_streamlit_login_names_the_user_by_a_verified_email():
    info = {"is_logged_in": True, "email": "alice@example.com", "email_verified": True, "name": "Alice", "sub": "123"}
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


@pytest.mark.parametrize("verified", [False, None, "false", 0])
def test_an_unverified_email_is_not_an_identity(verified):
    info = {"is_logged_in": True, "email": "alice@example.com", "sub": "m-1", "iss": "https://idp.example"}
    if verified is not None:
        info["email_verified"] = verified
    assert identify(info, {}, None).model_dump() == {"name": "https://idp.example|m-1", "source": "streamlit"}


def test_the_verified_email_string_true_is_accepted():
    info = {
        "is_logged_in": True,
        "email": "alice@example.com",
        "email_verified": "true",
        "sub": "1",
        "iss": "https://i",
    }
    assert identify(info, {}, None).name == "alice@example.com"


def test_the_same_subject_at_two_issuers_is_two_users():
    one = identify({"is_logged_in": True, "sub": "42", "iss": "https://a.example"}, {}, None).name
    two = identify({"is_logged_in": True, "sub": "42", "iss": "https://b.example"}, {}, None).name
    assert one != two


def test_a_display_name_alone_is_not_an_identity():
    identity = identify({"is_logged_in": True, "name": "alice@example.com", "preferred_username": "alice"}, {}, None)
    assert (identity.name, identity.source) == (None, "login")


def test_a_header_sent_twice_is_refused():
    headers = StreamlitHeaders([("X-Forwarded-User", "alice"), ("x-forwarded-user", "mallory")])
    assert identify({}, headers, "X-Forwarded-User").model_dump() == {"name": None, "source": "ambiguous"}


def test_a_header_sent_once_through_streamlit_headers_names_the_user():
    headers = StreamlitHeaders([("X-Forwarded-User", "alice"), ("Host", "app")])
    assert identify({}, headers, "x-forwarded-user").name == "alice"


@pytest.mark.parametrize("value", ["alice, mallory", "alice,"])
def test_a_header_folded_into_a_list_is_refused(value):
    assert identify({}, {"X-User": value}, "X-User").source == "ambiguous"


def test_two_spellings_of_the_header_in_a_plain_mapping_are_refused():
    assert identify({}, {"X-User": "alice", "x-user": "mallory"}, "X-User").source == "ambiguous"
