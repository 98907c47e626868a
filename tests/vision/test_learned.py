"""The learned reader (vision/learned.py) on rendered scenes: OpenCV alone, right or unsure."""

import dataclasses
from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision

from vision import classifier, decision, detector, learned, nets
from vision.close_up import close_up
from vision.render import render_scene
from vision.settings import Config

pytestmark = pytest.mark.skipif(not nets.available(), reason="vision/models/*.onnx not present")

S = Config()   # the shipped settings


def judge(p, score, cut, **kw):
    return decision.judge(p, score, cut, S, **kw)


def _scenes(die_lo=40, die_hi=90, n=12, size=(1280, 720)):
    rng = np.random.default_rng(5)
    for i in range(n):
        vals = rng.integers(1, 7, int(rng.integers(1, 8))).tolist()
        yield render_scene(vals, seed=100 + i, die_px=float(rng.uniform(die_lo, die_hi)), size=size)


def _tally(reader, scenes):
    right = wrong = total = 0
    for img, truth in scenes:
        r = reader(img)
        for t in truth:
            total += 1
            near = [d for d in r.dice
                    if np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]) < t.side / 2]
            if near and near[0].value is not None:
                if near[0].value == t.value:
                    right += 1
                else:
                    wrong += 1
    return right, wrong, total


def test_reads_rendered_dice_and_never_guesses():
    right, wrong, total = _tally(learned.read_learned, _scenes())
    assert wrong == 0
    assert right >= 0.9 * total


def test_auto_zoom_reads_dice_far_bigger_than_the_first_pass_expects():
    # 230 px dice on a 1280x720 frame: the first pass sees them at ~70 detector
    # pixels, above the sizes it reads best; a second pass at zoom_out[1] too.
    right, wrong, total = _tally(learned.read_learned, _scenes(200, 240, n=4))
    assert wrong == 0
    assert right >= 0.75 * total


def test_auto_zoom_reads_dice_far_smaller_than_the_first_pass_expects():
    # 20 px dice on a 1920x1080 frame: ~4 detector pixels in the first pass, which
    # rates them ~10 (its floor); the second pass brings them to zoom_in[1]. (Before
    # zoom_in rose from 8 to 12, it never fired: 3 of these 19 dice were read.)
    right, wrong, total = _tally(learned.read_learned, _scenes(18, 22, n=4, size=(1920, 1080)))
    assert wrong == 0
    assert right >= 0.6 * total


class Scripted:
    """Stands in for the nets (Config(models=Scripted(...))): each net's output from `outputs`,
    a function (name, blob) -> output; the nets asked, with their batch sizes, in `seen`."""

    def __init__(self, outputs):
        self.outputs, self.seen = outputs, []

    def run(self, name, blob):
        self.seen.append((name, len(blob)))
        return self.outputs(name, blob)


def classifiers(first, wide=None, real=None):
    """Scripted classifiers: probabilities `first` (7,) for every crop, `wide` from the wider net
    (None: first's); `real`: the shipped nets answer the rest (the detector)."""
    def outputs(name, blob):
        if name == nets.DET_NET:
            return nets.run(real, name, blob)
        p = wide if name == nets.WIDE_NET and wide is not None else first
        return np.tile(np.log(np.maximum(p, 1e-12)), (len(blob), 1)).astype(np.float32)   # softmax gives p back
    return Scripted(outputs)


