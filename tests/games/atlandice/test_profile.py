"""The board profile (R12): the default loads unconfirmed; wrong ones are refused with the reason."""

import pytest

from companion.game_profiles import ProfileError, load_profile, save_profile, toml_text
from companion.games.atlandice import RuleError
from companion.games.atlandice.profile import validate_new_profile, validate_profile


def test_default_profile_loads_and_is_unconfirmed(profile):
    assert profile["confirmed"] is False
    assert profile["track"][0] == "start" and profile["track"][-1] == "end"
    assert (profile["icons"]["E1"], profile["icons"]["E2"], profile["icons"]["E3"]) == (1, 2, 3)


def test_dump_and_load_round_trip(profile, tmp_path):
    changed = dict(profile, confirmed=True, name="my copy", track=profile["track"][:-2] + ["donation", "end"])
    path = tmp_path / "p.toml"
    save_profile(changed, path)
    assert load_profile(path) == validate_profile(changed)
    assert "confirmed = true" in toml_text(validate_profile(changed))


def test_any_name_the_profile_takes_is_written_as_valid_toml(profile, tmp_path):
    # A name with a newline was once saved, and the companion then would not start.
    for name in ['say "hi" \\ back\\slash', "Tabuleiro do João ★", "x = 1 # [icons]"]:
        path = tmp_path / "p.toml"
        save_profile(dict(profile, name=name), path)
        assert load_profile(path)["name"] == name.strip()


@pytest.mark.parametrize("change,fragment", [
    (lambda p: p.update(track=["start", "", "end"]), "5 to 60"),
    (lambda p: p.update(track=["", "", "", "", "", "end"]), "begin with 'start'"),
    (lambda p: p["track"].__setitem__(2, "survey:gold"), "space 2"),
    (lambda p: p["icons"].__setitem__("J-odd", 4), "J-odd"),
    (lambda p: p["icons"].pop("market"), "market"),
    (lambda p: p["icons"].__setitem__("Z-tile", 1), "unknown tile"),
    (lambda p: p.update(confirmed="yes"), "confirmed"),
])
def test_wrong_profiles_are_refused_with_the_reason(profile, change, fragment):
    bad = {**profile, "track": list(profile["track"]), "icons": dict(profile["icons"])}
    change(bad)
    with pytest.raises(RuleError) as err:
        validate_profile(bad)
    assert fragment in err.value.message and err.value.rule == "R12"


def test_unreadable_profile_files_say_which_and_why(tmp_path):
    missing = tmp_path / "none.toml"
    with pytest.raises(ProfileError) as err:
        load_profile(missing)
    assert "none.toml" in str(err.value)
    broken = tmp_path / "broken.toml"
    broken.write_text("track = [")
    with pytest.raises(ProfileError) as err:
        load_profile(broken)
    assert "not valid TOML" in str(err.value)


@pytest.mark.parametrize("name", ["two\nlines", {"a": 1}, None, "x" * 61, "   "])
def test_a_profile_set_now_needs_a_one_line_name(profile, name):
    with pytest.raises(RuleError) as err:
        validate_new_profile(dict(profile, name=name))
    assert "'name'" in err.value.message and err.value.rule == "R12"
    # A record that began with such a profile (saved before the rule) still replays.
    if isinstance(name, str):
        assert validate_profile(dict(profile, name=name))["name"] == name
