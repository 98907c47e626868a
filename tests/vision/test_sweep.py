"""The training tools: the threshold sweep scores a detection with the reader's own decision; folder lists."""

from dataclasses import replace

import numpy as np
import pytest

from vision.settings import Config
from vision_tools.train.sweep import grid_point, score


def probs(not_die: float, value: int, p: float) -> np.ndarray:
    out = np.full(7, (1.0 - not_die - p) / 5, np.float32)
    out[0], out[value] = not_die, p
    return out


def row(first, wide, det_score, label, cut=-1.0, side=50.0):
    """A sweep row: a detection well inside the frame, of a die 50 px across unless told."""
    return (first, wide, det_score, cut, side, label)


def at(p_sure=0.7, p_not=0.6, p_look=0.7, p_backed=None, **settings):
    return grid_point(replace(Config(), **settings), p_sure, p_not, p_look, p_backed)


SURE_3 = probs(0.0, 3, 0.98)
DOUBT_3 = probs(0.1, 3, 0.5)       # a die, but no value the first net is sure of
WIDE_3 = probs(0.0, 3, 0.9)
WIDE_5 = probs(0.0, 5, 0.9)


def test_a_die_the_first_net_is_sure_of_is_not_read_again():
    r = score([row(SURE_3, WIDE_5, 0.9, 3)], n=1, missed=0, s=at())
    assert (r["acc"], r["wrong"], r["unsure"]) == (1.0, 0, 0)


def test_the_second_look_values_a_doubtful_die_when_the_two_nets_agree():
    rows = [row(DOUBT_3, WIDE_3, 0.9, 3)]
    assert score(rows, 1, 0, at(p_look=0.7))["acc"] == 1.0
    assert score(rows, 1, 0, at(p_look=0.0))["unsure"] == 1     # p_look 0: the first net alone


def test_a_second_look_that_disagrees_leaves_the_die_unsure_not_wrong():
    r = score([row(DOUBT_3, WIDE_5, 0.9, 5)], 1, 0, at())
    assert (r["acc"], r["wrong"], r["unsure"]) == (0.0, 0, 1)


def test_no_value_from_the_second_look_when_the_first_net_more_likely_calls_it_no_die():
    # As the reader: kept (0.52 < p_not_die), but "not a die" is the first net's best guess.
    hidden = probs(0.52, 3, 0.30)
    r = score([row(hidden, WIDE_3, 0.9, 3)], 1, 0, at())
    assert (r["acc"], r["wrong"], r["unsure"]) == (0.0, 0, 1)
    leaning = probs(0.30, 3, 0.52)
    assert score([row(leaning, WIDE_3, 0.9, 3)], 1, 0, at())["acc"] == 1.0


def test_the_first_net_alone_drops_what_is_not_a_die():
    not_a_die = probs(0.8, 2, 0.1)
    r = score([row(not_a_die, WIDE_3, 0.9, 3), row(not_a_die, WIDE_3, 0.9, None)], 1, 0, at())
    assert (r["missed"], r["phantom"]) == (1, 0)
    r = score([row(probs(0.3, 3, 0.5), probs(0.9, 3, 0.05), 0.9, None)], 1, 0, at())
    assert (r["phantom"], r["phantom_valued"]) == (1, 0)  # the wide net's doubt is unsure, not dropped


def test_a_value_below_p_vouch_needs_the_wider_nets_backing_as_in_the_reader():
    leaning_6 = probs(0.0, 6, 0.8)                     # the first net: a 6, below p_vouch
    doubting = probs(0.0, 6, 0.45)                     # the wider net gives the 6 only 0.45
    doubting[5] = 0.4
    for first, wide, want in [(leaning_6, doubting, "unsure"), (leaning_6, probs(0.0, 6, 0.6), "acc"),
                              (probs(0.0, 6, 0.98), doubting, "acc")]:   # sure: the wider net is not asked
        r = score([row(first, wide, 0.9, 6)], 1, 0, at(p_backed=0.5))
        assert (r["acc"], r["unsure"]) == ((1.0, 0) if want == "acc" else (0.0, 1)), (first, wide)
    assert score([row(leaning_6, doubting, 0.9, 6)], 1, 0, at(p_backed=0.0))["acc"] == 1.0
    fairly_sure = probs(0.0, 6, 0.93)                  # the reader's range is the sweep's too
    for vouch, want in [(0.9, "acc"), (0.95, "unsure")]:
        r = score([row(fairly_sure, doubting, 0.9, 6)], 1, 0, at(p_backed=0.5, p_vouch=vouch))
        assert (r["acc"], r["unsure"]) == ((1.0, 0) if want == "acc" else (0.0, 1)), vouch


def test_a_faint_detection_never_gets_a_value():
    r = score([row(SURE_3, WIDE_3, Config.min_score - 0.01, 3)], 1, 0, at())
    assert r["unsure"] == 1


def test_a_die_cut_by_the_frame_or_tiny_gets_no_value_as_in_the_reader():
    # The sweep's decision is the reader's: where a die lies and its size count too.
    assert score([row(SURE_3, WIDE_3, 0.9, 3, cut=Config.edge + 0.01)], 1, 0, at())["unsure"] == 1
    assert score([row(SURE_3, WIDE_3, 0.9, 3, side=Config.min_side - 1)], 1, 0, at())["unsure"] == 1
    assert score([row(SURE_3, WIDE_3, 0.9, 3, cut=Config.edge - 0.01)], 1, 0, at())["acc"] == 1.0


def test_folder_lists_name_only_shared_folders():
    from vision_tools.train.data import FOLDERS, folder_list

    assert folder_list("rune55-gray") == ("rune55-gray",)
    assert folder_list(",".join(FOLDERS)) == FOLDERS
    for bad in ("", "nell", "nell-byler,../secret"):
        with pytest.raises(ValueError):
            folder_list(bad)


def test_the_measuring_scripts_options_reach_the_reader():
    import argparse

    from vision_tools.train.options import add_reader_options, reader_settings

    ap = argparse.ArgumentParser()
    add_reader_options(ap)
    assert reader_settings(ap.parse_args([])) == Config()
    s = reader_settings(ap.parse_args(["--models", "/elsewhere", "--vouch", "0.9"]))
    assert (s.models, s.p_vouch) == ("/elsewhere", 0.9)
    assert s == replace(Config(), models="/elsewhere", p_vouch=0.9)
    assert Config().p_vouch == 0.95                   # the shipped settings are untouched
    s = reader_settings(ap.parse_args(["--set", "two_views=false", "--set", "p_sure=0.8", "--set", "nms=1"]))
    assert s == replace(Config(), two_views=False, p_sure=0.8, nms=1.0)
    for bad in ("p_sure", "p_sure=", "p_sure=high", "two_views=maybe", "models=/x", "roi=1", "nothing=1"):
        with pytest.raises(SystemExit):
            ap.parse_args(["--set", bad])
