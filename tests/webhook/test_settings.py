"""Settings from the environment and an optional YAML file."""

from __future__ import annotations

import pytest

from webhook.settings import ENV_VARS, Settings, SettingsError, load_settings


def test_defaults_match_the_contract() -> None:
    s = load_settings({})
    assert (s.listen_address, s.port, s.analyser, s.analysis_timeout_s, s.ungate_deadline_s) == \
        ("0.0.0.0", 8443, "embedded", 10.0, 30.0)
    assert s.hint_max_chars == 1000 and s.leader_election is True and s.scheduler_name == ""
    assert s.bedrock_model == "amazon.nova-pro-v1:0" and s.bedrock_region == "us-east-1"
    assert not s.tls_enabled


def test_environment_and_file(tmp_path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("SEMAFF_PORT: 9443\nSEMAFF_LEADER_ELECTION: false\nSEMAFF_ANALYSER: openai\n")
    s = load_settings({"SEMAFF_SETTINGS_FILE": str(f), "SEMAFF_ANALYSER": "bedrock", "SEMAFF_UNGATE_DEADLINE_S": "5.5",
                       "UNRELATED": "x"})
    assert s == Settings(port=9443, leader_election=False, analyser="bedrock", ungate_deadline_s=5.5)


@pytest.mark.parametrize("env", [{"SEMAFF_PORT": "http"}, {"SEMAFF_LEADER_ELECTION": "maybe"},
                                 {"SEMAFF_ANALYSER": "gpt"}, {"SEMAFF_TLS_CERT_FILE": "c.pem"},
                                 {"SEMAFF_ANALYSIS_TIMEOUT_S": "-1"}])
def test_bad_values_name_the_variable(env) -> None:
    with pytest.raises(SettingsError, match=next(iter(env)).split("_FILE")[0]):
        load_settings(env)


def test_every_variable_is_documented() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "webhook" / "README.md").read_text()
    assert [v for v in ENV_VARS if v not in readme] == []


def test_api_key_never_in_repr() -> None:
    assert "sk-secret" not in repr(load_settings({"OPENAI_API_KEY": "sk-secret"}))


def test_main_rejects_bad_configuration(monkeypatch, capsys) -> None:
    from webhook.__main__ import main

    monkeypatch.setattr("os.environ", {"SEMAFF_PORT": "not-a-port"})
    assert main() == 2
    assert "SEMAFF_PORT" in capsys.readouterr().err
