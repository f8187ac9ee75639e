import json

import pytest

from engine.llm.factory import ModelsFile, build_llm, load_models_file, resolve_spec
from engine.settings import Settings


def test_mistral_key_wins():
    spec = resolve_spec(
        Settings.from_env({"MISTRAL_API_KEY": "sk-unique-secret", "OPENAI_BASE_URL": "http://x/v1"}), ModelsFile()
    )
    assert spec.kind == "mistral" and spec.model == "mistral-small-latest" and spec.tool_call
    assert "sk-unique-secret" not in repr(spec) and "sk-unique-secret" not in spec.label()


def test_openai_when_no_mistral_key():
    spec = resolve_spec(
        Settings.from_env({"OPENAI_BASE_URL": "http://localhost:11434/v1", "OPENAI_MODEL": "qwen"}), ModelsFile()
    )
    assert spec.kind == "openai" and spec.model == "qwen"
    llm = build_llm(spec)
    assert llm.name == "openai" and not llm.abilities.tool_call


def test_embedded_by_default_and_models_json_can_choose(tmp_path):
    assert resolve_spec(Settings.from_env({}), ModelsFile()).kind == "embedded"
    path = tmp_path / "models.json"
    path.write_text(
        json.dumps(
            {
                "backend": {"kind": "openai", "base_url": "http://h:8000/v1", "model": "m"},
                "engine": {"max_iterations": 4},
            }
        )
    )
    models = load_models_file(path)
    assert resolve_spec(Settings.from_env({}), models).base_url == "http://h:8000/v1"
    assert models.engine == {"max_iterations": 4}


def test_invalid_models_json_is_one_readable_error(tmp_path):
    path = tmp_path / "models.json"
    path.write_text("{broken")
    with pytest.raises(ValueError, match="is not a valid models file"):
        load_models_file(path)


def test_explicit_key_argument():
    assert resolve_spec(Settings.from_env({}), ModelsFile(), api_key="from-app").kind == "mistral"


def test_a_served_model_can_be_declared_small():
    served = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_MODEL": "gemma"}
    assert not build_llm(resolve_spec(Settings.from_env(served), ModelsFile())).abilities.small
    small = resolve_spec(Settings.from_env({**served, "OPENAI_SMALL_MODEL": "1"}), ModelsFile())
    assert small.small and build_llm(small).abilities.small