def test_a_small_tray_area_is_padded_for_the_detector_and_the_padding_has_no_dice():
    seen = []

    def run(name, blob):
        seen.append(blob)
        out = np.full((1, 4, blob.shape[2] // 4, blob.shape[3] // 4), -9.0, np.float32)
        out[0, 1] = np.log(5.0)                 # every die 5 detector px across
        out[0, 2:] = 0.0
        out[0, 0, 3, 4] = 5.0                   # a die inside the area (row 3, column 4)
        out[0, 0, 8, 4] = 6.0                   # a stronger peak just below it, on the padding
        return out

    # 624 x 100 px at scale 1/3: a 208 x 32 input, too low only (padded to 208 x 128).
    area = np.random.default_rng(0).integers(0, 256, (100, 624, 3), dtype=np.uint8)
    peaks, s = detector._peaks(area, 1 / 3, replace(S, models=Scripted(run)))
    blob = seen[0]
    assert blob.shape == (1, 3, detector.DET_MIN, 208)
    small = cv2.resize(area, (208, 32), interpolation=cv2.INTER_LINEAR)
    assert np.allclose(blob[0, :, 32:, :], small.mean(axis=(0, 1)).reshape(3, 1, 1) / 255.0, atol=1 / 255)
    assert np.allclose(blob[0, :, :32, :], small.transpose(2, 0, 1) / 255.0)
    assert abs(s - np.sqrt(208 * 32 / (624 * 100))) < 1e-9   # the scale of the unpadded input
    assert len(peaks) == 1                       # the padding's peak neither counts nor hides it
    cx, cy, side, _ = peaks[0]
    kx, ky = 624 / 208, 100 / 32                 # detector px -> area px
    assert abs(cx - 4.5 * 4 * kx) < 1e-4 and abs(cy - 3.5 * 4 * ky) < 1e-4
    assert abs(side - 5 * np.sqrt(kx * ky)) < 1e-4


def _two_passes(first, second, first_scale=0.3):
    """A detector pass answering `first` on the first pass and `second` on any other, and the
    scales it was asked for."""
    calls = []

    def peaks(frame, scale, s):
        calls.append(scale)
        return (first, first_scale) if scale is None else (second, scale)

    return peaks, calls


def test_big_dice_are_looked_for_on_a_smaller_frame_too_and_both_passes_kept():
    frame = np.zeros((720, 1280, 3), np.uint8)
    # First pass (scale 0.3): two dice of 200 px (60 detector px), one of them
    # also found by the shrunk pass; the shrunk pass finds a third die.
    a, b = (300.0, 300.0, 200.0, 0.9), (700.0, 300.0, 200.0, 0.8)
    a2, c = (305.0, 298.0, 190.0, 0.95), (1000.0, 500.0, 210.0, 0.7)
    peaks, calls = _two_passes([a, b], [a2, c])
    dets = detector.detect(frame, S, peaks)
    assert calls[1] == pytest.approx(0.3 * S.zoom_out[1] / 60.0)
    assert sorted(dets) == sorted([a2, c, b])      # a is a2: one die, one peak


@pytest.mark.parametrize("first", [
    [(300.0, 300.0, 100.0, 0.9), (700.0, 300.0, 110.0, 0.9)],    # 30-33 detector px: read well
    [(300.0, 300.0, 200.0, 0.45), (700.0, 300.0, 100.0, 0.9)],   # big, but faint: not counted
])
def test_dice_the_detector_reads_well_get_one_pass(first):
    frame = np.zeros((720, 1280, 3), np.uint8)
    peaks, calls = _two_passes(first, [(1.0, 1.0, 1.0, 1.0)])
    assert detector.detect(frame, S, peaks) == first and calls == [None]


def test_die_size_estimate_follows_the_dice():
    # The detector measures the square box around the die (face side to 1.41 x it).
    for die_px in (40, 70, 150):
        img, truth = render_scene([2, 5, 6], seed=3, die_px=die_px)
        dets = detector.detect(img, S)
        assert len(dets) == 3
        for t in truth:
            box = t.box_side
            d = min(dets, key=lambda d: np.hypot(d[0] - t.center[0], d[1] - t.center[1]))
            assert np.hypot(d[0] - t.center[0], d[1] - t.center[1]) < 0.15 * t.side
            assert 0.75 * box < d[2] < 1.5 * box, (die_px, box, d)


def _beside(big, small, seed):
    """A rendered die of `big` px with one of `small` px touching it on the right or left
    (mixed sets: the nell-byler photos have 33 px dice beside 47 px ones), and the small
    die's (value, centre)."""
    rng = np.random.default_rng(seed)
    bv, sv = (int(v) for v in rng.integers(1, 7, 2))
    img, (a,) = render_scene([bv], seed=seed, die_px=big, noise=0, light=0)
    other, (b,) = render_scene([sv], seed=seed + 1, die_px=small, noise=0, light=0)
    r, bx, by = int(0.75 * b.side), int(round(b.center[0])), int(round(b.center[1]))
    patch = other[by - r:by + r, bx - r:bx + r]
    gap = (a.side + b.side) / 2 + 2
    cx = a.center[0] + gap if a.center[0] + gap + r < img.shape[1] else a.center[0] - gap
    x0, y0 = int(round(cx)) - r, int(round(a.center[1])) - r
    die = np.abs(patch.astype(int) - np.array((120, 110, 40))).sum(axis=2) > 40   # not the tray
    img[y0:y0 + 2 * r, x0:x0 + 2 * r][die] = patch[die]
    return img, a, (sv, (cx, a.center[1]))


def test_a_small_die_touching_a_bigger_one_is_a_die_of_its_own():
    # The detector peaks on both, but one die, one peak measured their distance against
    # the bigger die's side until session 19 and dropped the small one: 3 of these 8 were
    # reported. A die missed with nothing unsure left to show it is a silent error.
    seen = 0
    for seed in range(0, 80, 10):
        img, big, (value, (cx, cy)) = _beside(80, 45, seed)
        r = learned.read_learned(img)
        small = [d for d in r.dice if np.hypot(d.center[0] - cx, d.center[1] - cy) < 45 / 2]
        other = [d for d in r.dice if np.hypot(d.center[0] - big.center[0], d.center[1] - big.center[1]) < 40]
        assert all(d.value in (None, value) for d in small) and all(d.value in (None, big.value) for d in other)
        seen += bool(small)
    assert seen >= 6


def test_one_die_one_peak_weighs_both_dice_sizes():
    # The two peaks of a fit photo (IMG_20191208_111446): a 5 of 33 px touching a 2 of 47.
    assert detector.apart((538.9, 184.4, 30.1, 0.77), [(539.4, 210.4, 45.6, 0.82)], S.nms)
    # Dice of one size: as before, within NMS x their side is one die.
    assert not detector.apart((100.0, 100.0, 60.0, 0.8), [(100.0 + 0.59 * 60, 100.0, 60.0, 0.9)], S.nms)
    assert detector.apart((100.0, 100.0, 60.0, 0.8), [(100.0 + 0.61 * 60, 100.0, 60.0, 0.9)], S.nms)
    # A peak on a pip of a big die, a third of its side off centre, is that die.
    assert not detector.apart((345.0, 300.0, 40.0, 0.5), [(300.0, 300.0, 150.0, 0.9)], S.nms)


def test_a_die_peaked_close_to_a_stronger_unsure_one_may_be_its_side_face_and_is_unsure():
    # A die cocked on an edge peaks on its top face and on the side face beside it, which
    # may read clearly (a rendered die leaning 49 deg: a 4 at 0.97 beside its unsure top).
    close = 0.55 * 60
    dice = [_die(None, 100.0, 100.0, 60.0, "disagree"), _die(4, 100.0 + close, 100.0, 60.0)]
    out = decision.beside_unclear(dice, [(100.0, 100.0, 60.0, 0.62), (100.0 + close, 100.0, 60.0, 0.61)], S)
    assert [(d.value, d.reason) for d in out] == [(None, "disagree"), (None, "crowded")]
    assert out[1].center == dice[1].center and out[1].box == dice[1].box
    # Beside a stronger die that is valued, or a weaker unsure one, or far enough: kept.
    valued = [_die(5, 100.0, 100.0, 60.0), dice[1]]
    weaker = [_die(None, 100.0, 100.0, 60.0, "faint"), dice[1]]
    peaks = [(100.0, 100.0, 60.0, 0.62), (100.0 + close, 100.0, 60.0, 0.61)]
    assert decision.beside_unclear(valued, peaks, S) == valued
    assert decision.beside_unclear(weaker, [peaks[0][:3] + (0.3,), peaks[1]], S) == weaker
    far = [(100.0, 100.0, 60.0, 0.62), (100.0 + 0.61 * 60, 100.0, 60.0, 0.61)]
    assert decision.beside_unclear(dice, far, S) == dice
    with pytest.raises(ValueError):     # a die without its peak: never matched to another's
        decision.beside_unclear(dice, peaks[:1], S)


def test_no_value_beside_a_cocked_die_from_its_own_side_face():
    # The cocked-dice stress set's roll 36: a 1 leaning 49 deg, two of its faces 40 px
    # apart; its top unsure, the side face a 4 at 0.97 when kept as a die of its own.
    img, truth = render_scene([1, 1], seed=2036, size=(640, 480), die_px=59.5, touching=True,
                              cocked=[48.7, 0.0])
    x, y, w, h = truth[0].box
    on_it = [d for d in learned.read_learned(img).dice
             if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
    assert len(on_it) >= 1 and all(d.value is None for d in on_it), on_it


def test_calibrated_size_and_tray_area_are_used():
    img, truth = render_scene([4, 1, 3], seed=8, die_px=60)
    cfg = Config(die_px=60.0)
    r = learned.read_learned(img, cfg)
    assert sorted(d.value for d in r.dice if d.value) == [1, 3, 4]
    # A tray area that holds only the first die: the others are not reported.
    t = truth[0]
    roi = (int(t.center[0] - 70), int(t.center[1] - 70), 140, 140)
    r = learned.read_learned(img, Config(die_px=60.0, roi=roi))
    assert [d.value for d in r.dice] == [t.value]
    assert abs(r.dice[0].center[0] - t.center[0]) < 6 and abs(r.dice[0].center[1] - t.center[1]) < 6


def test_two_views_agree_with_one_on_clear_dice():
    img, truth = render_scene([1, 2, 3, 4, 5, 6], seed=11, die_px=64)
    boxes = [(t.center[0], t.center[1], t.box_side) for t in truth]
    one = classifier.classify(img, boxes, replace(S, two_views=False))
    two = classifier.classify(img, boxes, replace(S, two_views=True))
    assert one.shape == two.shape == (6, 7)
    assert np.allclose(two.sum(axis=1), 1.0, atol=1e-4)
    assert list(one.argmax(axis=1)) == list(two.argmax(axis=1)) == [1, 2, 3, 4, 5, 6]


def test_the_second_look_rereads_only_the_dice_the_first_net_cannot_value():
    img, truth = render_scene([1, 3, 5, 6], seed=12, die_px=50, blur=1.0, noise=5.0)
    boxes = [(t.center[0], t.center[1], t.box_side) for t in truth]
    first = classifier.classify(img, boxes, S)
    wide = classifier.classify(img, boxes, S, net=nets.WIDE_NET)
    assert not np.allclose(first, wide, atol=1e-3)        # two nets, so the test below can fail
    cut = float(np.median(first[:, 1:].max(axis=1)))      # some dice below it, some not
    s = replace(S, p_look=cut)
    low = decision.looked_at(first, s)
    assert 0 < low.sum() < len(boxes)
    assert np.array_equal(low, first[:, 1:].max(axis=1) < cut)
    looked = classifier.wide_probs(img, boxes, low, s)
    assert np.allclose(looked[low], wide[low], atol=1e-6) and not looked[~low].any()
    # What the first net calls "not a die" is not read again, whatever its value's probability.
    not_die = first.copy()
    not_die[:, 0] = S.p_not_die
    assert not decision.looked_at(not_die, s).any() and not decision.to_back(not_die, s).any()


def test_the_share_of_a_die_cut_by_the_frame():
    side, W, H = 100.0, 640, 480
    assert decision.cut_by_frame(320.0, 240.0, side, W, H) < 0                  # well inside
    assert decision.cut_by_frame(50.0, 240.0, side, W, H) == 0.0                # box touching the left side
    assert abs(decision.cut_by_frame(20.0, 240.0, side, W, H) - 0.3) < 1e-9     # 30 px out on the left
    assert abs(decision.cut_by_frame(320.0, H - 1 - 50.0 + 20.0, side, W, H) - 0.2) < 1e-9   # the bottom too
    assert decision.cut_by_frame(0.0, 240.0, side, W, H) == 0.5                 # half of it out


def test_judge_at_the_frame_edge():
    j, sure, fair = judge, _p(6, 0.95), _p(6, 0.8)
    assert j(fair, 0.9, S.near_edge) == (6, "")                       # only slightly out
    assert j(fair, 0.9, S.near_edge + 0.01) == (None, "edge")         # half a 6 may show a 3
    assert j(sure, 0.9, S.near_edge + 0.01) == (6, "")                # sure: p_edge or more
    assert j(sure, 0.9, S.edge + 0.01) == (None, "edge")              # too much of it out


def test_a_die_cut_in_half_by_the_frame_is_unsure_a_whole_one_beside_it_is_read():
    img, truth = render_scene([6, 4], seed=4, die_px=60)
    t = min(truth, key=lambda t: t.center[0])
    half = learned.read_learned(np.ascontiguousarray(img[:, int(t.center[0]):]))
    whole = learned.read_learned(np.ascontiguousarray(img[:, max(0, int(t.center[0] - t.box_side / 2) - 2):]))
    near = lambda r: min(r.dice, key=lambda d: d.center[0])         # noqa: E731
    assert (near(half).value, near(half).reason) == (None, "edge")   # half a 6 looks like a 3
    assert near(whole).value == t.value


@pytest.mark.parametrize("values, die_px, seed, side", [
    ([6, 1, 2, 3, 3], 46.0, 35, "top"),       # a 6 cut this way shows a row of three
    ([6, 4, 3, 5, 4], 56.3, 41, "bottom"),    # a 4 cut this way shows two pips in a diagonal
])
def test_a_die_cut_by_the_frame_is_never_given_a_wrong_value(values, die_px, seed, side):
    # The detector centres a cut die on what it sees and underrates it: these were read wrong
    # (6 as 3, 4 as 2) at 30-40 % of their box out of the frame until near_edge.
    img, truth = render_scene(values, seed=seed, die_px=die_px)
    t = min(truth, key=lambda t: t.center[1] if side == "top" else -t.center[1])
    for out in (0.1, 0.2, 0.3, 0.35, 0.4, 0.45):
        if side == "top":
            y0 = int(t.center[1] - t.box_side / 2 + out * t.box_side)
            sub, cy = img[y0:], t.center[1] - y0
        else:
            y1 = int(t.center[1] + t.box_side / 2 - out * t.box_side)
            sub, cy = img[:y1], t.center[1]
        r = learned.read_learned(np.ascontiguousarray(sub))
        near = [d for d in r.dice if np.hypot(d.center[0] - t.center[0], d.center[1] - cy) < 0.6 * t.box_side]
        assert all(d.value in (None, t.value) for d in near), (out, [(d.value, d.confidence) for d in near])


def test_a_die_that_can_get_no_value_is_not_read_again():
    # A die cut by the frame's edge stays unsure whatever the wider net says: not worth its time.
    img, truth = render_scene([2, 4], seed=4, die_px=60)
    t = min(truth, key=lambda t: t.center[0])
    x0 = int(t.center[0])                                  # cut the frame through the leftmost die
    img = np.ascontiguousarray(img[:, x0:])
    shipped = Scripted(lambda name, blob: nets.run(S.models, name, blob))
    r = learned.read_learned(img, replace(S, p_look=1.01, models=shipped))   # every die below p_look
    edge = [d for d in r.dice if d.reason == "edge"]
    assert len(edge) == 1 and len(r.dice) == 2
    # each crop seen twice (as is, turned and mirrored): two dice, then the one not cut
    assert [n for n in shipped.seen if n[0] != nets.DET_NET] == [(nets.CLS_NET, 4), (nets.WIDE_NET, 2)]


def test_a_die_the_wider_net_doubts_is_reported_unsure_not_dropped():
    img, truth = render_scene([2, 4], seed=4, die_px=60)
    s = replace(S, p_look=1.01, models=classifiers(np.float32([0.0, 0.0, 0.99, 0.0, 0.01, 0.0, 0.0]),
                                                  np.float32([0.9, 0.01, 0.03, 0.02, 0.02, 0.01, 0.01]), S.models))
    r = learned.read_learned(img, s)                       # every die read again, called "not a die"
    assert len(r.dice) == 2
    assert all(d.value is None and d.reason == "unclear" for d in r.dice)
    assert all(abs(d.confidence - 0.03) < 1e-5 for d in r.dice)   # the wider net's, not the first's
    assert [d.value for d in learned.read_learned(img, replace(s, second_look=False)).dice] == [2, 2]


def test_a_second_look_that_disagrees_with_the_first_makes_the_die_unsure():
    img, _ = render_scene([2, 4], seed=4, die_px=60)
    first = np.float32([0.0, 0.0, 0.6, 0.3, 0.1, 0.0, 0.0])      # a 2, not sure: read again
    s = replace(S, models=classifiers(first, np.float32([0.0, 0.0, 0.02, 0.95, 0.03, 0.0, 0.0]), S.models))
    r = learned.read_learned(img, s)                       # the wider net: a sure 3
    assert [(d.value, d.reason) for d in r.dice] == [(None, "disagree")] * 2
    first[2:4] = [0.3, 0.6]                                # now the first net leans to 3 too
    assert [d.value for d in learned.read_learned(img, s).dice] == [3, 3]


def test_no_value_from_the_wider_net_for_a_die_the_first_more_likely_calls_no_die():
    # A die half under a hand: the first net's best guess is "not a die" (kept, as it
    # is below p_not_die), and the wider net reads the two pips it sees as a sure 2.
    img, _ = render_scene([2, 4], seed=4, die_px=60)
    first = np.float32([0.52, 0.03, 0.30, 0.05, 0.03, 0.05, 0.02])
    s = replace(S, models=classifiers(first, np.float32([0.06, 0.02, 0.80, 0.04, 0.04, 0.02, 0.02]), S.models))
    r = learned.read_learned(img, s)
    assert [(d.value, d.reason) for d in r.dice] == [(None, "disagree")] * 2
    first[[0, 2]] = [0.30, 0.52]                            # the first net leans to a 2: the value stands
    assert [d.value for d in learned.read_learned(img, s).dice] == [2, 2]


def test_a_value_below_p_vouch_needs_the_wider_nets_backing():
    # A die seen aslant whose side face shows more pips than its top: the first net
    # read a 5 as a 6 at 0.80 (rendered rolls seen aslant); the wider net gave the 6
    # less than p_backed. Below p_vouch, one net's value is not enough.
    img, _ = render_scene([2, 4], seed=4, die_px=60)
    first = np.float32([0.08, 0.01, 0.01, 0.01, 0.01, 0.08, 0.80])      # each sums to 1, as the nets' do
    wide = np.float32([0.03, 0.01, 0.01, 0.04, 0.04, 0.37, 0.50])
    backed, short = S.p_backed + 0.01, S.p_backed - 0.01

    def tail(five, six):
        first[5:], first[0] = [five, six], 1 - 0.04 - five - six

    def backing(six):
        wide[5:] = [0.87 - six, six]

    scripted = classifiers(first, wide, S.models)
    s = replace(S, models=scripted)

    def seen():
        return [name for name, _ in scripted.seen if name != nets.DET_NET]

    backing(backed)
    assert [(d.value, d.reason) for d in learned.read_learned(img, s).dice] == [(6, "")] * 2  # backed
    assert seen() == [nets.CLS_NET, nets.WIDE_NET]                          # both dice in one batch
    backing(short)
    r = learned.read_learned(img, s)
    assert [(d.value, d.reason) for d in r.dice] == [(None, "disagree")] * 2
    assert abs(r.dice[0].confidence - 0.80) < 1e-5        # the first net's: the wider one only vouches
    tail(0.03, 0.85)
    assert [d.value for d in learned.read_learned(img, s).dice] == [None, None]  # 0.85 < p_vouch: still
    tail(0.0, 0.93)                                       # 0.93: still below p_vouch
    assert [d.value for d in learned.read_learned(img, s).dice] == [None, None] and seen()[-1] == nets.WIDE_NET
    backing(backed)
    assert [d.value for d in learned.read_learned(img, s).dice] == [6, 6]
    backing(short)
    scripted.seen.clear()                                 # backing asked up to 0.9 only: 0.93 is sure
    assert [d.value for d in learned.read_learned(img, replace(s, p_vouch=0.9)).dice] == [6, 6]
    assert seen() == [nets.CLS_NET]
    tail(0.0, 0.96)                                       # 0.96, above p_vouch: the wider net is not asked
    assert [d.value for d in learned.read_learned(img, s).dice] == [6, 6] and seen() == [nets.CLS_NET] * 2
    tail(0.08, 0.80)                                      # no second look: no backing either
    assert [d.value for d in learned.read_learned(img, replace(s, second_look=False)).dice] == [6, 6]


def _die(value, cx, cy, side, reason=""):
    from vision.reading import Die
    box = (int(cx - side / 2), int(cy - side / 2), int(side), int(side))
    return Die(value, (float(cx), float(cy)), box, 0.95 if value else 0.3, reason, float(side))


def _close_up(first, again, config=None, dropped=()):
    """The close-up step on a 640x480 frame whose first reading is `first` (the first net
    dropping `dropped`), reading `again` at a close-up size: (the reading, the die sizes
    asked for)."""
    from vision.reading import Reading
    asked = []

    def read_again(s):
        asked.append(s.die_px)
        return Reading(tuple(again), 640, 480)

    frame = np.zeros((480, 640, 3), np.uint8)
    return close_up(frame, config or S, Reading(tuple(first), 640, 480), list(dropped), read_again), asked


def test_pips_taken_for_dice_are_read_again_as_the_big_die_they_belong_to():
    # A camera close over big dark dice: the detector peaks on their pips, each an unsure "die".
    pip = _die(None, 200, 200, 60, "disagree")
    far = _die(None, 560, 400, 60, "unclear")          # another big die's pip, no big die found for it
    big = _die(2, 220, 210, 200)
    r, asked = _close_up([pip, far], [big])
    assert asked == [S.close_up * 480]
    assert r.dice == (big, far)                        # the pip is the big die; the other stays unsure
    small = _die(None, 200, 200, 20, "unclear")        # pip-sized beside the small areas below too
    _, asked = _close_up([small], [big], Config(roi=(0, 0, 600, 300)))
    assert asked == [S.close_up * 300]           # the tray area's short side sets the size
    _, asked = _close_up([small], [big], Config(roi=(500, 0, 600, 400)))
    assert asked == [S.close_up * 140]           # ... clipped to the frame


@pytest.mark.parametrize("first, why", [
    ([_die(4, 100, 100, 60), _die(5, 300, 100, 60)], "every die valued"),
    ([_die(None, 200, 200, 60, "edge"), _die(None, 300, 100, 60, "faint"),
      _die(None, 400, 300, 10, "small")], "unsure only for the frame edge, faint or small"),
    ([_die(None, 200, 200, S.pip_sized * S.close_up * 480 + 1, "unclear")],
     "an unclear die too big to be a pip of a close-up die"),
])
def test_no_second_reading_without_pip_sized_unclear_dice(first, why):
    r, asked = _close_up(first, [_die(3, 220, 210, 200)])
    assert asked == [] and list(r.dice) == first, why


def test_where_the_big_dice_are_read_a_detection_called_no_die_may_be_a_pip_too():
    # The first net calls most pips of a big die "not a die": where every valued die is
    # too big to be a pip, those may be the pips of a die the detector did not see whole.
    dropped = [(200.0, 200.0, 60.0), (240.0, 230.0, 60.0)]
    big, six = _die(3, 220, 210, 200), _die(6, 500, 350, 200)
    r, asked = _close_up([six], [big, six], dropped=dropped)
    assert len(asked) == 1 and r.dice == (big, six)
    small = _die(4, 500, 350, 60)                      # a small valued die: small dice, no pips
    r, asked = _close_up([small], [big], dropped=dropped)
    assert asked == [] and r.dice == (small,)
    r, asked = _close_up([], [big], dropped=dropped)
    assert len(asked) == 1 and r.dice == (big,)    # nothing valued: the dropped may be all it saw


def test_only_the_detections_on_a_close_up_dies_face_are_its_pips():
    # The big die's box takes in the pips of the dice around it: those stay, unsure, as
    # the only trace of a die nothing else found.
    big = _die(2, 220, 210, 200)
    own = _die(None, 220 + 0.25 * 200, 210 - 0.25 * 200, 40, "disagree")
    neighbours = _die(None, 220 - 0.4 * 200, 210 + 0.4 * 200, 40, "disagree")
    r, _ = _close_up([own, neighbours], [big])
    assert set(r.dice) == {big, neighbours}
    r, asked = _close_up([neighbours], [big])
    assert len(asked) == 1 and r.dice == (neighbours,)      # no pip on its face: not taken


def test_nothing_is_taken_from_a_close_up_that_would_leave_one_of_its_dice_unmentioned():
    # Two big dice: the pips of one were unsure, the other's dropped. Taking the first
    # alone would make the reading complete, the second die gone with no word.
    pip = _die(None, 200, 200, 40, "disagree")
    taken, refused = _die(2, 220, 210, 200), _die(4, 480, 300, 200)
    assert _close_up([pip], [taken, refused])[0].dice == (pip,)
    other = _die(None, 470, 310, 40, "unclear")        # the second die still shows, unsure
    assert set(_close_up([pip, other], [taken, refused])[0].dice) == {taken, other}


def test_an_unclear_die_beside_a_valued_one_its_size_is_a_die_not_a_pip():
    # A valued die as small as 1.5 x the unclear one says the scale was right: no second
    # reading (a see-through die left unsure among read ones cost one on most frames).
    unclear = _die(None, 200, 200, 60, "unclear")
    r, asked = _close_up([unclear, _die(4, 500, 300, 85)], [_die(3, 220, 210, 200)])
    assert asked == []
    r, asked = _close_up([unclear, _die(4, 500, 300, 95)], [_die(3, 220, 210, 200)])
    assert len(asked) == 1


def test_the_first_reading_saw_at_least_half_a_close_up_dies_pips():
    # Blocky noise read as a 6 at the close-up size had one or two "pips" on it; 00046's 6, three.
    pips = [_die(None, 200 + 20 * i, 210, 30, "disagree") for i in range(3)]
    six = _die(6, 220, 210, 200)
    assert _close_up(pips[:2], [six])[0].dice == tuple(pips[:2])
    assert _close_up(pips, [six])[0].dice == (six,)


def test_a_close_up_die_covers_no_more_detections_than_its_value():
    # A die showing 2 has two pips; a patch of a checked cloth read as a die covers many.
    pips = [_die(None, 180 + 25 * i, 200, 30, "disagree") for i in range(3)]
    two, three = _die(2, 220, 210, 200), _die(3, 220, 210, 200)
    assert _close_up(pips, [two])[0].dice == tuple(pips)
    assert _close_up(pips, [three])[0].dice == (three,)
    faint = _die(None, 240, 240, 30, "faint")         # faint or dropped, each counts
    assert _close_up(pips + [faint], [three])[0].dice == tuple(pips + [faint])
    dropped = [(250.0, 180.0, 30.0)]
    assert _close_up(pips, [three], dropped=dropped)[0].dice == tuple(pips)


@pytest.mark.parametrize("big, why", [
    (_die(2, 200, 110, 200), "its box within `inside` of the frame's edge: a die cut by it, maybe"),
    (_die(None, 220, 210, 200, "unclear"), "unsure"),
    (_die(2, 220, 210, 200), "over a valued die"),
    (_die(2, 220, 210, 170), "small enough for the first pass to have seen it whole (beyond)"),
])
def test_a_close_up_die_is_taken_only_when_whole_valued_and_over_pips_alone(big, why):
    pip = _die(None, 200, 160, 60, "disagree")         # on the face of each: only `why` refuses it
    first = [pip] + ([_die(6, 300, 290, 150)] if why == "over a valued die" else [])
    r, asked = _close_up(first, [big])
    assert len(asked) == 1 and list(r.dice) == learned.in_reading_order(first), why


def _big_dark_die():
    """A rendered 640x480 frame of one dark 1 at 210 px, and its truth."""
    return render_scene([1], seed=11, size=(640, 480), die_px=210,
                        colours=[((40, 40, 40), (235, 235, 235)), ((60, 30, 20), (230, 230, 230)),
                                 ((30, 30, 90), (240, 240, 240))])


def _sees_only_the_pip(die, score=0.47, first=None):
    """Net outputs whose detector, on the uncalibrated first pass at 640x480, peaks on the pip
    of the big 1 `die` only, as a detector trained on smaller dice does (the shipped one
    does, at 0.47): a pip a fifth of the die across (score None: on nothing). The classifiers
    of that pass's reading answer first(name, blob, shipped nets' output) (None: the shipped nets); every
    other pass is the shipped nets'."""
    dw, dh, _ = detector.det_size(640, 480, S)
    kx, ky = dw / 640, dh / 480
    in_first = [False]

    def outputs(name, blob):
        if name == nets.DET_NET:
            in_first[0] = blob.shape[2:] == (dh, dw)
        if name == nets.DET_NET and in_first[0]:
            out = np.zeros((1, 4, dh // detector.DET_STRIDE, dw // detector.DET_STRIDE), np.float32)
            out[0, 0] = -8.0
            if score is None:
                return out
            gx, gy = die.center[0] * kx / detector.DET_STRIDE, die.center[1] * ky / detector.DET_STRIDE
            x, y = int(gx), int(gy)
            pip = 0.2 * die.side * np.sqrt(kx * ky)
            out[0, :, y, x] = (np.log(score / (1 - score)), np.log(pip), gx - x - 0.5, gy - y - 0.5)
            return out
        out = nets.run(S.models, name, blob)
        return first(name, blob, out) if first and in_first[0] else out
    return Scripted(outputs)


def test_a_big_dark_die_seen_close_is_read():
    # Rendered, the shipped nets as they are: a die a third of the frame across is read.
    img, truth = _big_dark_die()
    r = learned.read_learned(img, S)
    assert r.values == [1] and abs(r.dice[0].center[0] - truth[0].center[0]) < 0.2 * truth[0].side


def test_a_big_die_the_detector_sees_only_the_pip_of_is_read_close_up():
    # The first reading's first net unsure of the pip (it is no die of its size): the close-up
    # reads the frame again at a die a third of it, and its die replaces the pip.
    img, truth = _big_dark_die()
    unclear = np.log(np.maximum(_p(1, 0.4), 1e-12)).astype(np.float32)
    counted = _sees_only_the_pip(truth[0], first=lambda name, blob, out: np.tile(unclear, (len(blob), 1)))
    first, dropped, _ = learned.read_once(img, replace(S, models=counted))
    assert len(first.dice) == 1 and not first.dice[0].sure and dropped == []
    counted.seen.clear()
    r = learned.read_learned(img, replace(S, models=counted))
    assert r.values == [1] and abs(r.dice[0].center[0] - truth[0].center[0]) < 0.2 * truth[0].side
    passes = lambda: sum(name == nets.DET_NET for name, _ in counted.seen)   # noqa: E731
    assert passes() >= 2                               # the first reading, then the close-up's
    counted.seen.clear()
    learned.read_learned(img, replace(S, models=counted, die_px=64.0))
    assert passes() == 1                               # calibrated: the die size is known, one reading


def test_a_reading_with_no_trace_of_anything_is_read_close_up_and_keeps_its_rules():
    # A detector that sees nothing of a die too big for it leaves no pip to count: the
    # close-up is asked, and its die is taken if whole, valued and too big for the first pass.
    big = _die(3, 220, 210, 200)
    r, asked = _close_up([], [big])
    assert len(asked) == 1 and r.values == [3]
    for refused in (_die(3, 200, 110, 200), _die(None, 220, 210, 200, "unclear"), _die(3, 220, 210, 170)):
        r, asked = _close_up([], [refused])
        assert len(asked) == 1 and r.dice == (), refused
    r, asked = _close_up([], [big, _die(None, 500, 350, 200, "unclear")])
    assert r.dice == ()                               # a die it found would go unmentioned
    r, asked = _close_up([], [], dropped=[(300.0, 200.0, 120.0)])
    assert asked == []                                # dropped: a trace (pip_like's rules apply)


def test_a_big_dark_die_the_first_pass_sees_nothing_of_is_read_close_up():
    img, truth = _big_dark_die()
    scripted = _sees_only_the_pip(truth[0], score=None)
    reading, dropped, _ = learned.read_once(img, replace(S, models=scripted))
    assert reading.dice == () and dropped == []
    r = learned.read_learned(img, replace(S, models=scripted))
    assert r.values == [1] and abs(r.dice[0].center[0] - truth[0].center[0]) < 0.2 * truth[0].side
    scripted.seen.clear()
    learned.read_learned(img, replace(S, models=scripted, die_px=64.0))
    assert [name for name, _ in scripted.seen].count(nets.DET_NET) == 1   # calibrated: no close-up


def test_a_big_dark_die_whose_pip_the_first_net_calls_no_die_is_read_too():
    # A first net taught that a pip is not a die drops the only thing the detector saw: the
    # reading has nothing valued, and the dropped pip is the big die's one trace.
    img, truth = _big_dark_die()
    no_die = np.log(_p(1, 0.01, p_not=0.95)).astype(np.float32)
    scripted = _sees_only_the_pip(
        truth[0], first=lambda name, blob, out: np.tile(no_die, (len(blob), 1)) if name == nets.CLS_NET else out)
    reading, dropped, _ = learned.read_once(img, replace(S, models=scripted))
    assert reading.dice == () and len(dropped) == 1 and dropped[0][2] < 0.5 * truth[0].side
    scripted.seen.clear()
    r = learned.read_learned(img, replace(S, models=scripted))
    assert r.values == [1] and abs(r.dice[0].center[0] - truth[0].center[0]) < 0.2 * truth[0].side
    assert [name for name, _ in scripted.seen].count(nets.CLS_NET) == 2   # the first reading, the close-up's


def _p(value, pv, p_not=0.0):
    """Probabilities with `pv` on `value`, `p_not` on "not a die", the rest spread."""
    p = np.full(7, (1.0 - pv - p_not) / 5)
    p[0], p[value] = p_not, pv
    return p


def test_judge_gives_a_value_only_when_sure_whole_and_agreed():
    j = judge
    assert j(_p(4, 0.95), 0.9, 0.0) == (4, "")
    assert j(_p(4, S.p_sure).astype(np.float32), 0.9, 0.0) == (4, "")   # exactly p_sure, as the net's float32
    assert j(_p(4, S.p_sure - 0.01), 0.9, 0.0) == (None, "unclear")
    assert j(_p(4, 0.99), 0.9, 0.5) == (None, "edge")            # half of it out of the frame
    assert j(_p(4, 0.99), 0.2, 0.0) == (None, "faint")
    assert j(_p(4, 0.99), 0.9, 0.0, side=S.min_side - 1) == (None, "small")
    assert j(_p(4, 0.95), 0.9, 0.0, first=4) == (4, "")          # the second look agrees
    assert j(_p(4, 0.95), 0.9, 0.0, first=3) == (None, "disagree")
    assert j(_p(4, 0.95), 0.9, 0.0, first=0) == (None, "disagree")   # the first net's guess: no die
    assert j(_p(4, 0.95), 0.9, 0.0, backing=False) == (None, "disagree")


def test_die_cut_by_the_frame_edge_is_unsure():
    img, truth = render_scene([5], seed=3, die_px=80)
    t = truth[0]
    x = int(t.center[0])
    cut = np.ascontiguousarray(img[:, x:])                         # the left half of the die is gone
    r = learned.read_learned(cut)
    assert all(d.value is None and d.reason for d in r.dice)


def test_die_on_the_tray_area_edge_is_read_on_the_whole_frame():
    img, truth = render_scene([2, 6], seed=12, die_px=70)
    t = min(truth, key=lambda t: t.center[0])
    # The tray area ends at the die's centre: it is found, and read from its real pixels.
    roi = (0, 0, int(t.center[0]) + 2, img.shape[0])
    r = learned.read_learned(img, Config(roi=roi))
    near = [d for d in r.dice if np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]) < t.side / 2]
    assert near and near[0].value in (t.value, None)
    assert all(d.center[0] <= roi[2] + t.side for d in r.dice)


def test_a_hand_over_the_dice_never_gives_a_wrong_value():
    wrong = 0
    for seed in range(6):
        img, truth = render_scene([1, 2, 3, 4, 5, 6], seed=seed, die_px=60)
        t = truth[seed]
        # A skin-coloured blob over part of one die.
        cv2.ellipse(img, (int(t.center[0] + t.side * 0.3), int(t.center[1])), (int(t.side * 0.6), int(t.side)),
                    20, 0, 360, (120, 160, 215), -1)
        for d in learned.read_learned(img).dice:
            near = [u for u in truth if np.hypot(d.center[0] - u.center[0], d.center[1] - u.center[1]) < u.side / 2]
            wrong += d.value is not None and (not near or near[0].value != d.value)
    assert wrong == 0


@pytest.mark.parametrize("size, square", [((640, 480), 12), ((640, 480), 16), ((320, 240), 6), ((320, 240), 8),
                                          ((1280, 720), 24)])
def test_a_checked_cloth_gets_no_valued_die(size, square):
    # The classifier before --textures read patches of these as 6s at 0.96-1.0.
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w]
    board = cv2.cvtColor((((xx // square) + (yy // square)) % 2 * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    assert [d.value for d in learned.read_learned(board).dice if d.value] == []


@pytest.mark.parametrize("side, block, seed", [(48, 2, 0), (48, 4, 0), (200, 4, 1), (480, 8, 0), (640, 8, 2)])
def test_blocky_noise_gets_no_valued_die(side, block, seed):
    # Noise in blocks of a few pixels: the classifier before --textures gave these a 6.
    small = np.random.default_rng(seed * 1000 + side + block).integers(0, 256, (side // block, side // block, 3),
                                                                         dtype=np.uint8)
    noise = cv2.resize(small, (side, side), interpolation=cv2.INTER_NEAREST)
    assert [d.value for d in learned.read_learned(noise).dice if d.value] == []


def test_dice_on_a_checked_cloth_are_read_and_the_cloth_is_not():
    # Taught that patterns are "not a die", the classifier still reads dice lying on one.
    img, truth = render_scene([2, 5, 6], seed=22, size=(640, 480), die_px=60, tray=(30, 30, 30))
    yy, xx = np.mgrid[0:480, 0:640]
    cloth = ((xx // 16) + (yy // 16)) % 2 == 1
    for t in truth:
        cloth &= np.hypot(xx - t.center[0], yy - t.center[1]) > 0.8 * t.box_side
    img[cloth] = 230
    r = learned.read_learned(img)
    assert sorted(d.value for d in r.dice if d.value) == [2, 5, 6]


def test_empty_tray_has_no_dice():
    rng = np.random.default_rng(0)
    tray = np.full((720, 1280, 3), (40, 110, 120), np.float64) + rng.normal(0, 6, (720, 1280, 3))
    img = np.clip(tray, 0, 255).astype(np.uint8)
    assert learned.read_learned(img).dice == ()


def test_read_is_the_learned_reader_and_needs_its_nets(tmp_path):
    img, _ = render_scene([3, 5], seed=2)
    reading = vision.read(img)
    assert reading == learned.read_learned(img) and sorted(reading.values) == [3, 5]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().die_px = 60                     # settings are frozen: another is a new Config
    with pytest.raises(vision.ReadError, match="model files are missing"):
        vision.read(img, replace(Config(), models=str(tmp_path)))
