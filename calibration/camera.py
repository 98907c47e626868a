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
        """`config` with the owner's taught state when there is a sound one; else as shipped."""
        from dataclasses import replace

        from vision import teach
        taught = self.path.parent / TAUGHT_NAME
        if not taught.is_file():
            return config
        try:
            teach.load(str(taught))
        except ValueError as exc:
            self.problem = str(exc)
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
        config = self.config
        return {"calibrated": config.die_px is not None, "die_px": config.die_px, "taught": config.taught is not None,
                "tray": list(config.roi) if config.roi else None, "file": str(self.path), "problem": self.problem}
