"""The table loop: the button panel and the camera on the Pi joined to the session.

The panel's callbacks only queue events (hardware/panel.py); this loop hands
each one to the session, which applies one input at a time, and sets the
lights. With a live camera, a second thread watches each frame as it comes
while the game waits for a roll: once the dice have moved and are still again
the settle watcher (vision.SettleWatcher) has them read once and proposed;
CONFIRM or the tablet accepts them. The watcher only tells when: it reads with
the dice desk's `read_frame`, the desk's reader on the desk's one reader
thread, where READ reads too, so a settled roll and a READ press are never read
at the same time nor by two readers. A single die read surely (an effect's
roll) is entered at once (Session.enter_settled): the table's next tap goes on
from it, UNDO takes it back. A die left lying from the roll before is not
proposed again: the dice must move.
"""

import logging
import threading
from typing import Callable


log = logging.getLogger(__name__)


class TableLoop:
    def __init__(self, session, panel, camera=None, pairing=None,
                 watcher_factory: Callable[[Callable], object] | None = None, announce: Callable[[str], None] | None = None):
        self.session = session
        self.panel = panel
        self.camera = camera
        self.pairing = pairing
        # watcher_factory(read) -> a settle watcher reading still frames with `read` (frame, config)
        self.watcher_factory = watcher_factory
        self.announce = announce or (lambda text: log.info(text))
        self._watcher = None
        self._watching_at = None  # the session's game_changes the watcher is watching for
        self._moved = False       # the dice moved since the watcher began: a roll, not dice left lying
        self._last_seq = -1
        self._lit_at = None  # the session's change_id the lights were last set for
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> "TableLoop":
        self._threads = [threading.Thread(target=self.run, name="table-loop", daemon=True),
                         threading.Thread(target=self.run_camera, name="roll-watch", daemon=True)]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)

    def run(self) -> None:
        while not self._stop.is_set():
            item = self.panel.get(timeout=0.2)
            if item is not None:
                self.handle(getattr(item.event, "value", item.event))
            self.update_lights()

    def run_camera(self) -> None:
        """Each frame as soon as the camera has it (no polling: still dice are proposed at once)."""
        next_frame = getattr(self.camera, "next_frame", None)
        seen = -1
        while not self._stop.is_set():
            if next_frame is None or self.watcher_factory is None:
                self._stop.wait(0.2)
                continue
            frame = next_frame(seen, 0.5)
            if frame is None:
                continue
            seen = frame.seq
            try:
                self.watch_camera()
            except Exception:  # a bad frame must never stop the loop of play
                log.exception("auto-reading failed; READ still works")

    def handle(self, event: str) -> None:
        """One panel event: CONFIRM, UNDO, REDO (UNDO held), READ, or PAIR (CONFIRM held)."""
        if event == "pair":
            if self.pairing is not None:
                code = self.pairing.open_window()
                self.announce(f"pairing code: {code} (type it on the tablet)")
                self.session.notify()
            return
        if event == "read":
            self.panel.set_lights("reading")
        self.session.press(event)
        if getattr(self.session, "last_refusal", None):
            self.panel.beep(2)

    def watch_camera(self) -> None:
        """With a live camera and a roll awaited: one reading per roll, once the dice are still."""
        cam, desk = self.camera, self.session.desk
        if (cam is None or self.watcher_factory is None or desk.reader is None
                or not getattr(cam.camera, "live", False)):
            return
        with self.session.lock:
            at, wanted = self.session.game_changes, desk.dice_wanted()
        if wanted is None or not cam.status.ok:
            self._watcher = None
            return
        if self._watcher is None or self._watching_at != at:
            self._watcher = self.watcher_factory(desk.read_frame)
            self._watching_at = at
            self._moved = False
        frame = cam.latest()
        if frame is None or frame.seq == self._last_seq:
            return
        self._last_seq = frame.seq
        status = self._watcher.feed(frame.image, t=getattr(frame, "time", None))   # stillness timed by the camera's clock
        self._moved = self._moved or status.state == "rolling"
        if status.state == "settled" and status.new and status.reading is not None and self._moved:
            desk.read_dice(frame=frame.image.copy(), reading=status.reading, at=self._watching_at)
            enter = getattr(self.session, "enter_settled", None)
            if enter is not None:
                enter(self._watching_at)      # a single die read surely: entered, no CONFIRM

    def _awaited(self) -> tuple[int, str | None]:
        """The session's game_changes, and the kind of input the game awaits (None: no game)."""
        with self.session.lock:
            game = self.session.game
            return self.session.game_changes, game.expected()["kind"] if game else None

    def update_lights(self) -> None:
        if self._lit_at == self.session.change_id:
            return  # nothing changed since: no need to work out the prompt again
        self._lit_at = self.session.change_id
        _, kind = self._awaited()
        proposal = self.session.proposal()
        needs_tablet = (kind not in (None, "over") and (proposal is None or proposal.get("problem"))) \
            or bool(getattr(self.session, "last_refusal", None))
        self.panel.set_lights("attention" if needs_tablet else "ready")
