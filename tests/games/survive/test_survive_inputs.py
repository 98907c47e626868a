"""Inputs the engine cannot understand are refused as invalid (RuleError), never a crash."""

import pytest

from companion.games.survive import RuleError, apply, normalize

from .conftest import fresh


@pytest.mark.parametrize("kind", [["done"], {"type": "done"}, [], {}, None, 3])
def test_a_type_that_is_not_a_word_is_refused(profile, kind):
    with pytest.raises(RuleError) as err:
        normalize({"type": kind})
    assert (err.value.kind, err.value.key) == ("invalid", "input_type")
    state = fresh(profile, 3)
    with pytest.raises(RuleError) as err:
        apply(state, {"type": kind})
    assert err.value.key == "input_type"


@pytest.mark.parametrize("inp", [
    {"type": "saved", "colour": ["red"]}, {"type": "remove", "terrain": {"beach": 1}},
    {"type": "creature_roll", "face": ["shark"]}, {"type": "setup", "step": [1]},
    {"type": "values", "colour": "red", "values": [[1]]}, {"type": "remove", "terrain": "beach", "surrounded": []},
])
def test_a_field_that_is_a_list_or_an_object_is_refused(inp):
    with pytest.raises(RuleError) as err:
        normalize(inp)
    assert (err.value.kind, err.value.key) == ("invalid", "input_field")
