"""`companion serve`: the whole companion in one process.

Builds the pieces at the edge around the session and serves the page with
waitress (never Flask's debug server: one process owns the camera and the
GPIO lines). On a machine with no camera and no GPIO this is the embedded
default: the demo pictures, mock pins, a local SQLite file, the page on
localhost. The game last on the table is resumed where it was (a finished one shows its scoring).
"""

import logging
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from . import paths
from .config import Config
from .table_loop import TableLoop
from .game_profiles import GameProfiles
from .roll_keeper import RollKeeper, rolls_dir
from .session import Session
from .game import ReplayError
from .record import RecordError
from .store import GameStore, StoreError

log = logging.getLogger("companion")

@dataclass
class Companion:
    """Everything `serve` runs, built and ready (tests build one with mock pins and no server)."""
    app: object
    session: Session
    loop: TableLoop
    camera: object
    panel: object
    cue: "RollCue | None" = None

    def close(self) -> None:
        if self.cue is not None:
            self.cue.stop()
        self.loop.stop()
        self.panel.close()
        self.camera.stop()
        self.session.close()


class RollCue:
    """Tells the camera what the game waits for, on every change of the session: how many dice
    (session.desk.dice_wanted(), None: no roll) and which roll (the session's game_changes). A
    camera over a tray ignores it; the demo camera rolls that many dice by itself (moving frames,
    then still), so the settle watcher proposes them as it would a real roll (hardware/demo.py).
    The session itself tells the camera nothing."""

    def __init__(self, session, camera):
        self.session, self.camera = session, camera
        self._told: tuple | None = None
        self._telling = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "RollCue":
        self._thread = threading.Thread(target=self.run, name="roll-cue", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self) -> None:
        while not self._stop.is_set():
            seen = self.session.change_id
            try:
                self.tell()
            except Exception:      # the camera's trouble must never stop the cue
                log.exception("telling the camera the roll awaited failed")
            self.session.wait_for_change(seen, 0.5)

    def tell(self) -> None:
        """From the cue's thread on each change, and from the reader's before READ's picture."""
        with self._telling:      # read and told as one: a slower caller never tells an older roll
            with self.session.lock:
                count = self.session.desk.dice_wanted()
                roll = self.session.game_changes if count is not None else None
            if (count, roll) != self._told:
                self._told = (count, roll)
                self.camera.expect_dice(count, roll)


def _png(image) -> bytes:
    import cv2
    ok, data = cv2.imencode(".png", image)
    return data.tobytes() if ok else b""


def limit_malloc_arenas(arenas: int = 2) -> None:
    """glibc gives every thread its own malloc arena; with 16 server threads and image
    buffers that is hundreds of MB on a 2 GB Pi. Two arenas are plenty here."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL("libc.so.6").mallopt(-8, arenas)  # M_ARENA_MAX
        except (OSError, AttributeError):
            pass  # not glibc (musl has no arenas): nothing to limit


def build(config: Config, announce=print) -> Companion:
    import vision
    import web
    from calibration.camera import CalibratedReader
    from hardware import open_camera, open_panel
    from hardware.demo import DEMO_FOLDER

    data_dir = paths.ensure_dir(config.data_dir)
    profiles = GameProfiles.of(config)
    for problem in profiles.check():      # a damaged saved profile: said with its path, the default used
        announce(f"warning: {problem}")
    store = GameStore(paths.database_path(data_dir))
    if store.problem is not None:     # the page says it too, until it is mended
        announce(f"warning: {store.problem}")
    camera = open_camera(config.camera, demo_folder=DEMO_FOLDER)
    panel = open_panel(config.gpio)
    reader = CalibratedReader(paths.calibration_dir(data_dir) / "camera.toml")
    keeper = RollKeeper(rolls_dir(data_dir), config.dice.keep_rolls_mb * 1_000_000) if config.dice.keep_rolls else None
    if keeper is not None:
        keeper.sweep()    # what a roll cut short by a full card left (roll-*.jpg.tmp)
    session = Session(store, camera=camera, panel=panel, reader=reader.read,
                      annotate=vision.annotate, encode_png=_png, calibration=reader,
                      roll_keeper=keeper, profiles=profiles, enter_settled_die=config.dice.enter_settled_die)
    camera.add_listener(lambda status: session.notify())
    try:
        if session.resume_last():
            announce(f"resumed game {session.game_id} at input {session.game.version}")
    except (ReplayError, RecordError, StoreError) as exc:   # RecordError: a row of the file that is no record's
        # Start anyway: the games stay in the file, and another can be begun or resumed.
        announce(f"could not resume the last game ({exc}); starting with no game")
    app = web.create_app({
        "ALLOWED_HOSTS": list(config.web.allowed_hosts),
        "PAIRING_CODE": config.web.pairing_code or None,
        "LANGUAGE": config.game.language,
        "INSTANCE_PATH": str(paths.ensure_dir(data_dir / "instance")),
        "PUBLIC_URLS": addresses(config.server.host, config.server.port),
        "SSE_MAX_STREAMS": config.web.live_streams,
        "PUBLIC_HISTORY": config.web.public_history,
        "PUBLIC_CAMERA": config.web.public_camera,
    }, session=session)
    loop = TableLoop(session, panel, camera, pairing=app.extensions["pairing"],
                     watcher_factory=lambda read: vision.SettleWatcher(reader=read),  # reads as READ does
                     announce=announce).start()
    cue = RollCue(session, camera).start()      # the demo camera rolls by itself when a roll is awaited
    session.desk.before_capture.append(cue.tell)   # ... and READ never outruns it
    return Companion(app, session, loop, camera, panel, cue)


def addresses(host: str, port: int) -> list[str]:
    """The URLs a tablet can open: the machine's own IPv4 addresses when serving on all of them."""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    found = set()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            found.add(s.getsockname()[0])
    except OSError:
        pass
    try:
        found.update(a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    except OSError:
        pass
    found.discard("127.0.1.1")
    return [f"http://{ip}:{port}/" for ip in sorted(found)] or [f"http://127.0.0.1:{port}/"]


def run(config: Config) -> int:
    from web.server import make_server

    host, port = config.server.host, config.server.port
    check_port(host, port)  # before the camera and the pins are opened
    limit_malloc_arenas()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    companion = build(config)
    try:
        # each live page holds a thread: requests keep `threads` - 8 of their own whatever the limit
        threads = max(config.server.threads, config.server.threads - 8 + config.web.live_streams)
        server = make_server(companion.app, host, port, threads=threads)
    except OSError as exc:
        companion.close()
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    urls = addresses(config.server.host, server.effective_port)
    print(f"Atlandice companion {__import__('companion').__version__}: open {' or '.join(urls)}", flush=True)
    _print_qr(urls[0])
    if companion.panel.is_mock:
        print("no GPIO here: the panel's buttons are on the page (and keys C, U, R, D)", flush=True)
    print(f"camera: {companion.camera.status}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        companion.close()
    return 0


def check_port(host: str, port: int) -> None:
    """Fail early, in one line, when the port is taken or the address is not this machine's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _print_qr(url: str) -> None:
    if not sys.stdout.isatty():
        return
    try:
        import segno
        segno.make(url, error="m").terminal(compact=True)
    except Exception:  # the QR code is a convenience; the address is printed anyway
        pass
