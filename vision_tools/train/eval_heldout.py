"""Held-out comparison of the classical (pip) and learned readers.

    .venv/bin/python -m vision_tools.train.eval_heldout [--split heldout|all] [--readers a,b,...]

Runs `vision_tools.bench.run` (same matching rule as `python -m vision bench`) on the
held-out photos (vision_tools.train.data.held_out) of each shared folder, for each
reader, with timing at 1280x720 on one OpenCV thread. Needs no torch.

A new camera and new dice: nets trained on one folder alone
(`train_dice --folders nell-byler`, no wide net) read the other, e.g.

    .venv/bin/python -m vision_tools.train.eval_heldout --models DIR --folders rune55-gray --split all \
        --readers learned --no-second-look
"""

from __future__ import annotations

import argparse
import os

from dataclasses import replace

from vision.frame import validate_frame
from vision.learned import read_learned
from vision.pip_reader import read_frame

from .. import bench
from .data import FOLDERS, SHARED, SPLITS, folder_list
from .options import add_reader_options, reader_settings

READERS = {
    "pips": lambda f, c: read_frame(f, replace(c, reader="pips")),
    "learned": lambda f, c: read_learned(validate_frame(f), c),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="heldout", choices=["heldout", "val", "fit", "train", "all"])
    ap.add_argument("--readers", default=",".join(READERS))
    ap.add_argument("--errors", type=int, default=0)
    add_reader_options(ap)
    ap.add_argument("--folders", type=folder_list, default=FOLDERS,
                    help=f"shared folders to read, comma-separated ({', '.join(FOLDERS)})")
    ap.add_argument("--no-second-look", action="store_true", help="the first classifier alone (no wide net)")
    a = ap.parse_args()
    settings = replace(reader_settings(a), second_look=not a.no_second_look)
    only = SPLITS[a.split]
    for folder in a.folders:
        path = os.path.join(SHARED, folder)
        for name in a.readers.split(","):
            total, buckets = bench.run(path, config=settings, reader=READERS[name], only=only)
            print(f"===== {folder} [{a.split}] reader: {name}")
            print(bench.report(path, total, buckets, show_errors=a.errors), flush=True)


if __name__ == "__main__":
    main()
