"""The confirmed rolls kept to teach the reader: what is kept, bounded, switched off, exported, cleared."""

import os

import numpy as np
import pytest

from companion.app import build
from companion.cli import main as companion_main
from companion.config import load_config
from companion.roll_keeper import RollKeeper, rolls_dir
from companion.session import Session
from companion.store import GameStore
from vision.labels import image_names, load_labels
from vision.render import render_scene

SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}


def dice_of(truth):
    return [{"box": [int(t.center[0] - t.side / 2), int(t.center[1] - t.side / 2), int(t.side), int(t.side)]}
            for t in truth]


def test_a_kept_roll_is_a_labelled_photo_the_bench_reads_back(tmp_path):
    frame, truth = render_scene([3, 5, 1], seed=4, size=(640, 480), die_px=48)
    keeper = RollKeeper(tmp_path / "rolls", max_bytes=10**7, clock=lambda: 1_700_000_000.25)
    name = keeper(frame, dice_of(truth), [3, 5, 1])
    labels = load_labels(str(tmp_path / "rolls"))
    assert image_names(str(tmp_path / "rolls"), labels) == [name]
    assert [lab[0] for lab in labels[name]] == [3, 5, 1]
    for (value, x, y, w, h), t in zip(labels[name], truth):
        assert x <= t.center[0] <= x + w and y <= t.center[1] <= y + h      # each value is tied to its die


def test_the_rolls_are_bounded_the_oldest_dropped_first(tmp_path):
    frame, truth = render_scene([2, 6], seed=1, size=(640, 480), die_px=48)
    ticks = iter(range(1_700_000_000, 1_700_001_000))
    probe = RollKeeper(tmp_path / "probe", max_bytes=10**9)
    size = os.path.getsize(tmp_path / "probe" / "images" / probe(frame, dice_of(truth), [2, 6]))
    keeper = RollKeeper(tmp_path / "rolls", max_bytes=int(size * 3.5), clock=lambda: next(ticks))
    names = [keeper(frame, dice_of(truth), [2, 6]) for _ in range(6)]
    assert sorted(names) == names and keeper.count() == 3
    labels = load_labels(str(tmp_path / "rolls"))
    assert sorted(labels) == names[-3:]                       # the rows went with their images
    assert sorted(os.listdir(tmp_path / "rolls" / "images")) == names[-3:]


def test_a_roll_that_cannot_be_kept_is_logged_not_raised(tmp_path, caplog):
    frame, truth = render_scene([2], seed=1, size=(320, 240), die_px=48)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert RollKeeper(blocked, max_bytes=10**7)(frame, dice_of(truth), [2]) is None
    assert RollKeeper(tmp_path / "r", max_bytes=10**7)(frame, dice_of(truth), [2, 3]) is None
    assert "could not keep a confirmed roll" in caplog.text


def test_export_writes_the_shared_format_and_clear_deletes(tmp_path):
    frame, truth = render_scene([4, 4], seed=2, size=(640, 480), die_px=48)
    keeper = RollKeeper(tmp_path / "rolls", max_bytes=10**7)
    keeper(frame, dice_of(truth), [4, 4])
    out = tmp_path / "export"
    assert keeper.export(out) == 1
    assert sorted(os.listdir(out)) == ["images", "labels.csv"]
    assert (out / "labels.csv").read_text().splitlines()[0] == "image,value,x,y,w,h"
    assert [v for v, *_ in next(iter(load_labels(str(out)).values()))] == [4, 4]
    with pytest.raises(ValueError, match="empty folder"):
        keeper.export(out)                                    # never writes over a folder in use
    assert keeper.clear() == 1 and keeper.count() == 0
    with pytest.raises(ValueError, match="no rolls kept"):
        keeper.export(tmp_path / "again")


class Camera:
    class status:
        ok, state, reason, message = True, "ok", "", "camera ready"

    def __init__(self, frame):
        self.frame = frame

    def capture(self, timeout=3.0):
        return self.frame


def test_a_gate_roll_entered_from_a_reading_is_kept_with_its_frame_and_boxes(tmp_path, profile):
    kept = []
    frame = np.full((480, 640, 3), 90, np.uint8)
    s = Session(GameStore(tmp_path / "g.sqlite3"), profile, camera=Camera(frame),
                reader=lambda f: _reading([6, 5, 4, 3, 2, 1, None]),
                roll_keeper=lambda *roll: kept.append(roll))
    s.new_game(SETUP)
    s.desk.read_dice()
    # The table corrects the unsure die on the tablet and enters the roll.
    s.desk.set_die(1, 6)
    assert s.proposal()["input"]["source"] == "corrected"
    s.confirm()
    s.close()                                                 # waits for the keeper's turn
    assert len(kept) == 1
    got_frame, dice, values = kept[0]
    assert got_frame is frame and values == [6, 5, 4, 3, 2, 1, 1]
    assert [d["box"] for d in dice] == [[10 + 40 * i, 10, 30, 30] for i in range(7)]


