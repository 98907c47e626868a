"""The shipping rule: do a candidate's nets replace the shipped ones?

    .venv/bin/python -m vision_tools.ship CANDIDATE_DIR [--shipped vision/models] [--data DIR] [--apply]

Both sets of nets read every shared photo folder (`vision_tools.bench`, as shipped: uncalibrated,
the reader's settings) and the rendered stress sets of `benchmarks/bench_vision.py --no-photos`
(dice aslant, big dark dice close up, dice cut by the frame, cocked, translucent, marbled dice,
patterns with no die). Each row prints dice read right and silent errors (wrong values and
valued phantoms; in the cocked set also a value given to a die with no face up) for the shipped
nets and the candidate, side by side, and the median CPU ms of a 1280x720 frame per folder.

The candidate ships when, summed over every row, its silent errors do not grow and its dice
read right grow. Below them, not summed (their photos are in the folders' rows already), the
held-out fifth of each folder trained on (`vision_tools.train.data`), which no net has trained
on: what the nets read on photos they have never seen. `--apply` then copies its three nets
and its recipe.json (the command that made them) into the shipped folder; without it nothing is written. Exit status 0: it ships
(or shipped), 1: it does not, 2: bad input.

A candidate's nets may want other thresholds than the shipped ones (`--set p_sure=0.6`, chosen on
the held-out fifth with `vision_tools.train.sweep --split heldout`): it is measured with them, and
shipped with them: `--apply` then also writes them as `vision.Config`'s defaults in
vision/settings.py (the one place the reader's settings live) and into the copied recipe.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from dataclasses import replace

from vision.nets import NETS
from vision import settings as settings_module
from vision.settings import MODELS, Config

from . import bench
from .machine import cpu
from .train.options import setting

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(REPO), "shared", "data", "dice")
STRESS = ("tilted_rolls", "close_ups", "cut_dice", "cocked_dice", "see_through_dice", "finished_dice", "patterns")


def stress_counts(line: str) -> tuple[int, int]:
    """(dice read right, silent errors) of one stress set's line of bench_vision: every "right N",
    and every "wrong N" (not "complete but wrong N", frames), "valued phantoms ... N" and "given a value N" (a cocked die with no face up)."""
    right = sum(int(v) for v in re.findall(r"\bright (\d+)", line))
    silent = sum(int(v) for v in re.findall(r"(?<!but )\bwrong (\d+)", line))
    silent += sum(int(v) for v in re.findall(r"valued phantoms[a-z ]*? (\d+)", line))
    silent += sum(int(v) for v in re.findall(r"given a value (\d+)", line))
    return right, silent


def _settings(models: str, tuning: dict | None = None) -> Config:
    """The reader's settings with the nets of folder `models` and `tuning` (other values of Config's fields)."""
    return replace(Config(), models=models, **(tuning or {}))


def write_defaults(tuning: dict, path: str = settings_module.__file__) -> None:
    """Make `tuning` ({field: value}) Config's defaults in the settings file at `path`: each field's
    one line `    name: type = value` gets the new value, its comment kept. Refused (ValueError,
    nothing written) when a field has no such line."""
    with open(path) as fh:
        text = fh.read()
    for name, value in tuning.items():
        pattern = re.compile(rf"^(    {re.escape(name)}: (?:float|int|bool) = )([^#\n]*?)(\s*(?:#.*)?)$", re.M)
        if len(pattern.findall(text)) != 1:
            raise ValueError(f"{path}: no single default of {name} to set")
        text = pattern.sub(lambda m: m.group(1) + repr(value) + m.group(3), text)
    with open(path, "w") as fh:
        fh.write(text)


def _row(name: str, f: dict) -> dict:
    """A photo folder's row of the table from its `bench.figures`."""
    return {"name": name, "right": f["correct"], "silent": f["silent"], "dice": f["dice"],
            "per_die": f["per_die"], "exact": f["exact_roll_rate"]}


