"""The value types."""

import json

from vision import Die, Reading


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
