"""The `companion` command: argument parsing and dispatch, nothing else.

The work lives elsewhere and is imported only when its subcommand runs, so
`companion --help` stays fast and works without the camera or GPIO libraries:
  serve   -> companion.app.run(config) -> int | None
  replay  -> companion.replay.main_replay(args) -> int | None
Errors reach the user as one line on stderr, never a traceback (--debug shows it).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from companion import __version__, paths
from companion.config import Config, ConfigError, load_config, to_toml

PROG = "companion"
USAGE_ERROR = 2  # bad arguments, bad config, bad input file
RUNTIME_ERROR = 1  # everything else that went wrong


class CliError(Exception):
    """An error to show as one line, with the exit status to leave with."""

    def __init__(self, message: str, status: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse prints usage plus the error; we want the error on one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="The Atlandice table companion: reads the dice in the tray, keeps the "
        "rules and the score, and shows the table on a tablet's browser.",
        epilog="examples:\n"
        "  companion serve                  start on http://localhost:8000\n"
        "  companion replay game.jsonl --table\n"
        "  companion config show            the effective configuration\n\n"
        "Configuration: docs/configuration.md (file at $ATLANDICE_CONFIG or the path\n"
        "'companion config path' prints; any key also as ATLANDICE_<SECTION>_<KEY>).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    _add_common(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    serve = _subcommand(commands, "serve", _serve,
        "start the companion (camera, button panel, web page)",
        "Start the companion: read the dice with the camera, listen to the button panel "
        "and serve the table page. With no configuration it runs on its embedded default: "
        "demo images, mock GPIO, a local SQLite database, the page on http://localhost:8000. "
        "Stop with Ctrl+C.")
    serve.add_argument("--host", help="address to listen on (config server.host; "
                       "0.0.0.0 = every network, e.g. on the Pi)")
    serve.add_argument("--port", type=_port, help="port to listen on (config server.port)")

    replay = _subcommand(commands, "replay", _replay,
        "replay a game record through the rules engine",
        "Replay a game record (a JSON Lines file: the setup on the first line, then one "
        "input per line; see docs/record-format.md) through the rules engine, checking "
        "every input. With no option it prints the state after the last input as JSON; "
        "--events prints what happened. A record without a board profile is replayed "
        "with the installed one (the page's), and stderr says so.")
    replay.add_argument("file", type=Path, metavar="FILE", help="the game record (.jsonl)")
    replay.add_argument("--events", action="store_true",
                        help="print every input with what it did, in words, the rulings named")
    replay.add_argument("--score", action="store_true",
                        help="print the score sheet (final, or so far), one column per player")
    replay.add_argument("--table", action="store_true",
                        help="print the table (areas, stocks, tiles) after the last input")
    replay.add_argument("--json", action="store_true",
                        help="print JSON: the state, or with --score the scoring breakdown")
    replay.add_argument("--lang", choices=("en", "pt-BR"),
                        help="language of the printed events (config game.language)")

    config = _subcommand(commands, "config", None, "show the configuration and where it lives",
        "Show the effective configuration (defaults, then the config file, then "
        "ATLANDICE_* environment variables) or where it is read from.")
    actions = config.add_subparsers(dest="action", metavar="ACTION", required=True)
    _subcommand(actions, "show", _config_show, "print the effective configuration as TOML",
        "Print the effective configuration as TOML; the output is a valid config file.")
    _subcommand(actions, "path", _config_path, "print the config file's path and the data folder",
        "Print the config file that is read (and whether it exists) and the data folder "
        "(SQLite database, calibrations).")
    dice = _subcommand(commands, "dice", None, "the confirmed rolls kept to teach the dice reader",
        "The rolls the table entered from a camera reading, kept with their frames in the data "
        "folder's rolls/ (config [dice] keep_rolls, keep_rolls_mb; docs/vision.md, 'Teaching it "
        "your dice').")
    dice_actions = dice.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = _subcommand(dice_actions, "export", _dice_export, "copy the kept rolls to a folder",
        "Copy the kept rolls to DIR, a new or empty folder, as labelled photos (images/*.jpg and "
        "labels.csv: image,value,x,y,w,h), the format `python -m vision_tools.bench` and "
        "`python -m vision_tools.train --owner` read.")
    export.add_argument("out", type=Path, metavar="DIR", help="a new or empty folder")
    _subcommand(dice_actions, "teach", _dice_teach, "teach the reader the kept rolls' dice (light)",
        "Teach the dice reader, on this computer's CPU, from the kept rolls: what it learns is saved "
        "beside the camera calibration and used from the companion's next start (vision.teach; "
        "it only values dice it would leave unsure when the rolls agree, and never changes a value).")
    nets = _subcommand(dice_actions, "nets", _dice_nets, "use nets taught on another computer, or the shipped ones",
        "Install the nets that full teaching wrote (`python -m vision_tools.train --owner EXPORT --out DIR`, "
        "on any computer with torch) in the data folder, checked first; used from the companion's next "
        "start, the shipped nets staying the fallback. --shipped removes them.")
    which = nets.add_mutually_exclusive_group(required=True)
    which.add_argument("folder", type=Path, nargs="?", metavar="DIR", help="the folder full teaching wrote")
    which.add_argument("--shipped", action="store_true", help="remove the taught nets: read with the shipped ones")
    _subcommand(dice_actions, "clear", _dice_clear, "delete the kept rolls",
        "Delete every roll kept in the data folder's rolls/.")
    return parser


def _add_common(parser: argparse.ArgumentParser, top: bool) -> None:
    # On subcommands too, so `companion serve --debug` works; SUPPRESS there
    # keeps a subcommand from resetting what was given before it.
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    parser.add_argument("--config", dest="config_file", type=Path, metavar="FILE", **default,
                        help="config file to read (default: $ATLANDICE_CONFIG or "
                        "the user's config folder)")
    parser.add_argument("--debug", action="store_true", **default,
                        help="show the full traceback of an error")


def _subcommand(commands: Any, name: str, handler: Callable[[argparse.Namespace], int] | None,
                summary: str, description: str) -> argparse.ArgumentParser:
    sub = commands.add_parser(name, help=summary, description=description)
    _add_common(sub, top=False)
    if handler is not None:
        sub.set_defaults(handler=handler)
    return sub


def _port(text: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (1 to 65535): {text!r}")
    return int(text)


def _config(args: argparse.Namespace) -> Config:
    return load_config(args.config_file)


def _hook(module: str, name: str, missing: str) -> Callable[..., Any]:
    """Import a subcommand's implementation only when it runs."""
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as error:
        if error.name != module:  # the module exists but something it needs is missing
            raise
        raise CliError(missing, RUNTIME_ERROR) from None


