"""The camera calibration the companion uses: kept in its data folder, remade from the tablet.

`CalibratedReader` holds the dice reader's calibration (vision.Config) for the
session: `read(frame)` reads with it, `calibrate(frame)` measures a new one
from a still frame of the tray (vision.calibrate), saves it and uses it from
then on, `status()` says what is in force. The file lives in the data folder
(the package folder may be read-only on the Pi); without one the reader works
uncalibrated.
"""

import threading
from pathlib import Path


TAUGHT_NAME = "taught.npz"   # beside the calibration: what `companion dice teach` learned
TAUGHT_NETS = "taught-nets"  # beside it too: the nets `companion dice nets` installed (full teaching)


def install_nets(calibration_dir: Path, folder: Path | None) -> str:
    """Install the taught nets of `folder` as calibration_dir/TAUGHT_NETS (None: remove them, back to
    the shipped nets); what was done, in a line. ValueError, nothing changed, when `folder` does not
    hold sound nets. The folder is swapped whole: a power cut part-way leaves the old nets, the new
    ones or the shipped ones in use, never a half-copied folder."""
    import shutil
    import tempfile

    from vision import nets

    target = Path(calibration_dir) / TAUGHT_NETS
    if folder is None:
        if not target.exists():
            return "no taught nets installed: the shipped nets are in use"
        shutil.rmtree(target)
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
                shutil.copyfile(folder / name, tmp / name)
        nets.check(str(tmp))   # as copied
        old = target.with_name(TAUGHT_NETS + ".old")
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
        tmp.rename(target)
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
        try:
            self.config = vision.load_calibration(str(self.path))
            self.problem = None
        except vision.ReadError as exc:  # a damaged file: read uncalibrated, and say why
            self.config = vision.Config()
            self.problem = str(exc)
        self.config = self._taught(self.config)

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
                self.problem = f"{exc}: the shipped nets are used"
        taught = self.path.parent / TAUGHT_NAME
        if not taught.is_file():
            return config
        try:
            state = teach.load(str(taught))
        except ValueError as exc:
            self.problem = str(exc)
            return config
        if state.net != teach.net_id(config.models):    # its examples are another classifier's features
            self.problem = f"{taught} was taught with other nets than these: teach again (companion dice teach)"
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
            self.config, self.problem = self._taught(config), None
        return {**self.status(), "found": describe(config, info), "read": info["read"], "dice": info["dice"]}

    def status(self) -> dict:
        from vision.settings import MODELS

        config = self.config
        return {"calibrated": config.die_px is not None, "die_px": config.die_px, "taught": config.taught is not None,
                "taught_nets": config.models != MODELS,
                "tray": list(config.roi) if config.roi else None, "file": str(self.path), "problem": self.problem}
