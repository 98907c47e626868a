"""The `companion` command: help, version, one-line errors, and its hooks."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

import companion
from companion import cli
from companion.config import Config, load_config

SUBCOMMANDS = [["serve"], ["replay"], ["config"], ["config", "show"], ["config", "path"]]


def run(*args: str, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it, in its own process (`python -m companion`)."""
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})}, cwd=cwd)


def assert_one_line_error(result: subprocess.CompletedProcess[str], status: int) -> str:
    assert result.returncode == status, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("companion: error: ")
    assert "Traceback" not in result.stderr
    return lines[0]


def test_version_is_the_package_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"companion {companion.__version__}"
    assert importlib.metadata.version("atlandice-companion") == companion.__version__


def test_help_lists_every_subcommand() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: companion")
    for name in ("serve", "replay", "config"):
        assert f"    {name} " in result.stdout  # with its one-line summary


@pytest.mark.parametrize("words", SUBCOMMANDS, ids=" ".join)
def test_each_subcommand_explains_itself(words: list[str]) -> None:
    result = run(*words, "--help")
    assert result.returncode == 0, result.stderr
    usage, _, description = result.stdout.partition("\n\n")
    assert usage.startswith(f"usage: companion {' '.join(words)}")
    assert len(description.split()) >= 8  # a sentence, not just a list of options


@pytest.mark.parametrize("args, needle", [
    (["dance"], "invalid choice: 'dance'"),
    ([], "required: COMMAND"),
    (["config"], "required: ACTION"),
    (["serve", "--port", "http"], "not a port number"),
    (["replay"], "required: FILE"),
])
def test_usage_errors_are_one_line_with_status_2(args: list[str], needle: str) -> None:
    assert needle in assert_one_line_error(run(*args), 2)


def test_a_bad_config_file_is_one_line_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[server]\nport = "eighty"\n')
    line = assert_one_line_error(run("--config", str(bad), "config", "show"), 2)
    assert str(bad) in line and "port" in line
    line = assert_one_line_error(run("config", "show", env={"ATLANDICE_CONFIG": str(bad)}), 2)
    assert str(bad) in line and "port" in line


def test_a_bad_environment_variable_is_one_line() -> None:
    result = run("config", "show", env={"ATLANDICE_GPIO_CONFIRM": "seventeen"})
    assert "ATLANDICE_GPIO_CONFIRM" in assert_one_line_error(result, 2)


def test_a_missing_record_is_one_line(tmp_path: Path) -> None:
    line = assert_one_line_error(run("replay", str(tmp_path / "nope.jsonl")), 2)
    assert "nope.jsonl" in line


def test_config_show_prints_the_effective_config_as_toml(tmp_path: Path) -> None:
    result = run("config", "show", env={"ATLANDICE_SERVER_PORT": "8181"})
    assert result.returncode == 0, result.stderr
    assert tomllib.loads(result.stdout)["server"]["port"] == 8181
    saved = tmp_path / "shown.toml"
    saved.write_text(result.stdout)
    assert load_config(saved, env={}).server.port == 8181


def test_config_path_names_the_file_and_the_data_folder(isolated_home: Path) -> None:
    result = run("config", "path")
    assert result.returncode == 0, result.stderr
    assert str(isolated_home / "config" / "atlandice-companion" / "config.toml") in result.stdout
    assert "not found" in result.stdout
    assert f"data folder: {isolated_home / 'data' / 'atlandice-companion'}" in result.stdout


# The hooks are replaced by fakes in-process, so these tests never start a server.

def fake_module(monkeypatch: pytest.MonkeyPatch, name: str, **functions: object) -> None:
    module = types.ModuleType(name)
    module.__dict__.update(functions)
    monkeypatch.setitem(sys.modules, name, module)


def test_serve_hands_the_config_with_its_options_to_the_app(
        monkeypatch: pytest.MonkeyPatch) -> None:
    received: list[Config] = []
    fake_module(monkeypatch, "companion.app", run=lambda config: received.append(config))
    assert cli.main(["serve", "--port", "8765", "--host", "0.0.0.0"]) == 0
    (config,) = received
    assert (config.server.host, config.server.port) == ("0.0.0.0", 8765)
    assert config.gpio == load_config(env={}).gpio


def test_serve_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--port", str(port), env={"ATLANDICE_DATA_DIR": str(tmp_path)})
    message = assert_one_line_error(result, 1)
    assert f"cannot listen on 127.0.0.1:{port}" in message


def test_replay_hands_its_arguments_to_the_engine(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text("{}\n")
    received = []
    fake_module(monkeypatch, "companion.replay", main_replay=lambda args: received.append(args) or 3)
    monkeypatch.setenv("ATLANDICE_GAME_LANGUAGE", "pt-BR")
    assert cli.main(["replay", str(record), "--table"]) == 3
    (args,) = received
    assert (args.file, args.table, args.score, args.lang) == (record, True, False, "pt-BR")


@pytest.mark.parametrize("error, status, needle", [
    (ValueError("line 3: illegal input\n(pick)"), 2, "line 3: illegal input (pick)"),
    (PermissionError(13, "Permission denied", "/dev/video0"), 1, "Permission denied: /dev/video0"),
    (ModuleNotFoundError("No module named 'picamera2'", name="picamera2"), 1,
     "No module named 'picamera2' (a dependency is missing"),
    (RuntimeError("boom"), 1, "unexpected RuntimeError: boom (run again with --debug"),
])
def test_errors_from_a_subcommand_are_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        error: Exception, status: int, needle: str) -> None:
    def fail(config: Config) -> None:
        raise error
    fake_module(monkeypatch, "companion.app", run=fail)
    assert cli.main(["serve"]) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
    with pytest.raises(type(error)):
        cli.main(["serve", "--debug"])


def test_serve_with_a_damaged_games_file_says_which_and_what_to_do(tmp_path: Path) -> None:
    from companion.paths import database_path
    database_path(tmp_path).write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run("serve", "--port", str(port), env={"ATLANDICE_DATA_DIR": str(tmp_path)})
    message = assert_one_line_error(result, 1)
    assert str(database_path(tmp_path)) in message and "move it aside" in message
    assert "unexpected" not in message
