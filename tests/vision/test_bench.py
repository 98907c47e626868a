"""The bench: its matching rule and figures, on a synthetic labelled folder."""

import csv
import os
import shutil
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision import bench
from vision.detect import Config
from vision.reading import Die, Reading
from vision.render import render_scene


def test_match_is_centre_in_box_one_to_one():
    labels = [(3, 0, 0, 50, 50), (5, 40, 0, 50, 50)]
    r = Reading((Die(3, (45, 25), (0, 0, 1, 1), 1.0),       # inside both boxes
                 Die(5, (46, 26), (0, 0, 1, 1), 1.0),       # inside both boxes too
                 Die(2, (200, 200), (0, 0, 1, 1), 1.0)))    # inside none
    pairs, extra, missed = bench.match(r, labels)
    assert len(pairs) == 2 and not missed
    assert [d.value for d in extra] == [2]


@pytest.fixture
def synthetic_folder(tmp_path):
    os.makedirs(tmp_path / "images")
    rows = []
    for k in range(4):
        values = [[1], [2, 3], [4, 5, 6, 1, 2, 3, 4], [6, 6]][k]
        img, truth = render_scene(values, seed=40 + k, size=(640, 480), die_px=48)
        name = f"img{k}.jpg"
        cv2.imwrite(str(tmp_path / "images" / name), img)
        for t in truth:
            h = t.side * 0.75
            rows.append([name, t.value, t.center[0] - h, t.center[1] - h, 2 * h, 2 * h])
    # A phantom-free image with one label that the reader cannot see (a missed die).
    rows.append(["img3.jpg", 5, 0, 0, 10, 10])
    with open(tmp_path / "labels.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["image", "value", "x", "y", "w", "h"])
        w.writerows(rows)
    return str(tmp_path)


def test_bench_counts_on_a_synthetic_folder(synthetic_folder):
    # The pip reader reads these renders exactly (known figures to count against).
    total, buckets = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"))
    assert total.images == 4 and total.labelled == 13
    assert total.correct == 12 and total.missed == 1 and total.wrong == 0
    assert total.exact_rolls == 3                      # img3 has the missed label
    # img3 reads as a complete [6, 6]: the missed 5 leaves nothing unsure, a silent error per frame
    assert total.complete_wrong == 1
    assert any(e.startswith("img3.jpg: read complete as [6, 6]") for e in total.errors)
    assert set(buckets) == {"1", "2-6", "7-9"}
    text = bench.report(synthetic_folder, total, buckets)
    for word in ("per-die accuracy", "per-roll accuracy", "wrong values", "unsure", "missed",
                 "phantoms", "silent-error rate", "complete but wrong", "median", "p95", "confusion", "7-9"):
        assert word in text
    assert "92.31%" in text                              # 12 / 13
    assert "25.00%  (1/4 images" in text                 # complete but wrong


def test_complete_but_wrong_only_when_nothing_is_unsure():
    die = lambda v: Die(v, (10, 10), (0, 0, 20, 20), 0.9)    # noqa: E731
    assert bench.complete_but_wrong(Reading((die(3), die(4))), [4, 3, 2])       # a die gone silently
    assert bench.complete_but_wrong(Reading((die(3), die(5))), [3, 4])          # a wrong value
    assert not bench.complete_but_wrong(Reading((die(4), die(3))), [3, 4])      # order does not matter
    assert not bench.complete_but_wrong(Reading((die(3), die(None))), [3, 2])   # the table is told
    assert not bench.complete_but_wrong(Reading(()), [3])                       # nothing read: not complete


def test_to_720p_keeps_aspect_and_size():
    img = np.zeros((640, 640, 3), np.uint8)
    out = bench.to_720p(img)
    assert out.shape == (720, 1280, 3)


def _errata(path, rows, header=("folder", "image", "x", "y", "labelled", "shown", "note")):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return str(path)


ADDING = ("folder", "image", "x", "y", "w", "h", "labelled", "shown", "note")


def test_an_erratum_adds_a_die_the_labels_miss_and_the_bench_scores_it(synthetic_folder, tmp_path):
    folder = os.path.basename(synthetic_folder)
    with open(os.path.join(synthetic_folder, "labels.csv"), newline="") as fh:
        rows = list(csv.reader(fh))
    # Drop img0's one die from labels.csv (img0 keeps a row through a second, far label),
    # so the reader's die there is a phantom; an erratum that adds it back makes it right.
    header, first = rows[0], dict(zip(rows[0], rows[1]))
    far = [first["image"], first["value"], "0", "0", "1", "1"]
    with open(os.path.join(synthetic_folder, "labels.csv"), "w", newline="") as fh:
        csv.writer(fh).writerows([header, far] + rows[2:])
    add = _errata(tmp_path / "add.csv", [[folder, first["image"], first["x"], first["y"], first["w"],
                                          first["h"], "-", first["value"], "not labelled"]], ADDING)
    labels = bench.load_labels(synthetic_folder, add)[first["image"]]
    assert (int(first["value"]), float(first["x"]), float(first["y"])) in [lab[:3] for lab in labels]
    as_given, _ = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"))
    fixed, _ = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"), errata=add)
    assert (as_given.phantoms, as_given.labelled) == (1, 13)     # 11 dice, the far label, img3 missed
    assert (fixed.phantoms, fixed.correct, fixed.labelled) == (0, 12, 14)
    # A die already labelled (its box over a label's centre, or its centre in a label's box), a
    # bad value or box, a correction given a box, or an unknown photo, is an error.
    x, y, w, h = (float(v) for v in rows[2][2:6])
    for row, message in (([folder, rows[2][0], x + w / 4, y + h / 4, w, h, "-", 3, ""], "already labelled"),
                         ([folder, rows[2][0], x - 50, y - 50, w + 100, h + 100, "-", 3, ""], "already labelled"),
                         ([folder, rows[2][0], x, y, w, h, rows[2][1], 3 if rows[2][1] != "3" else 4, ""],
                          "keeps its label's box"),
                         ([folder, first["image"], 50, 50, 20, 20, "-", "", ""], "invalid literal"),
                         ([folder, first["image"], 50, 50, 0, 0, "-", 3, ""], "a value 1-6 in a box"),
                         ([folder, first["image"], 50, 50, 20, 20, "-", 7, ""], "a value 1-6 in a box"),
                         ([folder, "nowhere.jpg", 50, 50, 20, 20, "-", 3, ""], "not in the labels")):
        with pytest.raises(ValueError, match=message):
            bench.load_labels(synthetic_folder, _errata(tmp_path / "bad.csv", [row], ADDING))


def test_errata_correct_one_label_and_the_bench_scores_against_it(synthetic_folder, tmp_path):
    folder = os.path.basename(synthetic_folder)
    with open(os.path.join(synthetic_folder, "labels.csv"), newline="") as fh:
        rows = list(csv.reader(fh))
    first = dict(zip(rows[0], rows[1]))           # img0's one die, a 1
    wrong = int(first["value"]) % 6 + 1
    # Label that die wrongly, then correct it with an erratum.
    rows[1][1] = str(wrong)
    with open(os.path.join(synthetic_folder, "labels.csv"), "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    fix = _errata(tmp_path / "errata.csv",
                  [[folder, first["image"], first["x"], first["y"], wrong, first["value"], "by eye"]])
    assert bench.load_labels(synthetic_folder)[first["image"]][0][0] == wrong
    assert bench.load_labels(synthetic_folder, fix)[first["image"]][0][0] == int(first["value"])
    as_given, _ = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"))
    fixed, buckets = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"), errata=fix)
    assert (as_given.wrong, as_given.correct) == (1, 11)
    assert (fixed.wrong, fixed.correct) == (0, 12)
    assert "(1 for this folder)" in bench.report(synthetic_folder, fixed, buckets, errata=fix)


def test_best_possible_scores_the_errata_against_the_labels_as_given(synthetic_folder, tmp_path):
    folder = os.path.basename(synthetic_folder)
    with open(os.path.join(synthetic_folder, "labels.csv"), newline="") as fh:
        rows = list(csv.reader(fh))
    header, first = rows[0], dict(zip(rows[0], rows[1]))
    wrong = int(first["value"]) % 6 + 1
    rows[1][1] = str(wrong)                           # img0's die labelled wrongly ...
    second = dict(zip(header, rows[2]))
    with open(os.path.join(synthetic_folder, "labels.csv"), "w", newline="") as fh:
        csv.writer(fh).writerows([header, rows[1]] + rows[3:])     # ... and another die not labelled
    fix = _errata(tmp_path / "errata.csv",
                  [[folder, first["image"], first["x"], first["y"], "", "", wrong, first["value"], "by eye"],
                   [folder, second["image"], second["x"], second["y"], second["w"], second["h"], "-",
                    second["value"], "not labelled"]], ADDING)
    names = sorted(bench.load_labels(synthetic_folder))
    labelled = sum(len(v) for v in bench.load_labels(synthetic_folder).values())
    best = bench.best_possible(synthetic_folder, names, fix)
    assert (best.labelled, best.correct, best.wrong, best.phantoms_valued) == (labelled, labelled - 1, 1, 1)
    assert best.exact_rolls == len(names) - 2 and best.images == len(names)
    # Leaving out the die the labels miss keeps that roll: only the wrong value's is lost.
    kept = bench.best_possible(synthetic_folder, names, fix, unlabelled=False)
    assert (kept.wrong, kept.phantoms, kept.exact_rolls) == (1, 0, len(names) - 1)
    # The same figures as the bench gives a reader that reports those dice.
    shown = bench.load_labels(synthetic_folder, fix)
    by_size = {cv2.imread(os.path.join(synthetic_folder, "images", n)).tobytes(): n for n in names}
    reader = lambda img, cfg: Reading(tuple(Die(v, (x + w / 2, y + h / 2), (int(x), int(y), int(w), int(h)), 1.0)  # noqa: E731
                                            for v, x, y, w, h in shown[by_size[img.tobytes()]]))
    run, _ = bench.run(synthetic_folder, time_720p=False, reader=reader)
    assert [getattr(run, f) for f in ("correct", "wrong", "exact_rolls", "phantoms_valued")] == \
        [getattr(best, f) for f in ("correct", "wrong", "exact_rolls", "phantoms_valued")]
    text = bench.report(synthetic_folder, best, {}, best=(kept, best))
    line = [x for x in text.splitlines() if x.startswith("best possible")]
    assert line and f"per-roll 75.00% ({len(names) - 1}/{len(names)})" in line[0]
    assert "1 unlabelled included" in line[0] and f"per-roll {100 * (len(names) - 2) / len(names):.2f}%" in line[0]
    assert "best possible" not in bench.report(synthetic_folder, best, {})


def test_as_labelled_no_reader_that_reads_right_reaches_98_per_cent_per_roll_on_nell_byler(shared_folder):
    # Six of its 200 photos have a die labelled with a value it does not show: a reader that
    # values no die as anything it does not show loses those rolls, 97 % per roll at most against
    # the 98 % the issue asks. Valuing the five real dice the labels miss costs five rolls more.
    folder = shared_folder("nell-byler")
    names = bench.image_names(folder, bench.load_labels(folder))
    kept = bench.best_possible(folder, names, unlabelled=False)
    every = bench.best_possible(folder, names)
    assert (kept.images, kept.exact_rolls, kept.wrong, kept.phantoms) == (200, 194, 6, 0)
    assert (every.exact_rolls, every.wrong, every.phantoms_valued) == (190, 6, 5)
    assert kept.exact_rolls / kept.images < 0.98


def test_an_erratum_that_matches_no_label_is_an_error(synthetic_folder, tmp_path):
    folder = os.path.basename(synthetic_folder)
    fix = _errata(tmp_path / "errata.csv", [[folder, "img0.jpg", 1.0, 2.0, 3, 4, "nowhere"]])
    with pytest.raises(ValueError, match="0 labels 3"):
        bench.load_labels(synthetic_folder, fix)
    # The right place but another value: the label is not the one the erratum saw.
    with open(os.path.join(synthetic_folder, "labels.csv"), newline="") as fh:
        first = next(csv.DictReader(fh))
    other_value = int(first["value"]) % 6 + 1
    fix = _errata(tmp_path / "value.csv", [[folder, first["image"], first["x"], first["y"],
                                             other_value, first["value"], ""]])
    with pytest.raises(ValueError, match=f"0 labels {other_value}"):
        bench.load_labels(synthetic_folder, fix)
    # Two rows for one die, and corrections that are no corrections.
    row = [folder, first["image"], first["x"], first["y"], first["value"], other_value, ""]
    with pytest.raises(ValueError, match="two rows"):
        bench.load_labels(synthetic_folder, _errata(tmp_path / "twice.csv", [row, row]))
    for labelled, shown in ((3, 3), (3, 0), (7, 2)):
        bad = _errata(tmp_path / "bad.csv", [[folder, "img0.jpg", 1.0, 2.0, labelled, shown, ""]])
        with pytest.raises(ValueError, match="from one value 1-6 to another"):
            bench.load_labels(synthetic_folder, bad)
    # Rows of other folders are not this folder's business.
    other = _errata(tmp_path / "other.csv", [["elsewhere", "img0.jpg", 1.0, 2.0, 3, 4, ""]])
    assert bench.load_labels(synthetic_folder, other) == bench.load_labels(synthetic_folder)


@pytest.mark.shared_data
def test_the_shipped_errata_each_change_one_shared_label_or_add_one_die(shared_folder):
    used = 0
    for name in ("nell-byler", "rune55-gray"):
        folder = shared_folder(name)
        fixes = bench.read_errata(bench.ERRATA, folder)
        before, after = bench.load_labels(folder), bench.load_labels(folder, bench.ERRATA)
        changed = [(img, a, b) for img in before for a, b in zip(before[img], after[img]) if a != b]
        added = sorted((img, *lab) for img in before for lab in after[img][len(before[img]):])
        assert len(changed) == sum(f["labelled"] is not None for f in fixes) >= 1
        assert all(a[0] != b[0] and a[1:] == b[1:] for _, a, b in changed)
        assert added == sorted((f["image"], f["shown"], f["x"], f["y"], f["w"], f["h"])
                               for f in fixes if f["labelled"] is None)
        for img, _, x, y, w, h in added:                 # each added box lies in its photo
            height, width = cv2.imread(os.path.join(folder, "images", img)).shape[:2]
            assert 0 <= x and 0 <= y and x + w <= width + 0.5 and y + h <= height + 0.5
        assert added
        used += len(fixes)
    with open(bench.ERRATA, newline="") as fh:
        assert used == len(list(csv.DictReader(fh)))     # every row belongs to a shared folder


def test_the_contact_sheet_shows_each_die_not_read_right(synthetic_folder, tmp_path):
    import subprocess
    import sys

    from vision.sheet import COLS, TILE, contact_sheet

    total, _ = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"))
    # The one die not read right is the label no reader can see (img3, a 5 at the corner).
    assert [(k.image, k.kind, k.label, k.read) for k in total.looks] == [("img3.jpg", "missed", 5, None)]
    sheet = contact_sheet(synthetic_folder, total.looks)
    assert sheet.shape == (TILE, TILE * COLS, 3)
    assert sheet[:, :TILE].any() and not sheet[:, TILE:].any()     # one tile, the rest blank
    assert contact_sheet(synthetic_folder, []) is None
    # From the command line: the sheet is written, its path said.
    out = tmp_path / "sheet.png"
    p = subprocess.run([sys.executable, "-m", "vision", "bench", synthetic_folder, "--no-720p",
                        "--reader", "pips", "--sheet", str(out)], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert p.returncode == 0, p.stderr
    assert "sheet: 1 to look at" in p.stdout
    assert cv2.imread(str(out)).shape == sheet.shape


def test_a_sheet_tile_is_centred_on_the_die():
    from vision.sheet import TILE, Look, tile

    img = np.full((200, 300, 3), 90, np.uint8)
    img[80:120, 180:220] = 250                        # a bright 40 px "die"
    t = tile(img, Look("a.jpg", "wrong", 2, 3, 0.91, (180.0, 80.0, 40.0, 40.0)))
    assert t.shape == (TILE, TILE, 3)
    c = TILE // 2
    assert t[c - 5:c + 5, c - 5:c + 5].min() > 200      # the die fills the middle
    assert t[c - 5:c + 5, 2:6].max() < 150              # tray beside it (1.6 x context)


@pytest.mark.parametrize("text, words", [
    ("img,3,1\n", "header must name image,value,x,y,w,h"),                    # no header
    ("\ufeffimage,value,x,y,w,h\nimg0.jpg,3,1\n", "line 2"),                   # a BOM, a short row
    ("image,value,x,y,w,h\nimg0.jpg,abc,1,1,5,5\n", "line 2"),
    ("image,value,x,y,w,h\nimg0.jpg,3,1,1,5,5\nimg1.jpg,9,1,1,5,5\n", "line 3: a die's value is 1-6"),
    ("image,value,x,y,w,h\nimg0.jpg,3,1,1,nan,5\n", "finite"),
    ("image;value;x;y;w;h\nimg0.jpg;3;1;1;5;5\n", "value, x, y, w, h missing"),
])
def test_a_malformed_labels_file_is_one_clear_error_naming_its_line(tmp_path, text, words):
    (tmp_path / "labels.csv").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="labels.csv") as err:
        bench.load_labels(str(tmp_path))
    assert words in str(err.value)


def test_the_bench_reads_unlabelled_images_as_empty_trays_and_reports_bad_ones(synthetic_folder):
    images = os.path.join(synthetic_folder, "images")
    tray = render_scene([], seed=1, size=(640, 480))[0]
    cv2.imwrite(os.path.join(images, "empty.jpg"), tray)                    # no row: no dice
    cv2.imwrite(os.path.join(images, "phantom.jpg"), render_scene([5], seed=2, size=(640, 480))[0])
    with open(os.path.join(images, "broken.jpg"), "wb") as fh:
        fh.write(b"\xff\xd8 not a whole jpeg")
    os.remove(os.path.join(images, "img0.jpg"))                              # labelled, but gone
    total, buckets = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"))
    assert total.images == 5                       # img1-3, empty, phantom
    assert total.phantoms == 1 and total.phantoms_valued == 1
    assert buckets["0"].images == 2 and buckets["0"].exact_rolls == 1
    assert sorted(u.split(":")[0] for u in total.unreadable) == ["broken.jpg", "img0.jpg"]
    text = bench.report(synthetic_folder, total, buckets)
    assert "unreadable images 2" in text and "broken.jpg" in text and "cut short" in text


def test_the_bench_command_gives_the_ceiling_as_labelled_only(shared_folder):
    folder = shared_folder("rune55-gray")
    names = bench.image_names(folder, bench.load_labels(folder))
    broken = {f["image"] for f in bench.read_errata(bench.ERRATA, folder)}
    first = next(i for i, n in enumerate(names) if n in broken) + 1      # the first photo with an erratum
    as_given, fixed = (_bench_cli(folder, "--limit", str(first), *extra) for extra in ((), ("--errata",)))
    assert as_given.returncode == fixed.returncode == 0, as_given.stderr + fixed.stderr
    line = [x for x in as_given.stdout.splitlines() if x.startswith("best possible")]
    # Its erratum adds a die the labels miss: leaving it out keeps every roll, valuing it costs one.
    assert line and f"per-roll 100.00% ({first}/{first})" in line[0] and "1 unlabelled included" in line[0]
    assert f"per-roll {100 * (first - 1) / first:.2f}%" in line[0]
    assert "best possible" not in fixed.stdout


def test_the_bench_still_reports_where_the_errata_do_not_fit(synthetic_folder, tmp_path):
    # A folder named as one the errata know, but another set of photos (a part copied, or its
    # labels corrected since): the figures as given, and why there is no ceiling, not an error.
    copy = tmp_path / "copy" / "nell-byler"
    shutil.copytree(synthetic_folder, copy)
    p = _bench_cli(str(copy), "--reader", "pips")
    assert p.returncode == 0, p.stderr
    assert "per-die accuracy   92.31%  (12/13)" in p.stdout and "best possible" not in p.stdout
    assert "no 'best possible' line" in p.stderr and "not in the labels" in p.stderr


def _bench_cli(folder, *extra):
    return subprocess.run([sys.executable, "-m", "vision", "bench", folder, "--no-720p", *extra],
                          capture_output=True, text=True, timeout=300)
