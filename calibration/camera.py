"""The camera calibration the companion uses: kept in its data folder, remade from the tablet.

`CalibratedReader` holds the dice reader's calibration (vision.Config) for the
session: `read(frame)` reads with it, `calibrate(frame)` measures a new one
from a still frame of the tray (vision.calibrate), saves it and uses it from
then on, `status()` says what is in force. The file lives in the data folder
(the package folder may be read-only on the Pi); without one the reader works
uncalibrated.
"""

import os
import threading
from dataclasses import replace
from pathlib import Path


TAUGHT_NAME = "taught.npz"   # beside the calibration: what `companion dice teach` learned
TAUGHT_NETS = "taught-nets"  # beside it too: the nets `companion dice nets` installed (full teaching)


def _synced_copy(src: Path, dst: Path, limit: int) -> None:
    """Copy `src` to `dst`, synced; ValueError as soon as more than `limit` bytes came (a file
    that grew after it was checked is not copied whole)."""
    copied = 0
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while chunk := fin.read(1 << 20):
            copied += len(chunk)
            if copied > limit:
                raise ValueError(f"{src} is larger than {limit / 1e6:.0f} MB: refused")
            fout.write(chunk)
        fout.flush()
        os.fsync(fout.fileno())


def _sync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def recover_nets(calibration_dir: Path) -> None:
    """Finish what an install cut short: the old nets back in place when the new ones never got
    there, and no working folder left."""
    import shutil

    target = Path(calibration_dir) / TAUGHT_NETS
    old = target.with_name(TAUGHT_NETS + ".old")
    if old.is_dir():
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.rename(target)
    for stale in Path(calibration_dir).glob(".nets-*"):
        shutil.rmtree(stale, ignore_errors=True)


def install_nets(calibration_dir: Path, folder: Path | None) -> str:
    """Install the taught nets of `folder` as calibration_dir/TAUGHT_NETS (None: remove them, back to
    the shipped nets); what was done, in a line. ValueError, nothing changed, when `folder` does not
    hold sound nets. The folder is swapped whole, its files on disk before it is: a power cut
    part-way leaves the old nets or the new ones (`recover_nets`), never a half-copied folder."""
    import shutil
    import tempfile

    from vision import nets

    calibration_dir = Path(calibration_dir)
    target = calibration_dir / TAUGHT_NETS
    old = target.with_name(TAUGHT_NETS + ".old")
    if calibration_dir.is_dir():
        recover_nets(calibration_dir)
    if folder is None:
        if not target.exists():
            return "no taught nets installed: the shipped nets are in use"
        target.rename(old)                   # out of use at once; deleting it may then be cut short
        shutil.rmtree(old)
        return f"removed {target}: the shipped nets are used from the companion's next start"
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"no such folder: {folder}")
    nets.check(str(folder))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".nets-", dir=target.parent))
    try:
        for name in (*nets.NETS, "taught.json"):
            if (folder / name).is_file():
                _synced_copy(folder / name, tmp / name, nets.MAX_NET_BYTES)
        _sync_dir(tmp)
        nets.check(str(tmp))   # as copied
        if target.exists():
            target.rename(old)
        tmp.rename(target)
        _sync_dir(target.parent)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return f"installed the nets of {folder} in {target}: used from the companion's next start"


class CalibratedReader:
    def __init__(self, path: Path):
        import vision
        self.path = Path(path)
        self._lock = threading.Lock()
        self.problem = None
        try:
            self.config = vision.load_calibration(str(self.path))
        except vision.ReadError as exc:  # a damaged file: read uncalibrated, and say why
            self.config = vision.Config()
            self.problem = str(exc)
        if self.path.parent.is_dir():
            recover_nets(self.path.parent)
        self.config = self._taught(self.config)

    def _say(self, problem: str) -> None:
        self.problem = f"{self.problem}; {problem}" if self.problem else problem

    def _taught(self, config):
        """`config` with the owner's taught nets and taught state where there are sound ones; else
        as shipped (a damaged one is named in `problem`)."""
        from dataclasses import replace

        from vision import nets, teach
        folder = self.path.parent / TAUGHT_NETS
        if folder.is_dir():
            try:
                nets.check(str(folder))
                config = replace(config, models=str(folder))
            except ValueError as exc:
                self._say(f"{exc}: the shipped nets are used until sound ones are installed (companion dice nets)")
        taught = self.path.parent / TAUGHT_NAME
        if not taught.is_file():
            return config
        try:
            state = teach.load(str(taught))
        except ValueError as exc:
            self._say(str(exc))
            return config
        if state.net != teach.net_id(config.models):    # its examples are another classifier's features
            if folder.is_dir() and config.models != str(folder):
                return config                  # the taught nets were refused: that is what to mend
            self._say(f"{taught} was taught with other nets than these: teach again (companion dice teach)")
            return config
        return replace(config, taught=str(taught))

    def read(self, frame):
        import vision
        return vision.read(frame, self.config)

    def calibrate(self, frame) -> dict:
        """Measure, save and use a calibration; vision.ReadError when no die could be read."""
        from vision.calibrate import calibrate, describe, save_calibration
        # The die size only: a tray area taken from one picture would hide dice that later
        # land outside it (the command line's --roi is for a tray with dice spread all over).
        config, info = calibrate(frame, use_roi=False)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        save_calibration(config, info, str(tmp))
        tmp.replace(self.path)  # a power cut leaves the old file or the new one, never half
        with self._lock:
            self.problem = None
            # the empty tray saved before stays in use: it is the tray's, not the dice's size
            self.config = self._taught(replace(config, empty_tray=self.config.empty_tray))
        return {**self.status(), "found": describe(config, info), "read": info["read"], "dice": info["dice"]}

    def save_empty_tray(self, frame) -> dict:
        """Save `frame` as the empty tray (vision.calibrate.save_empty_tray) and read with it from
        now on: what lies there the same is never valued. vision.ReadError for a frame that is
        not one; OSError when it cannot be written."""
        from vision.calibrate import save_empty_tray
        self.path.parent.mkdir(parents=True, exist_ok=True)
        image, info = save_empty_tray(frame, str(self.path))
        with self._lock:
            self.config = replace(self.config, empty_tray=image)
        return {**self.status(), **info}

    def dice_seen(self, frame) -> int:
        """How many valued dice the reader sees on `frame`, read as in play but without the empty
        tray saved before (which would hide dice lying where its printing is)."""
        import vision
        return sum(v is not None for v in vision.read(frame, replace(self.config, empty_tray=None)).values)

    def status(self) -> dict:
        from vision.settings import MODELS

        config = self.config
        return {"calibrated": config.die_px is not None, "die_px": config.die_px, "taught": config.taught is not None,
                "empty_tray": config.empty_tray is not None,
                "taught_nets": config.models != MODELS,
                "tray": list(config.roi) if config.roi else None, "file": str(self.path), "problem": self.problem}
