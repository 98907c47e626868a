"""The reader on the held-out photos of the folders trained on.

    .venv/bin/python -m vision_tools.train.eval_heldout [--split heldout|all] [--models DIR]

Runs `vision_tools.bench.run` (the bench's matching rule and figures) on the held-out
photos (vision_tools.train.data.held_out) of each shared folder, with timing at
1280x720 on one OpenCV thread. Needs no torch.

A new camera and new dice: nets trained on one folder alone
(`train_dice --folders nell-byler`, no wide net) read the other, e.g.

    .venv/bin/python -m vision_tools.train.eval_heldout --models DIR --folders rune55-gray --split all \
        --no-second-look
"""

from __future__ import annotations

import argparse
import os

from dataclasses import replace

from .. import bench
from .data import FOLDERS, SHARED, SPLITS, folder_list
from .options import add_reader_options, reader_settings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="heldout", choices=["heldout", "val", "fit", "train", "all"])
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
        total, buckets = bench.run(path, config=settings, only=only)
        print(f"===== {folder} [{a.split}]")
        print(bench.report(path, total, buckets, show_errors=a.errors), flush=True)


if __name__ == "__main__":
    main()
