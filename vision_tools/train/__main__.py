"""`python -m vision_tools.train all --out DIR`: the reader's three nets trained from scratch (recipe.py);
`python -m vision_tools.train --owner EXPORT`: teach the reader's nets an owner's dice (full teaching).

Needs torch and onnx (`pip install -e '.[train]'`); any computer's CPU is enough.
The nets of the shipped recipe are trained with `python -m vision_tools.train.train_dice`
(vision_tools/train/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["all"]:
        from .recipe import main as recipe_main

        return recipe_main(argv[1:])
    ap = argparse.ArgumentParser(prog="python -m vision_tools.train", description=(
        "Fine-tune the dice reader's nets on the rolls an owner's table confirmed (`companion dice export "
        "EXPORT`) and write them to a folder; `companion dice nets DIR` installs it on the device."))
    ap.add_argument("--owner", required=True, metavar="EXPORT",
                    help="labelled photos: images/ and labels.csv (image,value,x,y,w,h)")
    ap.add_argument("--out", default="taught-nets", metavar="DIR",
                    help="folder to write the nets and taught.json to, replaced whole (default: taught-nets)")
    ap.add_argument("--seed", type=int, default=0, help="the seed of the crops and the rendered scenes (0)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="torch threads (all cores)")
    a = ap.parse_args(argv)
    if not os.path.isfile(os.path.join(a.owner, "labels.csv")):
        print(f"error: {a.owner}: no labels.csv (a folder written by `companion dice export`)", file=sys.stderr)
        return 2
    from dataclasses import replace

    from .owner import Recipe, teach

    try:
        manifest = teach(a.owner, a.out, recipe=replace(Recipe(), seed=a.seed, threads=a.threads))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"taught in {manifest['seconds']:.0f} s from {len(manifest['photos'])} photos ({manifest['dice']} dice); "
          f"on them, per die and silent errors: {json.dumps(manifest['on_taught_photos'])}")
    print(f"wrote {a.out}: copy it to the companion and run `companion dice nets {a.out}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