def measure(models: str, data: str = DATA, say=print, tuning: dict | None = None) -> list[dict]:
    """Rows {name, right, silent, dice, ms} for the nets of folder `models`, read with the reader's
    settings and `tuning` (other values of Config's fields)."""
    sys.path.insert(0, os.path.join(REPO, "benchmarks"))
    import bench_vision

    s = _settings(models, tuning)
    rows = []
    for name in sorted(os.listdir(data)) if os.path.isdir(data) else []:
        folder = os.path.join(data, name)
        if not os.path.isfile(os.path.join(folder, "labels.csv")):
            continue
        total, _ = bench.run(folder, config=s)
        f = bench.figures(total)
        rows.append(dict(_row(name, f), silent_rate=f["silent_rate"], ms=f["cpu_median_ms_720p"]))
        say(f"  {models}: {name} read")
    for fn in STRESS:
        line = getattr(bench_vision, fn)(s)
        right, silent = stress_counts(line)
        rows.append({"name": fn.replace("_", " "), "right": right, "silent": silent, "line": line})
        say(f"  {models}: {fn} read")
    return rows


def held_out(models: str, data: str = DATA, say=print, tuning: dict | None = None) -> list[dict]:
    """Rows {name, right, silent, dice, per_die, exact, held_out: True} of the held-out fifth of each
    folder the recipe trains on, read by the nets of folder `models` (not part of the verdict)."""
    from .train.data import FOLDERS, SPLITS

    s = _settings(models, tuning)
    rows = []
    for name in FOLDERS:
        folder = os.path.join(data, name)
        if not os.path.isfile(os.path.join(folder, "labels.csv")):
            continue
        total, _ = bench.run(folder, config=s, only=SPLITS["heldout"], time_720p=False)
        rows.append(dict(_row(f"{name}, held-out fifth", bench.figures(total)), held_out=True))
        say(f"  {models}: {name}'s held-out fifth read")
    return rows


def speed(models: list[str], data: str = DATA) -> dict:
    """{folder: [median CPU ms of a 1280x720 frame for each of `models`]}: every photo fitted into
    1280x720 (bench.to_720p) and read by each set of nets in turn, one OpenCV thread, so that a
    shared machine's load weighs on every set alike."""
    import statistics
    import time

    import cv2

    from vision import read
    from vision.image_file import load_image

    cv2.setNumThreads(1)
    configs = [_settings(m) for m in models]
    out = {}
    for name in sorted(os.listdir(data)) if os.path.isdir(data) else []:
        folder = os.path.join(data, name)
        if not os.path.isfile(os.path.join(folder, "labels.csv")):
            continue
        ms = [[] for _ in models]
        for image in bench.image_names(folder, bench.load_labels(folder)):
            frame = bench.to_720p(load_image(os.path.join(folder, "images", image)))
            for k, cfg in enumerate(configs):
                c0 = time.process_time()
                read(frame, cfg)
                ms[k].append((time.process_time() - c0) * 1000)
        out[name] = [round(statistics.median(m), 1) for m in ms]
    return out