def test_no_roll_is_kept_without_a_reading_of_this_step_or_for_other_inputs(tmp_path, profile):
    kept = []
    frame = np.full((480, 640, 3), 90, np.uint8)
    s = Session(GameStore(tmp_path / "g.sqlite3"), profile, camera=Camera(frame),
                reader=lambda f: _reading([6, 5, 4, 3, 2, 1, 1]),
                roll_keeper=lambda *roll: kept.append(roll))
    s.new_game(SETUP)
    s.submit({"type": "gate_roll", "dice": [6, 5, 4, 3, 2, 1, 1]}, 0)     # typed in, nothing read
    s.undo()
    s.desk.read_dice()
    # Typed by hand over a reading (the tray may still hold the roll before): no frame labelled.
    s.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6], "source": "hand"}, s.game.version)
    s.undo()
    s.desk.read_dice()
    s.confirm()                                               # the reading as read: kept
    s.desk.read_dice()                                             # a reading at the next step (a pick) ...
    s.submit({"type": "pick", "area": "works"}, s.game.version)   # ... entered as something else
    s.close()
    assert len(kept) == 1 and kept[0][2] == [6, 5, 4, 3, 2, 1, 1]


def _reading(values):
    from vision.reading import Die, Reading
    return Reading(tuple(Die(v, (25.0 + 40 * i, 25.0), (10 + 40 * i, 10, 30, 30), 0.9)
                         for i, v in enumerate(values)), 640, 480)


def test_the_companion_keeps_confirmed_rolls_unless_switched_off(tmp_path):
    from tests.test_table_loop_demo import press_and_wait

    for keep in ("true", "false"):
        data = tmp_path / keep
        config = load_config(None, env={"ATLANDICE_DATA_DIR": str(data), "ATLANDICE_CAMERA_SOURCE": "demo",
                                        "ATLANDICE_GPIO_PIN_FACTORY": "mock", "ATLANDICE_DICE_KEEP_ROLLS": keep})
        companion = build(config, announce=lambda text: None)
        try:
            companion.session.new_game(SETUP)
            press_and_wait(companion, "read")
            press_and_wait(companion, "confirm")
        finally:
            companion.close()
        kept = rolls_dir(data) / "labels.csv"
        if keep == "true":
            labels = load_labels(str(rolls_dir(data)))
            assert sorted(v for v, *_ in next(iter(labels.values()))) == [1, 2, 3, 4, 5, 5, 6]
        else:
            assert not kept.exists()


def test_companion_dice_export_and_clear(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ATLANDICE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ATLANDICE_CONFIG", "")
    frame, truth = render_scene([1, 2], seed=3, size=(640, 480), die_px=48)
    RollKeeper(rolls_dir(tmp_path / "data"), 10**7)(frame, dice_of(truth), [1, 2])
    assert companion_main(["dice", "export", str(tmp_path / "out")]) == 0
    assert "1 rolls written" in capsys.readouterr().out
    assert len(load_labels(str(tmp_path / "out"))) == 1
    assert companion_main(["dice", "export", str(tmp_path / "out")]) == 2      # not empty: one clear line
    assert "not an empty folder" in capsys.readouterr().err
    assert companion_main(["dice", "clear"]) == 0
    assert not rolls_dir(tmp_path / "data").exists()


def test_a_roll_cut_short_by_a_full_card_leaves_nothing_behind(tmp_path, monkeypatch, caplog):
    import errno
    from pathlib import Path

    frame, truth = render_scene([2, 6], seed=1, size=(640, 480), die_px=48)
    keeper = RollKeeper(tmp_path / "rolls", max_bytes=10**7)
    first = keeper(frame, dice_of(truth), [2, 6])
    real = Path.write_bytes

    def full(self, data):
        real(self, data[:100])                    # half written, then the card is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    assert keeper(frame, dice_of(truth), [2, 6]) is None
    monkeypatch.undo()
    assert os.listdir(tmp_path / "rolls" / "images") == [first]          # no roll-*.jpg.tmp left
    assert list(load_labels(str(tmp_path / "rolls"))) == [first]


def test_rows_that_cannot_be_written_take_their_image_and_half_row_away(tmp_path, monkeypatch):
    import csv as csv_module

    frame, truth = render_scene([2, 6], seed=1, size=(640, 480), die_px=48)
    keeper = RollKeeper(tmp_path / "rolls", max_bytes=10**7)
    first = keeper(frame, dice_of(truth), [2, 6])
    before = (tmp_path / "rolls" / "labels.csv").read_bytes()

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def writerow(self, row):
            raise OSError(28, "No space left on device")

        def writerows(self, rows):
            self.fh.write("roll-half,")
            self.fh.flush()
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(csv_module, "writer", Full)
    assert keeper(frame, dice_of(truth), [2, 6]) is None
    monkeypatch.undo()
    assert os.listdir(tmp_path / "rolls" / "images") == [first]
    assert (tmp_path / "rolls" / "labels.csv").read_bytes() == before


def test_unfinished_files_are_swept_at_start(tmp_path):
    data = tmp_path / "data"
    images = rolls_dir(data) / "images"
    images.mkdir(parents=True)
    (images / "roll-20260101-200000-000.jpg.tmp").write_bytes(b"half")
    (images / "roll-20260101-200000-000.jpg").write_bytes(b"kept")
    (rolls_dir(data) / "labels.tmp").write_text("image,value")
    config = load_config(None, env={"ATLANDICE_DATA_DIR": str(data), "ATLANDICE_CAMERA_SOURCE": "demo",
                                    "ATLANDICE_GPIO_PIN_FACTORY": "mock"})
    companion = build(config, announce=lambda text: None)
    companion.close()
    assert os.listdir(images) == ["roll-20260101-200000-000.jpg"]
    assert not (rolls_dir(data) / "labels.tmp").exists()
