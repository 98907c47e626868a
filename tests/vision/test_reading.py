"""The value types."""

import json

from vision import Die, Reading
from vision.reading import in_reading_order


def test_to_dict_is_the_documented_json():
    r = Reading((Die(3, (10.04, 20.0), (1, 2, 30, 31), 0.9712),
                 Die(None, (50.0, 60.0), (40, 50, 20, 20), 0.2, "faint")), 640, 480)
    d = r.to_dict()
    assert d == {"dice": [
        {"value": 3, "center": [10.0, 20.0], "box": [1, 2, 30, 31], "confidence": 0.971},
        {"value": None, "center": [50.0, 60.0], "box": [40, 50, 20, 20], "confidence": 0.2}]}
    assert json.loads(json.dumps(d))["dice"][1]["value"] is None


def test_complete_and_total():
    sure = Die(4, (0, 0), (0, 0, 1, 1), 1.0)
    unsure = Die(None, (0, 0), (0, 0, 1, 1), 0.1)
    assert Reading((sure, sure)).total() == 8 and Reading((sure,)).complete
    assert Reading((sure, unsure)).total() is None and not Reading((sure, unsure)).complete
    assert Reading(()).total() is None and not Reading(()).complete
    assert Reading((sure, unsure)).unsure == [unsure]


def _die(x, y, side=60):
    return Die(1, (x, y), (int(x - side / 2), int(y - side / 2), side, side), 1.0)


def test_dice_come_in_rows_top_to_bottom_each_left_to_right():
    # One row whose dice straddle y = 150 (fixed bands of 60 px would split it at 2.5),
    # then a second row well below.
    a, b, c = _die(50, 151), _die(300, 149), _die(200, 160)
    d, e = _die(250, 260), _die(50, 270)
    assert in_reading_order([b, d, a, e, c]) == [a, c, b, e, d]


def test_a_die_more_than_half_a_die_below_a_row_starts_the_next():
    top, low = _die(100, 100), _die(50, 131)
    assert in_reading_order([low, top]) == [top, low]
    assert in_reading_order([_die(50, 129), top]) == [_die(50, 129), top]
