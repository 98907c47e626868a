"""The companion's configuration: one TOML file, defaults that work, env overrides.

    config = load_config()          # file at $ATLANDICE_CONFIG or the user's config folder
    config.server.port              # 8000
    config.gpio.confirm             # 17 (BCM numbering)

Precedence, lowest first: the defaults below, the TOML file, then environment
variables named ATLANDICE_<SECTION>_<KEY> (ATLANDICE_DATA_DIR for the top-level
`data_dir`). Every key is documented in companion/default_config.toml and
docs/configuration.md; a test keeps the three in step.

Mistakes (a wrong type, an unknown key, a value out of range) raise ConfigError
whose message is one line naming the key and where it came from.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import paths

ENV_PREFIX = "ATLANDICE_"


class ConfigError(ValueError):
    """A configuration mistake; str(error) is one line naming the key and its origin."""


def _opt(default: Any, **rules: Any) -> Any:
    """A dataclass field with validation rules (choices, min, max) in its metadata."""
    return field(default=default, metadata=rules)


@dataclass(frozen=True)
class ServerConfig:
    # 127.0.0.1 keeps a laptop's demo private; on the Pi use 0.0.0.0 so the tablet reaches it.
    host: str = "127.0.0.1"
    port: int = _opt(8000, min=1, max=65535)
    threads: int = _opt(16, min=1, max=256)


@dataclass(frozen=True)
class CameraConfig:
    # auto: the Pi camera when picamera2 is importable, otherwise the demo images.
    source: str = _opt("auto", choices=("auto", "picamera", "opencv", "folder", "demo"))
    device: int | str = 0  # OpenCV device index or path (source = "opencv")
    folder: Path | None = None  # images to read in turn (source = "folder")
    width: int = _opt(1280, min=1, max=10000)
    height: int = _opt(720, min=1, max=10000)


@dataclass(frozen=True)
class GpioConfig:
    # auto: lgpio on a Raspberry Pi, otherwise gpiozero's mock pins.
    pin_factory: str = _opt("auto", choices=("auto", "mock", "lgpio", "rpigpio"))
    # BCM pin numbers; see docs/wiring.md.
    confirm: int = _opt(17, min=1, max=27)
    undo: int = _opt(27, min=1, max=27)
    read: int = _opt(22, min=1, max=27)
    led_ready: int = _opt(5, min=1, max=27)
    led_reading: int = _opt(6, min=1, max=27)
    led_attention: int = _opt(13, min=1, max=27)
    buzzer: int = _opt(19, min=0, max=27)  # 0 (or "") = no buzzer fitted
    hold_seconds: float = _opt(1.0, min=0.1, max=10.0)
    debounce_ms: int = _opt(50, min=0, max=1000)


@dataclass(frozen=True)
class GameConfig:
    language: str = _opt("en", choices=("en", "pt-BR"))
    board_profile: Path | None = None  # the first game's profile file; None = the data folder's


@dataclass(frozen=True)
class WebConfig:
    pairing_code: str = ""  # empty = generated, shown after holding CONFIRM on the panel
    allowed_hosts: tuple[str, ...] = ()  # empty = localhost and this machine's addresses
    # Live pages at once (one server thread each; the server gets this many threads more).
    live_streams: int = _opt(12, min=1, max=64)
    # Unpaired clients may read the history and its exports / see the camera's picture.
    public_history: bool = False
    public_camera: bool = False


@dataclass(frozen=True)
class DiceConfig:
    # Confirmed camera rolls (frame + values) kept in the data folder to teach the reader.
    keep_rolls: bool = True
    keep_rolls_mb: int = _opt(200, min=1, max=100000)  # the oldest are dropped beyond this
    # A single die (an effect's roll) the settle watcher read surely is entered without CONFIRM.
    enter_settled_die: bool = True


@dataclass(frozen=True)
class Config:
    data_dir: Path = field(default_factory=paths.default_data_dir)
    server: ServerConfig = field(default_factory=ServerConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    game: GameConfig = field(default_factory=GameConfig)
    web: WebConfig = field(default_factory=WebConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)


SECTIONS: dict[str, type] = {
    "server": ServerConfig,
    "camera": CameraConfig,
    "gpio": GpioConfig,
    "game": GameConfig,
    "web": WebConfig,
    "dice": DiceConfig,
}
TOP_LEVEL_KEYS = ("data_dir",)
_GPIO_PINS = ("confirm", "undo", "read", "led_ready", "led_reading", "led_attention", "buzzer")


def env_name(section: str, key: str) -> str:
    """The environment variable that overrides a key ("" section = top level)."""
    return f"{ENV_PREFIX}{section}_{key}".upper() if section else f"{ENV_PREFIX}{key}".upper()


def load_config(path: Path | str | None = None, env: Mapping[str, str] = os.environ) -> Config:
    """Read the effective configuration.

    `path` None means $ATLANDICE_CONFIG, else <user config folder>/config.toml;
    a missing default file gives the defaults, but a file asked for by name
    (argument or $ATLANDICE_CONFIG) must exist.
    """
    explicit = path is not None or bool(env.get(paths.CONFIG_ENV))
    file = Path(path).expanduser() if path is not None else paths.default_config_path(env)
    values: dict[tuple[str, str], Any] = {}
    origins: dict[tuple[str, str], str] = {}

    if file.is_file():
        _read_file(file, values, origins)
    elif explicit:
        raise ConfigError(f"{file}: config file not found")
    _read_env(env, values, origins)
    return _build(values, origins)


def _read_file(file: Path, values: dict, origins: dict) -> None:
    try:
        with file.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{file}: invalid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"{file}: cannot read: {error.strerror}") from None

    base = file.parent  # relative paths in a file are relative to that file
    for name, value in data.items():
        if name in TOP_LEVEL_KEYS:
            _set(values, origins, "", name, value, f"{file}: {name}", base, from_env=False)
        elif name in SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"{file}: [{name}] must be a table of keys, not a value")
            known = _field_names(SECTIONS[name])
            for key, item in value.items():
                where = f"{file}: [{name}] {key}"
                if key not in known:
                    raise ConfigError(f"{where}: unknown key (known: {', '.join(known)})")
                _set(values, origins, name, key, item, where, base, from_env=False)
        else:
            known = ", ".join([*TOP_LEVEL_KEYS, *(f"[{s}]" for s in SECTIONS)])
            raise ConfigError(f"{file}: unknown key or section {name!r} (known: {known})")


def _read_env(env: Mapping[str, str], values: dict, origins: dict) -> None:
    names = {env_name("", key): ("", key) for key in TOP_LEVEL_KEYS}
    for section, cls in SECTIONS.items():
        names.update({env_name(section, key): (section, key) for key in _field_names(cls)})
    for name in sorted(env):
        if not name.startswith(ENV_PREFIX):
            continue
        if name in names:
            section, key = names[name]
            _set(values, origins, section, key, env[name], name, Path.cwd(), from_env=True)
        elif any(name.startswith(env_name(section, "")) for section in SECTIONS):
            # A typo such as ATLANDICE_SERVER_PROT would otherwise be silently ignored.
            raise ConfigError(f"{name}: no such configuration key")
        # Other ATLANDICE_* variables (ATLANDICE_CONFIG, tools' own) are not keys.


def _set(values: dict, origins: dict, section: str, key: str, raw: Any,
         where: str, base: Path, from_env: bool) -> None:
    cls = SECTIONS[section] if section else Config
    spec = {f.name: f for f in dataclasses.fields(cls)}[key]
    kind = typing.get_type_hints(cls)[key]
    value = _coerce(raw, kind, where, base, from_env)
    _check_rules(value, spec.metadata, where)
    values[(section, key)] = value
    origins[(section, key)] = where


def _coerce(raw: Any, kind: Any, where: str, base: Path, from_env: bool) -> Any:
    """Turn a TOML value (or an env string) into the field's type, or say why not."""
    def fail(expected: str) -> ConfigError:
        return ConfigError(f"{where}: expected {expected}, got {json.dumps(raw, default=str)}")

    if kind is bool:
        if from_env:
            words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
            if raw.strip().lower() not in words:
                raise fail("true or false")
            return words[raw.strip().lower()]
        if not isinstance(raw, bool):
            raise fail("true or false")
        return raw
    if kind is str:
        if not isinstance(raw, str):
            raise fail("a string")
        return raw
    if kind is int:
        if raw == "":  # the documented "none" for an optional pin (buzzer)
            return 0
        if from_env:
            try:
                return int(raw)
            except ValueError:
                raise fail("an integer") from None
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise fail("an integer")
        return raw
    if kind is float:
        if from_env:
            try:
                return float(raw)
            except ValueError:
                raise fail("a number") from None
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise fail("a number")
        return float(raw)
    if kind == int | str:
        if from_env and raw.strip().isdecimal():
            return int(raw)
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise fail("an integer or a string")
        return raw
    if kind in (Path, Path | None):
        if not isinstance(raw, str):
            raise fail("a path (a string)")
        if raw == "":
            if kind is Path:
                raise fail("a path")
            return None
        resolved = Path(raw).expanduser()
        return resolved if resolved.is_absolute() else base / resolved
    if kind == tuple[str, ...]:
        if from_env:  # comma-separated in the environment
            return tuple(item.strip() for item in raw.split(",") if item.strip())
        if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
            raise fail("a list of strings")
        return tuple(raw)
    raise TypeError(f"config field type {kind!r} has no parser")  # a bug here, not the user's


