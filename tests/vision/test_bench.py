"""The bench: its matching rule and figures, on a synthetic labelled folder."""

import csv
import json
import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision_tools import bench
from vision.settings import Config
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
    # The reader reads these renders exactly (known figures to count against).
    total, buckets = bench.run(synthetic_folder, time_720p=False, config=Config())
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


@pytest.mark.shared_data
def test_the_shared_labels_hold_the_data_readmes_corrections(shared_folder):
    # The labels were corrected where they were found wrong (../shared/data/dice/README.md,
    # "Corrections"): the bench scores against labels.csv as it is, with no errata of its own.
    corrected = {("nell-byler", "IMG_20191208_112342.jpg", 296.6, 462.1): 3,
                 ("nell-byler", "IMG_20191209_095439.jpg", 317.4, 371.6): 4,
                 ("nell-byler", "IMG_20191209_095555.jpg", 141.5, 244.6): 6,
                 ("nell-byler", "IMG_20191209_100002.jpg", 115.3, 340.3): 3,
                 ("nell-byler", "IMG_20191209_100722.jpg", 410.3, 414.7): 5,
                 ("nell-byler", "IMG_20191208_111246.jpg", 118.6, 203.4): 3,
                 ("rune55-gray", "00054", 297.5, 192.5): 5}
    labels = {name: bench.load_labels(shared_folder(name)) for name in ("nell-byler", "rune55-gray")}
    for (folder, image, x, y), value in corrected.items():
        image = next(n for n in labels[folder] if n.startswith(image.split(".")[0]))
        at = [v for v, lx, ly, _, _ in labels[folder][image] if abs(lx - x) < 0.05 and abs(ly - y) < 0.05]
        assert at == [value], (folder, image)
    assert sum(map(len, labels["nell-byler"].values())) == 1459