def verdict(shipped: list[dict], candidate: list[dict]) -> tuple[bool, str]:
    """(ships?, the side-by-side table): silent errors summed must not grow, dice read right must."""
    out = ["| set | dice | per die shipped / candidate | exact rolls | right | silent errors | "
           "CPU ms 1280x720 median |", "| --- | --- | --- | --- | --- | --- | --- |"]

    def pct(v):
        return "-" if v is None else f"{100 * v:.2f} %"

    def row(a, b):
        assert a["name"] == b["name"]
        return (f"| {a['name']} | {a.get('dice', '-')} | {pct(a.get('per_die'))} / {pct(b.get('per_die'))} | "
                f"{pct(a.get('exact'))} / {pct(b.get('exact'))} | {a['right']} / {b['right']} | "
                f"{a['silent']} / {b['silent']} | {a.get('ms', '-')} / {b.get('ms', '-')} |")

    summed = [(a, b) for a, b in zip(shipped, candidate) if not a.get("held_out")]
    out += [row(a, b) for a, b in summed]
    right = (sum(a["right"] for a, _ in summed), sum(b["right"] for _, b in summed))
    silent = (sum(a["silent"] for a, _ in summed), sum(b["silent"] for _, b in summed))
    out.append(f"| **all** | | | | {right[0]} / {right[1]} | {silent[0]} / {silent[1]} | |")
    out += [row(a, b) for a, b in zip(shipped, candidate) if a.get("held_out")]
    if len(summed) < len(shipped):
        out.append("\nThe held-out rows (below **all**: photos no net trained on, already in their folders' "
                   "rows) are not summed.")
    ships = silent[1] <= silent[0] and right[1] > right[0]
    out.append(f"\nsilent errors {silent[0]} -> {silent[1]} ({'not grown' if silent[1] <= silent[0] else 'GROWN'}), "
               f"dice read right {right[0]} -> {right[1]} ({'grown' if right[1] > right[0] else 'NOT grown'}): "
               f"{'SHIPS' if ships else 'does not ship'}")
    return ships, "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision_tools.ship", description=__doc__.split("\n\n")[0])
    ap.add_argument("candidate", help="folder of the candidate's three .onnx files (and recipe.json)")
    ap.add_argument("--shipped", default=MODELS, help="the nets it would replace (default: vision/models)")
    ap.add_argument("--data", default=DATA, help="the shared photo folders (default ../shared/data/dice)")
    ap.add_argument("--apply", action="store_true", help="copy the candidate into --shipped if it ships")
    ap.add_argument("--json", metavar="FILE", help="also write both sets' rows to FILE")
    ap.add_argument("--shipped-rows", metavar="FILE",
                    help="take the shipped nets' rows from FILE (a --json of an earlier run) instead of reading")
    ap.add_argument("--speed", action="store_true",
                    help="only time both sets, frame by frame in turn: median CPU ms of a 1280x720 frame")
    ap.add_argument("--set", action="append", default=[], type=setting, metavar="NAME=VALUE", dest="tuning",
                    help="read the candidate with another value of one of vision.Config's numbers or switches "
                         "(repeatable; with --apply it becomes the reader's default)")
    a = ap.parse_args(argv)
    tuning = dict(a.tuning)
    if tuning and a.apply and os.path.realpath(a.shipped) != os.path.realpath(MODELS):
        print("error: --set with --apply sets the reader's defaults: only for the nets it reads, "
              f"{MODELS}", file=sys.stderr)
        return 2
    for folder in (a.candidate, a.shipped):
        if not all(os.path.isfile(os.path.join(folder, n)) for n in NETS):
            print(f"error: {folder} lacks one of {', '.join(NETS)}", file=sys.stderr)
            return 2
    say = lambda *x: print(*x, file=sys.stderr)  # noqa: E731
    if a.speed:
        from vision import read, render

        for m in (a.shipped, a.candidate):      # load the nets before timing
            read(render([1, 2, 3], seed=1), _settings(m))
        print("| folder | CPU ms 1280x720 median, shipped / candidate |\n| --- | --- |")
        for name, (x, y) in speed([a.shipped, a.candidate], a.data).items():
            print(f"| {name} | {x} / {y} |")
        print(f"measured on {cpu()}")
        return 0
    if a.shipped_rows:
        with open(a.shipped_rows) as fh:
            shipped = json.load(fh)["shipped"]
        for row in shipped:          # a stress set's figures counted again from its line
            if "line" in row:
                row["right"], row["silent"] = stress_counts(row["line"])
    else:
        shipped = measure(a.shipped, a.data, say)
    if not any(r.get("held_out") for r in shipped):      # rows of a run before held-out rows were read
        shipped += held_out(a.shipped, a.data, say)
    candidate = measure(a.candidate, a.data, say, tuning) + held_out(a.candidate, a.data, say, tuning)
    ships, table = verdict(shipped, candidate)
    print(table)
    print(f"CPU ms measured on {cpu()}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"shipped": shipped, "candidate": candidate, "ships": ships}, fh, indent=1)
    if ships and a.apply:
        write_defaults(tuning)           # first: a field it cannot set leaves the nets as they were
        for name in NETS:
            shutil.copyfile(os.path.join(a.candidate, name), os.path.join(a.shipped, name))
        recipe = os.path.join(a.candidate, "recipe.json")
        if os.path.isfile(recipe):
            with open(recipe) as fh:
                made = json.load(fh)
            made["reader_settings"] = tuning
            with open(os.path.join(a.shipped, "recipe.json"), "w") as fh:
                json.dump(made, fh, indent=1)
        print(f"copied {a.candidate} into {a.shipped}"
              + (f"; the reader's defaults now {tuning} (vision/settings.py)" if tuning else ""))
    return 0 if ships else 1


if __name__ == "__main__":
    sys.exit(main())