def _check_rules(value: Any, rules: Mapping[str, Any], where: str) -> None:
    if "choices" in rules and value not in rules["choices"]:
        options = ", ".join(json.dumps(c) for c in rules["choices"])
        raise ConfigError(f"{where}: {json.dumps(value)} is not one of {options}")
    low, high = rules.get("min"), rules.get("max")
    if low is not None and high is not None and not low <= value <= high:
        raise ConfigError(f"{where}: {value} is out of range ({low} to {high})")


def _build(values: dict, origins: dict) -> Config:
    sections = {}
    for section, cls in SECTIONS.items():
        kwargs = {key: value for (sec, key), value in values.items() if sec == section}
        sections[section] = cls(**kwargs)
    top = {key: value for (sec, key), value in values.items() if sec == ""}
    config = Config(**top, **sections)

    # Two functions on one GPIO pin would make the panel misbehave in confusing ways.
    used: dict[int, str] = {}
    for key in _GPIO_PINS:
        pin = getattr(config.gpio, key)
        if pin == 0:
            continue
        if pin in used:
            where = origins.get(("gpio", key)) or origins.get(("gpio", used[pin])) or "defaults"
            raise ConfigError(f"{where}: GPIO {pin} is used by both gpio.{used[pin]} and gpio.{key}")
        used[pin] = key
    return config


def _field_names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


def to_toml(config: Config) -> str:
    """The configuration as a TOML document that load_config reads back unchanged."""
    lines = [f"data_dir = {_toml_value(config.data_dir)}"]
    for section in SECTIONS:
        lines += ["", f"[{section}]"]
        part = getattr(config, section)
        for key in _field_names(type(part)):
            lines.append(f"{key} = {_toml_value(getattr(part, key))}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    # JSON's string escapes are a subset of TOML basic strings'.
    return json.dumps(str(value), ensure_ascii=False)
