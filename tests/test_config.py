"""The configuration: defaults, the TOML file, environment overrides, mistakes."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from companion import paths
from companion.config import (SECTIONS, Config, ConfigError, env_name, load_config,
                              to_toml)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "companion" / "default_config.toml"


def write(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "config.toml"
    file.write_text(text, encoding="utf-8")
    return file


def every_key() -> list[tuple[str, str]]:
    keys = [("", "data_dir")]
    for section, cls in SECTIONS.items():
        keys += [(section, f.name) for f in dataclasses.fields(cls)]
    return keys


def test_defaults_are_the_embedded_demo_setup() -> None:
    config = load_config(env={})
    assert config.server.host == "127.0.0.1" and config.server.port == 8000
    assert config.server.threads == 16
    assert config.camera.source == "auto" and config.camera.folder is None
    assert (config.camera.width, config.camera.height) == (1280, 720)
    assert config.gpio.pin_factory == "auto"
    assert (config.gpio.confirm, config.gpio.undo, config.gpio.read) == (17, 27, 22)
    assert (config.gpio.led_ready, config.gpio.led_reading, config.gpio.led_attention) == (5, 6, 13)
    assert config.gpio.buzzer == 19 and config.gpio.hold_seconds == 1.0
    assert config.game.language == "en" and config.game.board_profile is None
    assert config.web.pairing_code == "" and config.web.allowed_hosts == ()


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        load_config(env={}).server.port = 1  # type: ignore[misc]


def test_file_overrides_defaults_and_keeps_the_rest(tmp_path: Path) -> None:
    file = write(tmp_path, '[server]\nhost = "0.0.0.0"\n[gpio]\nbuzzer = ""\nhold_seconds = 2\n'
                           '[web]\nallowed_hosts = ["atlandice.local"]\n')
    config = load_config(file, env={})
    assert config.server.host == "0.0.0.0" and config.server.port == 8000
    assert config.gpio.buzzer == 0 and config.gpio.hold_seconds == 2.0
    assert config.web.allowed_hosts == ("atlandice.local",)


def test_relative_paths_in_the_file_are_relative_to_it(tmp_path: Path) -> None:
    file = write(tmp_path, 'data_dir = "state"\n[camera]\nsource = "folder"\nfolder = "shots"\n'
                           '[game]\nboard_profile = "/abs/profile.json"\n')
    config = load_config(file, env={})
    assert config.data_dir == tmp_path / "state"
    assert config.camera.folder == tmp_path / "shots"
    assert config.game.board_profile == Path("/abs/profile.json")


def test_environment_wins_over_the_file(tmp_path: Path) -> None:
    file = write(tmp_path, "[server]\nport = 9000\n")
    env = {"ATLANDICE_SERVER_PORT": "8080", "ATLANDICE_GAME_LANGUAGE": "pt-BR",
           "ATLANDICE_WEB_ALLOWED_HOSTS": "a.local, b.local", "ATLANDICE_CAMERA_DEVICE": "/dev/video2",
           "ATLANDICE_GPIO_HOLD_SECONDS": "0.5", "ATLANDICE_UNRELATED": "ignored"}
    config = load_config(file, env=env)
    assert config.server.port == 8080
    assert config.game.language == "pt-BR"
    assert config.web.allowed_hosts == ("a.local", "b.local")
    assert config.camera.device == "/dev/video2"
    assert config.gpio.hold_seconds == 0.5


def test_config_file_is_found_through_the_environment(tmp_path: Path) -> None:
    file = write(tmp_path, "[server]\nport = 8123\n")
    assert load_config(env={"ATLANDICE_CONFIG": str(file)}).server.port == 8123


def test_default_file_location_is_the_user_config_folder(isolated_home: Path) -> None:
    folder = isolated_home / "config" / "atlandice-companion"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text("[server]\nport = 8456\n")
    assert paths.default_config_path({}) == folder / "config.toml"
    assert load_config(env={}).server.port == 8456


def test_a_named_config_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "missing.toml", env={})
    with pytest.raises(ConfigError, match="missing.toml"):
        load_config(env={"ATLANDICE_CONFIG": str(tmp_path / "missing.toml")})


@pytest.mark.parametrize("text, names", [
    ('[server]\nport = "eighty"\n', ["[server] port", "expected an integer", '"eighty"']),
    ("[server]\nport = true\n", ["[server] port", "expected an integer"]),
    ("[server]\nport = 70000\n", ["[server] port", "out of range"]),
    ('[camera]\nsource = "webcam"\n', ["[camera] source", '"webcam" is not one of']),
    ("[web]\nallowed_hosts = \"a\"\n", ["[web] allowed_hosts", "a list of strings"]),
    ("[gpio]\nundo = 17\n", ["[gpio] undo", "GPIO 17", "gpio.confirm"]),
    ("[server]\nprot = 80\n", ["[server] prot", "unknown key", "port"]),
    ("[srever]\nport = 80\n", ["'srever'", "unknown key or section"]),
    ("server = 3\n", ["[server] must be a table"]),
    ("[server\n", ["invalid TOML"]),
])
def test_mistakes_are_one_line_naming_the_key_and_the_file(tmp_path: Path, text: str,
                                                           names: list[str]) -> None:
    file = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(file, env={})
    message = str(caught.value)
    assert "\n" not in message
    assert str(file) in message
    for name in names:
        assert name in message


@pytest.mark.parametrize("env, names", [
    ({"ATLANDICE_SERVER_PORT": "80a"}, ["ATLANDICE_SERVER_PORT", "expected an integer"]),
    ({"ATLANDICE_GPIO_HOLD_SECONDS": "long"}, ["ATLANDICE_GPIO_HOLD_SECONDS", "a number"]),
    ({"ATLANDICE_SERVER_PROT": "80"}, ["ATLANDICE_SERVER_PROT", "no such configuration key"]),
    ({"ATLANDICE_GAME_LANGUAGE": "fr"}, ["ATLANDICE_GAME_LANGUAGE", '"fr" is not one of']),
])
def test_environment_mistakes_name_the_variable(env: dict[str, str], names: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(env=env)
    for name in names:
        assert name in str(caught.value)


def test_data_folder_follows_the_platform_and_can_move(isolated_home: Path,
                                                       tmp_path: Path) -> None:
    assert load_config(env={}).data_dir == isolated_home / "data" / "atlandice-companion"
    assert load_config(env={"ATLANDICE_DATA_DIR": str(tmp_path)}).data_dir == tmp_path
    file = write(tmp_path, 'data_dir = "~/games"\n')
    assert load_config(file, env={}).data_dir == Path.home() / "games"
    assert paths.database_path(tmp_path).parent == tmp_path
    assert paths.calibration_dir(tmp_path).parent == tmp_path


def test_show_output_reads_back_as_the_same_config(tmp_path: Path) -> None:
    env = {"ATLANDICE_WEB_ALLOWED_HOSTS": 'a.local,"quoted"', "ATLANDICE_CAMERA_FOLDER": "/x y",
           "ATLANDICE_GPIO_BUZZER": "0", "ATLANDICE_DATA_DIR": str(tmp_path / "d")}
    config = load_config(env=env)
    file = write(tmp_path, to_toml(config))
    assert load_config(file, env={}) == config


def test_the_shipped_default_file_is_the_defaults_and_names_every_key() -> None:
    assert load_config(DEFAULT_FILE, env={}) == load_config(env={})
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    for section, key in every_key():
        if section:
            assert key in data[section], f"default_config.toml lacks [{section}] {key}"
        else:
            assert f"# {key} =" in text  # data_dir: commented, its default is per platform


def test_the_reference_documents_every_key_and_variable() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for section, key in every_key():
        assert f"`{key}`" in doc, f"docs/configuration.md lacks {section}.{key}"
        assert env_name(section, key) in doc, f"docs/configuration.md lacks {env_name(section, key)}"


def test_load_config_returns_the_documented_type() -> None:
    assert isinstance(load_config(env={}), Config)