def _serve(args: argparse.Namespace) -> int:
    config = _config(args)
    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    config = dataclasses.replace(config, server=dataclasses.replace(config.server, **overrides))
    from companion.app import run
    return run(config) or 0


def _replay(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise CliError(f"no such file: {args.file}")
    config = _config(args)
    if args.lang is None:
        args.lang = config.game.language

    def installed_profile(game_id: str) -> dict:
        from companion.game_profiles import GameProfiles
        from companion.games.errors import RuleError
        try:
            return GameProfiles.of(config).get(game_id)
        except RuleError:      # an unknown game: the replay says so, on line 1
            return {}

    args.installed_profile = installed_profile
    main_replay = _hook("companion.replay", "main_replay", "replay is not built yet")
    return main_replay(args) or 0


def _config_show(args: argparse.Namespace) -> int:
    sys.stdout.write(to_toml(_config(args)))
    return 0


def _config_path(args: argparse.Namespace) -> int:
    file = args.config_file or paths.default_config_path()
    note = "" if file.is_file() else "  (not found: the defaults are used)"
    print(f"config file: {file}{note}")
    print(f"data folder: {_config(args).data_dir}")
    return 0


def _dice_export(args: argparse.Namespace) -> int:
    from companion.roll_keeper import RollKeeper, rolls_dir
    config = _config(args)
    n = RollKeeper(rolls_dir(config.data_dir), config.dice.keep_rolls_mb * 1_000_000).export(args.out)
    print(f"{n} rolls written to {args.out}")
    return 0


def _dice_teach(args: argparse.Namespace) -> int:
    import time

    from calibration.camera import TAUGHT_NAME, CalibratedReader
    from companion.roll_keeper import rolls_dir
    from vision import teach
    config = _config(args)
    rolls = rolls_dir(config.data_dir)
    if not (rolls / "labels.csv").is_file():
        raise CliError(f"no rolls kept in {rolls} yet: play with the camera first")
    calibration = CalibratedReader(paths.calibration_dir(config.data_dir) / "camera.toml").config
    start = time.perf_counter()
    taught = teach.teach(str(rolls), config=calibration)
    path = teach.save(taught, str(paths.calibration_dir(config.data_dir) / TAUGHT_NAME))
    print(f"taught in {time.perf_counter() - start:.1f} s: {taught.to_dict()}; saved {path} "
          f"(used from the companion's next start)")
    return 0


def _dice_nets(args: argparse.Namespace) -> int:
    from calibration.camera import install_nets
    config = _config(args)
    try:
        print(install_nets(paths.calibration_dir(config.data_dir), None if args.shipped else args.folder))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return 0


def _dice_clear(args: argparse.Namespace) -> int:
    from companion.roll_keeper import RollKeeper, rolls_dir
    config = _config(args)
    n = RollKeeper(rolls_dir(config.data_dir), config.dice.keep_rolls_mb * 1_000_000).clear()
    print(f"{n} kept rolls deleted from {rolls_dir(config.data_dir)}")
    return 0


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split("\n")).strip() or type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except Exception as error:
        if args.debug:
            raise
        from companion.store import StoreError   # here: the command line starts light

        if isinstance(error, CliError):
            status, message = error.status, _one_line(error)
        elif isinstance(error, (ConfigError, ValueError)):
            # Bad input: a config mistake, an unreadable record, an illegal move.
            status, message = USAGE_ERROR, _one_line(error)
        elif isinstance(error, StoreError):
            status, message = RUNTIME_ERROR, _one_line(error)
        elif isinstance(error, ImportError):
            # e.g. picamera2 on a machine that is not a Pi, or a half-done install.
            status, message = RUNTIME_ERROR, (f"{_one_line(error)} (a dependency is missing: "
                                              f"see README.md, 'Quick start' and 'On the Raspberry Pi')")
        elif isinstance(error, OSError) and error.strerror:
            where = f": {error.filename}" if error.filename else ""
            status, message = RUNTIME_ERROR, f"{error.strerror}{where}"
        else:
            status = RUNTIME_ERROR
            message = (f"unexpected {type(error).__name__}: {_one_line(error)} "
                       f"(run again with --debug for the details)")
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return status
    except KeyboardInterrupt:
        print(file=sys.stderr)  # end the line after the terminal's ^C
        return 130


if __name__ == "__main__":
    sys.exit(main())
