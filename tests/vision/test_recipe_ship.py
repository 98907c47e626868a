"""The shipping rule (vision_tools/ship.py): the stress sets' lines counted, and the verdict."""

import pytest

from vision_tools import ship


def test_the_stress_lines_are_counted_right_and_silent():
    cocked = ("dice cocked on an edge (240 rolls of 1-4 dice, one leaning 25-52 deg): leaning under 38 deg: "
              "right 50, unsure 20, wrong 1, missed 3, valued phantoms beside it 2; leaning 38-52 (no face up): "
              "given a value 4 (its top face 3), unsure 90, missed 5, valued phantoms beside it 1; the dice lying "
              "flat: right 300, unsure 10, wrong 2, missed 1, valued phantoms elsewhere 0")
    assert ship.stress_counts(cocked) == (350, 1 + 2 + 4 + 1 + 2 + 0)
    seen = ("see-through dice (150 rolls of 1-7 translucent dice, the middle ghost pip at 0.3-0.9): right 500, "
            "unsure 20, wrong 3 (2 as 3 2, 4 as 5 1), missed 4, valued phantoms 1; frames complete but wrong 2")
    assert ship.stress_counts(seen) == (500, 4)
    assert ship.stress_counts("checkerboards and blocky noise (195 frames, no die): valued phantoms 3, "
                              "unsure phantoms 9; frames with a phantom 10") == (0, 3)


def _rows(right, silent):
    return [{"name": "a", "right": right[0], "silent": silent[0]}, {"name": "b", "right": right[1], "silent": silent[1]}]


def test_a_candidate_ships_when_silent_errors_do_not_grow_and_right_dice_do():
    assert ship.verdict(_rows((10, 10), (2, 2)), _rows((11, 10), (3, 1)))[0]          # moved, not grown
    assert not ship.verdict(_rows((10, 10), (2, 2)), _rows((20, 20), (3, 2)))[0]      # one more silent error
    assert not ship.verdict(_rows((10, 10), (2, 2)), _rows((10, 10), (0, 0)))[0]      # no more dice read right
    ships, table = ship.verdict(_rows((10, 10), (2, 2)), _rows((11, 10), (2, 2)))
    assert ships and "| a |" in table and "SHIPS" in table


def test_the_held_out_rows_are_shown_but_not_summed():
    """A candidate worse on photos no net trained on is told, not judged twice: those photos are in
    their folders' rows already."""
    held = {"name": "h, held-out fifth", "right": 5, "silent": 0, "held_out": True}
    worse = dict(held, right=1, silent=9)
    ships, table = ship.verdict(_rows((10, 10), (2, 2)) + [held], _rows((11, 10), (2, 2)) + [worse])
    assert ships and "| h, held-out fifth |" in table and "not summed" in table
    assert "| **all** | | | | 20 / 21 | 4 / 4 | |" in table
    assert table.index("| b |") < table.index("| **all**") < table.index("| h, held-out")


def test_a_candidate_is_measured_with_other_settings_only_when_asked(tmp_path, monkeypatch):
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "labels.csv").write_text("image,value,x,y,w,h\n")
    seen = []
    monkeypatch.setattr(ship.bench, "run", lambda folder, config, **kw: (seen.append(config), (None, None))[1])
    monkeypatch.setattr(ship.bench, "figures", lambda total: {"correct": 1, "silent": 0, "dice": 1, "per_die": 1.0,
                                                             "exact_roll_rate": 1.0, "silent_rate": 0.0,
                                                             "cpu_median_ms_720p": 1.0})
    monkeypatch.setattr(ship, "STRESS", ())
    ship.measure("M", str(tmp_path), say=lambda *a: None)
    ship.measure("M", str(tmp_path), say=lambda *a: None, tuning={"p_sure": 0.55})
    assert [(c.models, c.p_sure) for c in seen] == [("M", ship.Config().p_sure), ("M", 0.55)]
    # the settings shipped with nets are the reader's defaults: never set for another folder of nets
    assert ship.main([str(tmp_path), "--shipped", str(tmp_path), "--set", "p_sure=0.6", "--apply"]) == 2


def test_settings_shipped_with_nets_become_the_readers_defaults_comments_kept(tmp_path, monkeypatch):
    import importlib.util
    import sys

    path = tmp_path / "settings.py"
    path.write_text(open(ship.settings_module.__file__).read())
    ship.write_defaults({"p_sure": 0.6, "min_score": 0.35, "two_views": False}, str(path))
    spec = importlib.util.spec_from_file_location("settings_copy", path)
    copy = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "settings_copy", copy)       # dataclasses look their module up
    spec.loader.exec_module(copy)
    c = copy.Config()
    assert (c.p_sure, c.min_score, c.two_views, c.p_backed) == (0.6, 0.35, False, ship.Config().p_backed)
    assert "p_sure: float = 0.6          # classifier probability needed" in path.read_text()
    before = path.read_text()
    with pytest.raises(ValueError):
        ship.write_defaults({"p_sure": 0.5, "no_such": 1.0}, str(path))
    assert path.read_text() == before             # refused whole