def test_the_contact_sheet_shows_each_die_not_read_right(synthetic_folder, tmp_path):
    from vision_tools.sheet import COLS, TILE, contact_sheet

    total, _ = bench.run(synthetic_folder, time_720p=False, config=Config())
    # The one die not read right is the label no reader can see (img3, a 5 at the corner).
    assert [(k.image, k.kind, k.label, k.read) for k in total.looks] == [("img3.jpg", "missed", 5, None)]
    sheet = contact_sheet(synthetic_folder, total.looks)
    assert sheet.shape == (TILE, TILE * COLS, 3)
    assert sheet[:, :TILE].any() and not sheet[:, TILE:].any()     # one tile, the rest blank
    assert contact_sheet(synthetic_folder, []) is None
    # From the command line: the sheet is written, its path said.
    out = tmp_path / "sheet.png"
    p = subprocess.run([sys.executable, "-m", "vision_tools.bench", synthetic_folder, "--no-720p",
                        "--sheet", str(out)], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert p.returncode == 0, p.stderr
    assert "sheet: 1 to look at" in p.stdout
    assert cv2.imread(str(out)).shape == sheet.shape


def test_the_bench_without_labels_is_one_line_exit_2(tmp_path):
    p = subprocess.run([sys.executable, "-m", "vision_tools.bench", str(tmp_path)], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert p.returncode == 2 and "labels.csv" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_the_package_never_reaches_into_the_tools():
    # The bench is vision_tools' own command: the installed reader neither imports the tools nor
    # puts the checkout on sys.path to find them.
    import ast
    import pathlib

    import vision

    for path in pathlib.Path(vision.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names] + \
                [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [m for m in names if m.split(".")[0] == "vision_tools"], path
        assert "sys.path" not in ast.unparse(tree), path
    from vision.__main__ import main
    with pytest.raises(SystemExit):
        main(["bench", "."])                       # no such command in the package


def test_a_sheet_tile_is_centred_on_the_die():
    from vision_tools.sheet import TILE, Look, tile

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
    total, buckets = bench.run(synthetic_folder, time_720p=False, config=Config())
    assert total.images == 5                       # img1-3, empty, phantom
    assert total.phantoms == 1 and total.phantoms_valued == 1
    assert buckets["0"].images == 2 and buckets["0"].exact_rolls == 1
    assert sorted(u.split(":")[0] for u in total.unreadable) == ["broken.jpg", "img0.jpg"]
    text = bench.report(synthetic_folder, total, buckets)
    assert "unreadable images 2" in text and "broken.jpg" in text and "cut short" in text


def test_bench_json_is_one_object_with_each_folders_figures(synthetic_folder, tmp_path, capsys):
    from vision_tools.bench import main

    other = tmp_path / "other"
    os.makedirs(other / "images")
    cv2.imwrite(str(other / "images" / "a.jpg"), render_scene([], seed=3, size=(320, 240))[0])
    (other / "labels.csv").write_text("image,value,x,y,w,h\n", encoding="utf-8")
    assert main([synthetic_folder, str(other), "--json", "--no-720p"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)                                  # the whole of stdout is one JSON object
    assert list(data) == ["folders", "machine"] and "cores" in data["machine"] and [f["folder"] for f in data["folders"]] == [synthetic_folder, str(other)]
    f = data["folders"][0]["figures"]
    assert (f["images"], f["dice"], f["correct"], f["missed"], f["wrong"]) == (4, 13, 12, 1, 0)
    assert f["per_die"] == round(12 / 13, 4) and f["exact_rolls"] == 3 and f["silent"] == 0
    assert f["unsure"] == 0 and f["valued_phantoms"] == 0 and f["complete_but_wrong"] == 1
    assert f["median_ms"] > 0 and f["p95_ms"] >= f["median_ms"] and f["median_ms_720p"] is None
    empty = data["folders"][1]["figures"]
    assert empty["dice"] == 0 and empty["per_die"] is None and empty["silent_rate"] is None


def test_the_teach_split_is_seeded_and_disjoint():
    names = [f"IMG_{i:03d}.jpg" for i in range(57)]
    taught, scored = bench.teach_split(names, 0.2)
    assert len(taught) == round(0.2 * 57) and len(scored) == 57 - len(taught)
    assert not set(taught) & set(scored) and sorted(taught + scored) == names
    assert bench.teach_split(list(reversed(names)), 0.2) == (taught, scored)   # the order given does not matter
    assert bench.teach_split(names, 0.2, seed=1)[0] != taught                  # the seed does
    assert taught != names[:len(taught)]                                       # not the first photos
    assert bench.teach_split(["a.jpg", "b.jpg"], 0.01) == (["a.jpg"], ["b.jpg"]) or \
        bench.teach_split(["a.jpg", "b.jpg"], 0.01) == (["b.jpg"], ["a.jpg"])
    assert len(bench.teach_split(names, 0.99)[1]) == 1                         # one left to score
    for bad in (0, 1, 1.5):
        with pytest.raises(ValueError, match="fraction"):
            bench.teach_split(names, bad)


def test_the_machine_line_names_the_vector_extensions_this_cpu_has_not_those_only_built_in(monkeypatch):
    # OpenCV's features line: '*' dispatched at run time, '?' built in but not on this CPU
    from vision_tools import machine

    monkeypatch.setattr(machine, "cpuinfo", lambda: ("AMD EPYC", ["fpu", "avx2"]))
    monkeypatch.setattr(machine.cv2, "getCPUFeaturesLine", lambda: "SSE SSE2 *AVX *AVX2 *AVX512-SKX?")
    line = machine.cpu()
    assert "AVX2" in line and "AVX512" not in line and line.endswith(f"{os.cpu_count()} cores")
    monkeypatch.setattr(machine.cv2, "getCPUFeaturesLine", lambda: "SSE SSE2 *AVX *AVX2 *AVX512-SKX *AVX512-ICL")
    assert "AVX2, AVX512-SKX, AVX512-ICL" in machine.cpu() and "bfloat16" not in machine.cpu()


def test_the_machine_line_names_the_units_that_compute_bfloat16(monkeypatch, tmp_path):
    # Nets trained in bfloat16 differ between AMX and AVX-512 BF16 CPUs: the record must tell them apart.
    from vision_tools import machine

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: Intel Xeon\nflags\t\t: fpu avx2 avx512f amx_tile amx_bf16\n\n"
                    "processor\t: 1\nmodel name\t: Intel Xeon\nflags\t\t: fpu avx2 avx512f amx_tile amx_bf16\n")
    assert machine.cpuinfo(str(info)) == ("Intel Xeon", ["fpu", "avx2", "avx512f", "amx_tile", "amx_bf16"])
    assert machine.cpuinfo(str(tmp_path / "none"))[1] == []
    assert machine.bf16_units(["avx512_bf16", "amx_bf16", "avx2"]) == ["AMX-BF16", "AVX512-BF16"]
    assert machine.bf16_units(["avx512f", "avx2"]) == []
    monkeypatch.setattr(machine, "cpuinfo", lambda: ("Intel Xeon", ["avx2", "amx_bf16"]))
    monkeypatch.setattr(machine.cv2, "getCPUFeaturesLine", lambda: "SSE *AVX2 *AVX512-SKX")
    assert machine.cpu() == f"Intel Xeon (AVX2, AVX512-SKX; bfloat16: AMX-BF16), {os.cpu_count()} cores"
