"""`python -m vision_tools.train all`: the recipe (vision_tools/train/recipe.py) is reproducible by
steps: the same seed gives the same nets, a run interrupted and started again ends with an
uninterrupted run's weights, the crops are cut once (cached by content), and the batches'
vectorised jitter keeps crops and targets together.

torch is for training only: these run where it is installed and are skipped elsewhere; the
runs need the shared photos (a tiny recipe reads four of each folder)."""

import os
from dataclasses import replace

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (training only): the recipe is not checked")

from vision_tools.train import from_onnx  # noqa: E402
from vision_tools.train import recipe as R  # noqa: E402


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    from vision_tools.train.data import FOLDERS, SHARED

    for f in FOLDERS:
        if not os.path.isfile(os.path.join(SHARED, f, "labels.csv")):
            pytest.skip(f"shared dice photos not present ({SHARED})")
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def straight(cache, tmp_path_factory):
    """The tiny recipe run once, uninterrupted."""
    out = str(tmp_path_factory.mktemp("straight"))
    R.run(R.TINY, out, cache, say=lambda *a: None)
    return out


def _state(out):
    return {k: torch.load(os.path.join(out, "state", f"{k}.pt"))["model"] for k in ("det", "cls", "wide")}


def _same(a, b):
    return all(torch.equal(a[k][n], b[k][n]) for k in a for n in a[k])


def test_the_recipe_writes_the_readers_nets_and_its_record(straight):
    from vision import nets

    nets.check(straight)                       # loads in OpenCV, the reader's shapes
    import json

    with open(os.path.join(straight, "recipe.json")) as fh:
        record = json.load(fh)
    assert record["recipe"]["det_steps"] == R.TINY.det_steps and record["cache_key"] == R.cache_key(R.TINY)
    for kind in ("det", "cls", "wide"):        # read back for full teaching: the recipe's widths
        assert sum(p.numel() for p in from_onnx.load(straight, kind).parameters()) > 0


def test_the_same_seed_gives_the_same_nets(straight, cache, tmp_path):
    R.run(R.TINY, str(tmp_path), cache, say=lambda *a: None)
    assert _same(_state(straight), _state(str(tmp_path)))
    for name in ("dice_det.onnx", "dice_cls.onnx", "dice_cls_wide.onnx"):
        with open(os.path.join(straight, name), "rb") as a, open(os.path.join(tmp_path, name), "rb") as b:
            assert a.read() == b.read()


def test_an_interrupted_run_resumes_to_the_same_weights(straight, cache, tmp_path):
    out = str(tmp_path)
    with pytest.raises(R.Stopped):
        R.run(R.TINY, out, cache, say=lambda *a: None, stop_after=3)     # in the detector, saved at 2
    assert torch.load(os.path.join(out, "state", "det.pt"))["step"] == 2
    with pytest.raises(R.Stopped):
        R.run(R.TINY, out, cache, say=lambda *a: None, stop_after=5)     # on from 2, saved at 4
    R.run(R.TINY, out, cache, say=lambda *a: None)
    assert _same(_state(straight), _state(out))


def test_a_run_drawing_the_dice_its_nets_read_worst_resumes_to_the_same_weights(cache, tmp_path):
    hard = replace(R.TINY, det_steps=2, cls_steps=6, wide_steps=10, hard=0.5, hard_every=3, hard_below=0.99)
    R.run(hard, str(tmp_path / "straight"), cache, say=lambda *a: None)
    out = str(tmp_path / "resumed")
    for stop in (5, 8):        # the first classifier at 5, the second look at 8: each after a save (every
        with pytest.raises(R.Stopped):      # 2 steps) holding the hard dice looked for at step 3
            R.run(hard, out, cache, say=lambda *a: None, stop_after=stop)
    assert torch.load(os.path.join(out, "state", "wide.pt"))["hard"] is not None
    R.run(hard, out, cache, say=lambda *a: None)
    a = _state(str(tmp_path / "straight"))
    assert _same(a, _state(out))
    R.run(replace(hard, hard=0.0), str(tmp_path / "easy"), cache, say=lambda *a: None)
    b = _state(str(tmp_path / "easy"))
    assert _same({"det": a["det"]}, {"det": b["det"]}) and not _same({"cls": a["cls"]}, {"cls": b["cls"]})


def test_the_hard_dice_are_photo_dice_read_below_the_bar_and_a_share_of_the_photo_dice_drawn(cache):
    pool = R._cls_pool(R.load_cut(R.TINY, cache, say=lambda *a: None), say=lambda *a: None)
    model = R.build("cls", R.TINY)
    photo = pool["index"][0]
    everything = R.hard_dice(model, pool, replace(R.TINY, hard_below=1.01), torch.contiguous_format)
    assert torch.equal(everything, photo)                                     # every photo die, nothing else
    assert len(R.hard_dice(model, pool, replace(R.TINY, hard_below=0.0), torch.contiguous_format)) == 0
    one = photo[:1]
    n = 4000
    r = replace(R.TINY, cls_batch=n, hard=0.5)
    g = lambda: torch.Generator().manual_seed(3)                              # noqa: E731
    _, y0 = R.cls_batch(pool, n, g(), r)
    _, y1 = R.cls_batch(pool, n, g(), r, hard=one)
    changed = (y0 != y1).any(1)
    assert changed.any() and (y1[changed] == y1[changed][0]).all()            # all the one hard die's target
    photos = int(round(n * r.cls_shares[0] / sum(r.cls_shares)))
    assert 0.3 * photos < int(changed.sum()) / (5 / 6) < 0.7 * photos         # about half of them (5 in 6 change)


def test_another_seed_gives_other_nets(straight, cache, tmp_path):
    R.run(replace(R.TINY, seed=1), str(tmp_path), cache, say=lambda *a: None)
    assert not _same(_state(straight), _state(str(tmp_path)))


def test_the_crops_are_cut_once_and_keyed_by_the_recipes_data(cache):
    key = R.cache_key(R.TINY)
    assert os.path.isfile(os.path.join(cache, f"crops-{key}.npz"))
    assert R.cache_key(replace(R.TINY, cls_steps=99)) == key                # training choices: same crops
    assert R.cache_key(replace(R.TINY, pieces=9)) != key                    # data choices: cut anew
    said = []
    R.load_cut(R.TINY, cache, say=said.append)
    assert said and "cache" in said[0]


def test_the_detectors_biggest_dice_and_the_mixed_sizes_are_the_recipes_data(cache):
    key = R.cache_key(R.TINY)
    assert R.cache_key(replace(R.TINY, det_big=100.0)) != key and R.cache_key(replace(R.TINY, spread=0.0)) != key
    assert (R.Recipe().det_big, R.Recipe().spread) == (120.0, 0.3)     # --det-big, --spread: the flags of all fields


def test_a_detector_crop_holds_its_dice_at_most_det_big_across():
    from vision.render import render_scene

    img, truth = render_scene([1, 2, 3], seed=3, die_px=200, size=(1280, 720))
    labs = [(t.value, t.center[0] - t.side / 2, t.center[1] - t.side / 2, t.side, t.side) for t in truth]
    rng = np.random.default_rng(0)
    for big in (60.0, 100.0):
        sides = []
        for _ in range(40):
            _, _, reg, mask = R.det_cut(img, labs, rng, big)
            sides += [float(np.exp(v)) for v in reg[0][mask > 0]]
        assert sides and max(sides) <= big * 1.001 and max(sides) > 0.9 * big


def test_without_spread_no_rendered_scene_mixes_sizes_and_the_others_are_the_same():
    from vision_tools.train import data as D

    mixed, plain = D.synthetic(60, seed=3), D.synthetic(60, seed=3, spread=0.0)

    def ratio(labs):
        return max(w for *_, w, _ in labs) / min(w for *_, w, _ in labs) if len(labs) > 1 else 1.0
    differ = [(a[2], b[2]) for a, b in zip(mixed, plain) if a[2] != b[2]]
    assert 0 < len(differ) < len(plain) / 4                     # only the touching scenes drawn mixed differ ...
    assert sum(ratio(m) > ratio(p) + 0.15 for m, p in differ) >= 0.75 * len(differ)   # ... their dice more apart in size


def test_dice_on_cloths_and_dice_cut_by_the_frame_are_cut_after_the_rest(cache):
    base = R.cut(replace(R.TINY, cloth_scenes=0, cut_dice=0), say=lambda *a: None)
    more = R.load_cut(R.TINY, cache, say=lambda *a: None)     # TINY: two cloth scenes, four cut dice
    assert len({R.cache_key(replace(R.TINY, cloth_scenes=0, cut_dice=0)), R.cache_key(replace(R.TINY, cut_dice=0)),
                R.cache_key(R.TINY)}) == 3
    n, m = len(base["cls_x"]), len(base["det_x"])
    assert np.array_equal(more["cls_x"][:n], base["cls_x"]) and np.array_equal(more["det_x"][:m], base["det_x"])
    groups, values = more["cls_g"][n:-4], more["cls_y"][n:-4]             # the cloth scenes' crops
    on_cloth, around = R.GROUPS.index("dice on boards and cloths"), R.GROUPS.index("board and cloth not-dice")
    assert set(groups) == {on_cloth, around}
    assert (values[groups == on_cloth] >= 1).all() and (values[groups == around] == 0).all()
    assert len(more["det_x"]) == m + 6 and (more["det_g"][m:] == R.DET_GROUPS.index("boards and cloths with dice")).all()
    assert (more["cls_g"][-4:] == R.GROUPS.index("rendered dice")).all() and (more["cls_y"][-4:] == R.NO_VALUE).all()


def test_a_die_cut_by_the_frame_shows_the_edge_replicated_beyond_it():
    from vision.render import render_scene

    img, truth = render_scene([6], seed=3, size=(640, 480), die_px=80)
    d = truth[0]
    lab = (d.value, *d.box)
    whole = R._ctx(img, d.center[0], d.center[1], np.sqrt(d.box[2] * d.box[3])).astype(int)
    c, half = R.CTX // 2, R.CTX / R.CTX_SIDES / 2                      # the die's centre and half side in the crop
    seen = set()
    for seed in range(40):
        crop = R.cut_die(img, lab, np.random.default_rng(seed), out=(0.3, 0.3)).astype(int)
        edge = int(c - half + 0.3 * 2 * half) - 1                        # inside the cut, near the frame's edge
        bands = {"left": crop[:, :edge], "right": crop[:, -edge:], "top": crop[:edge], "bottom": crop[-edge:]}
        flat = [k for k, b in bands.items() if (b.max(axis=1 if k in ("left", "right") else 0)
                                                - b.min(axis=1 if k in ("left", "right") else 0)).max() <= 2]
        assert len(flat) == 1                                            # one edge, and the die cut there
        seen.add(flat[0])
        assert np.abs(crop - whole).max() > 40                           # some of the die is gone
        assert np.abs(crop[c - 4:c + 4, c - 4:c + 4] - whole[c - 4:c + 4, c - 4:c + 4]).max() <= 2  # its middle stays
    assert seen == {"left", "right", "top", "bottom"}


def test_a_cloth_scene_shows_its_pattern_where_the_tray_was():
    img, labs = R.cloth_scene(np.random.default_rng(5))
    assert labs and img.shape == (480, 640, 3)
    far = np.ones(img.shape[:2], bool)
    for _, x, y, w, h in labs:
        far[max(0, int(y - h)):int(y + 2 * h), max(0, int(x - w)):int(x + 2 * w)] = False
    cloth = img[far].astype(int)
    for tray in ((40, 200, 40), (200, 40, 220)):                      # the colours it was rendered on
        assert (np.abs(cloth - tray).sum(axis=1) < 60).mean() < 0.01
    assert cloth.std(axis=0).max() > 30                               # two colours, not a flat tray

def test_colour_jitter_keeps_shapes_and_range_and_depends_only_on_the_generator():
    x = torch.rand(16, 3, 48, 48)
    a = R.colour_batch(x, torch.Generator().manual_seed(3))
    b = R.colour_batch(x, torch.Generator().manual_seed(3))
    assert a.shape == x.shape and torch.equal(a, b) and 0 <= float(a.min()) and float(a.max()) <= 1
    assert not torch.equal(a, R.colour_batch(x, torch.Generator().manual_seed(4)))


def test_plain_crops_keep_their_hues_and_the_others_are_scrambled():
    """An orange image (channels 0.9, 0.5, 0.1): with plain=1 every image keeps red above green
    above blue; with plain=0 some are permuted, greyed or inverted, and plain=0 draws as before."""
    x = torch.tensor([0.9, 0.5, 0.1])[None, :, None, None].expand(64, 3, 8, 8).contiguous()

    def hues_kept(y):
        m = y.mean((2, 3))
        return (m[:, 0] > m[:, 1]) & (m[:, 1] > m[:, 2])

    assert bool(hues_kept(R.colour_batch(x, torch.Generator().manual_seed(5), plain=1.0)).all())
    scrambled = R.colour_batch(x, torch.Generator().manual_seed(5))
    assert int((~hues_kept(scrambled)).sum()) > 20
    assert torch.equal(scrambled, R.colour_batch(x, torch.Generator().manual_seed(5), plain=0.0))


def test_detector_turns_move_the_targets_with_the_image():
    """A bright dot at a die's centre stays at the target's peak, its offsets mirrored with it."""
    g = R.DET_IN // 4
    x = torch.zeros(64, 3, R.DET_IN, R.DET_IN)
    heat, reg, mask = torch.zeros(64, g, g), torch.zeros(64, 3, g, g), torch.zeros(64, g, g)
    px, py = 41.0, 90.0                        # the die's centre, input pixels (cell 10, 22; offsets 0.75, 0)
    x[:, :, int(py), int(px)] = 1.0
    heat[:, 22, 10] = mask[:, 22, 10] = 1.0
    reg[:, :, 22, 10] = torch.tensor([3.0, px / 4 - 10 - 0.5, py / 4 - 22 - 0.5])
    xs, hs, rs, ms = R.det_views(x, heat, reg, mask, torch.Generator().manual_seed(0))
    for k in range(64):
        iy, ix = (int(v) for v in torch.nonzero(ms[k])[0])
        cy, cx = (int(v) for v in torch.nonzero(xs[k, 0])[0])
        assert hs[k, iy, ix] == 1 and rs[k, 0, iy, ix] == 3.0
        # the offset puts the centre back in the dot's pixel
        assert abs((ix + 0.5 + float(rs[k, 1, iy, ix])) * 4 - (cx + 0.5)) <= 0.5 + 1e-4
        assert abs((iy + 0.5 + float(rs[k, 2, iy, ix])) * 4 - (cy + 0.5)) <= 0.5 + 1e-4


def test_cells_around_a_die_are_taught_its_centre_and_side():
    """Each of the 8 cells around a big die's centre cell decodes to that die's centre and side; a small
    die, or the centre cell of another die, keeps its own targets; weight 0 is the centre cell alone."""
    g = R.DET_IN // 4
    reg, mask = torch.zeros(1, 3, g, g), torch.zeros(1, g, g)
    big, small = (10, 22, 3.5, 0.25, -0.1), (30, 5, 2.5, 0.0, 0.3)      # cell x, y; log side, offsets
    for x, y, *v in (big, small):
        mask[0, y, x] = 1.0
        reg[0, :, y, x] = torch.tensor(v)
    mask[0, 23, 11] = 1.0                      # a die's centre right by the big one (its targets zero)
    out, w = R.around(reg, mask, 0.5)
    x, y, side, ox, oy = big
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            cy, cx = y + dy, x + dx
            if (cx, cy) == (11, 23):
                assert w[0, cy, cx] == 1.0 and torch.equal(out[0, :, cy, cx], torch.zeros(3))
                continue
            assert float(w[0, cy, cx]) == (1.0 if dx == dy == 0 else 0.5)
            assert float(out[0, 0, cy, cx]) == side
            assert abs(cx + 0.5 + float(out[0, 1, cy, cx]) - (x + 0.5 + ox)) < 1e-6
            assert abs(cy + 0.5 + float(out[0, 2, cy, cx]) - (y + 0.5 + oy)) < 1e-6
    x, y = small[:2]
    assert float(w[0, y - 1:y + 2, x - 1:x + 2].sum()) == 1.0   # under four cells: its own cell only
    assert int((w > 0).sum()) == 9 + 1            # the big die's 3 x 3 (its neighbour's centre in it), the small
    out0, w0 = R.around(reg, mask, 0.0)
    assert torch.equal(out0, reg) and torch.equal(w0, mask)


def test_classifier_views_are_centred_crops_of_the_context():
    """With no jitter drawn (a context of one colour each side), a view shows the context's middle."""
    ctx = np.zeros((4, R.CTX, R.CTX, 3), np.uint8)
    c = R.CTX // 2
    half = int(R.CTX * 0.3 * 1.35 / R.CTX_SIDES) + 2
    ctx[:, c - half:c + half, c - half:c + half] = 255        # the die's middle, bright
    v = R.cls_views(torch.from_numpy(ctx), torch.Generator().manual_seed(1))
    assert v.shape == (4, 3, 48, 48)
    assert float(v[:, :, 24, 24].min()) == 1.0                  # the crop's centre is the die's


def test_the_nets_trained_at_once_in_three_processes_are_those_trained_one_after_another(cache, tmp_path):
    """Without the detector's false peaks the classifiers need no detector: --jobs 3 trains the three
    nets side by side (each its own process and seeded steps), the same nets."""
    r = replace(R.TINY, peaks=False)
    R.run(r, str(tmp_path / "seq"), cache, say=lambda *a: None)
    R.run(r, str(tmp_path / "par"), cache, say=lambda *a: None, jobs=3)
    assert _same(_state(str(tmp_path / "seq")), _state(str(tmp_path / "par")))


def test_the_detectors_false_peaks_join_the_first_classifier_at_its_step_in_either_order(cache, tmp_path):
    """With the peaks joining the first classifier at step 3 and the second look at step 2, side by
    side each trains beside the detector and waits for its peaks there: the same nets as one after
    the other, and not those of a classifier that never saw them."""
    r = replace(R.TINY, peaks_from=3, wide_peaks_from=2)
    R.run(r, str(tmp_path / "seq"), cache, say=lambda *a: None)
    said = []
    R.run(r, str(tmp_path / "par"), cache, say=said.append, jobs=3)
    seq, par = _state(str(tmp_path / "seq")), _state(str(tmp_path / "par"))
    assert _same(seq, par)
    assert len(np.load(os.path.join(tmp_path, "par", "state", "peaks.npy"))) > 0
    R.run(replace(r, peaks_from=R.TINY.cls_steps), str(tmp_path / "never"), cache, say=lambda *a: None)
    never = _state(str(tmp_path / "never"))
    assert _same({"det": seq["det"], "wide": seq["wide"]}, {"det": never["det"], "wide": never["wide"]})
    assert not _same({"cls": seq["cls"]}, {"cls": never["cls"]})
    R.run(replace(r, wide_peaks_from=R.TINY.wide_steps), str(tmp_path / "never_wide"), cache, say=lambda *a: None)
    assert not _same({"wide": seq["wide"]}, {"wide": _state(str(tmp_path / "never_wide"))["wide"]})


def test_the_fast_step_computes_what_float32_computes_and_reaches_training(cache, tmp_path):
    """Channels last changes only the memory layout, bfloat16 the forward pass's precision (a
    percent or so of the logits): the same net in float32 gives the same outputs. The options
    reach `fit` (other weights than float32's), and the net it returns exports to the reader."""
    torch.manual_seed(0)
    net = R.build("cls", R.Recipe()).eval()
    x = torch.rand(16, 3, 48, 48)
    with torch.no_grad():
        plain = R._forward(net, x, torch.contiguous_format, False)
        last = R._forward(net.to(memory_format=torch.channels_last), x, torch.channels_last, False)
        low = R._forward(net, x, torch.channels_last, True)
    assert plain.dtype == low.dtype == torch.float32
    assert float((last - plain).abs().max()) < 1e-4
    spread = float(plain.std())
    assert 0 < float((low - plain).abs().max()) < 0.1 * spread
    fast, slow = tmp_path / "fast", tmp_path / "slow"
    R.run(replace(R.TINY, bf16=True), str(fast), cache, say=lambda *a: None)
    R.run(replace(R.TINY, channels_last=False, bf16=False), str(slow), cache, say=lambda *a: None)
    assert not _same(_state(str(fast)), _state(str(slow)))
    from vision import nets

    nets.check(str(fast))


def test_bfloat16_is_used_by_default_only_where_the_cpu_computes_it_and_the_record_says_which(monkeypatch, tmp_path):
    """Emulated bfloat16 costs a step eight times float32's (a CPU without AVX-512 BF16): the
    default leaves it to the CPU, a flag decides, and recipe.json records what was run."""
    runs = []
    monkeypatch.setattr(R, "run", lambda r, out, cache, **kw: runs.append(R.resolved(r)))
    for native in (True, False):
        monkeypatch.setattr(R, "native_bf16", lambda: native)
        R.main(["--out", str(tmp_path)])
        R.main(["--out", str(tmp_path), "--bf16", "auto"])
        R.main(["--out", str(tmp_path), "--bf16", "1"])
        R.main(["--out", str(tmp_path), "--bf16", "0"])
        assert [r.bf16 for r in runs] == [native, native, True, False]
        runs.clear()
    monkeypatch.undo()
    monkeypatch.setattr(R, "native_bf16", lambda: False)
    monkeypatch.setattr(R, "fit", lambda kind, r, *a, **kw: pytest.fail(f"{kind} trained with bf16={r.bf16}")
                        if r.bf16 is not False else R.build(kind, r).eval())
    monkeypatch.setattr(R, "load_cut", lambda *a, **kw: {})
    monkeypatch.setattr(R, "_det_pool", lambda data: {})
    monkeypatch.setattr(R, "_cls_pool", lambda data, **kw: {})
    monkeypatch.setattr(R, "_save_peaks", lambda *a, **kw: None)
    monkeypatch.setattr(R, "cache_key", lambda r: "key")
    R.run(replace(R.TINY, peaks=False), str(tmp_path), str(tmp_path), say=lambda *a: None)
    import json

    with open(tmp_path / "recipe.json") as fh:
        assert json.load(fh)["recipe"]["bf16"] is False


def test_an_export_that_opencv_does_not_reproduce_is_refused(tmp_path):
    """The check at export compares OpenCV's outputs with torch's: a net whose torch forward is not
    the graph exported (here: a hook adding 1 at run time only) is refused, not shipped."""
    from vision_tools.train.train_dice import export

    net = R.build("cls", R.TINY).eval()
    export(net, "cls", str(tmp_path / "ok"), say=lambda *a: None)
    net.h.register_forward_hook(lambda m, i, o: o + 1.0 if not torch.jit.is_tracing() and
                                not torch.onnx.is_in_onnx_export() else o)
    with pytest.raises(RuntimeError, match="differ"):
        export(net, "cls", str(tmp_path / "bad"), say=lambda *a: None)


def test_a_worker_process_ends_when_the_run_that_started_it_is_killed(tmp_path):
    """--jobs's workers watch their parent: a run killed (here SIGKILL, which it cannot pass on)
    leaves no process training on into the state its rerun resumes."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import multiprocessing, os, sys, time\n"
        "from vision_tools.train.recipe import exit_with_parent\n"
        "def work(parent):\n"
        "    exit_with_parent(parent, poll=0.1)\n"
        "    time.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    p = multiprocessing.get_context('spawn').Process(target=work, args=(os.getpid(),))\n"
        "    p.start()\n"
        "    print(p.pid, flush=True)\n"
        "    time.sleep(60)\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root] + sys.path))
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    worker = int(run.stdout.readline())
    os.kill(worker, 0)                               # running
    run.send_signal(signal.SIGKILL)
    run.wait()
    for _ in range(100):
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(worker, signal.SIGKILL)
        pytest.fail("the worker outlived the run that started it")


def test_the_weights_average_moves_towards_the_net_and_its_counts_are_copied():
    avg, net = R.build("cls", R.TINY), R.build("cls", R.TINY)
    for t in avg.state_dict().values():
        t.zero_() if t.is_floating_point() else t.fill_(0)
    for t in net.state_dict().values():
        t.fill_(1) if t.is_floating_point() else t.fill_(7)
    R.average(avg, net, 0.75)
    assert all(torch.all(t == (0.25 if t.is_floating_point() else 7)) for t in avg.state_dict().values())


def test_a_run_exporting_the_average_resumes_to_it_and_exports_it_not_the_last_weights(cache, tmp_path):
    r = replace(R.TINY, ema=0.9, peaks=False)
    R.run(r, str(tmp_path / "straight"), cache, say=lambda *a: None)
    out = str(tmp_path / "resumed")
    with pytest.raises(R.Stopped):
        R.run(r, out, cache, say=lambda *a: None, stop_after=3)           # saved at 2, the average with it
    R.run(r, out, cache, say=lambda *a: None)
    for kind, name in (("det", "dice_det.onnx"), ("cls", "dice_cls.onnx"), ("wide", "dice_cls_wide.onnx")):
        a, b = (torch.load(os.path.join(d, "state", f"{kind}.pt")) for d in (str(tmp_path / "straight"), out))
        assert all(torch.equal(a["avg"][n], b["avg"][n]) for n in a["avg"])
        assert not all(torch.equal(a["avg"][n], a["model"][n]) for n in a["model"])
        with open(os.path.join(str(tmp_path / "straight"), name), "rb") as x, open(os.path.join(out, name), "rb") as y:
            assert x.read() == y.read()
    exported = from_onnx.load(str(tmp_path / "straight"), "cls")            # batch norm folded: compare outputs
    x = torch.rand(2, 3, 48, 48)
    net = R.build("cls", r)
    net.load_state_dict(torch.load(os.path.join(str(tmp_path / "straight"), "state", "cls.pt"))["avg"])
    assert torch.allclose(exported.eval()(x), net.eval()(x), atol=1e-4)


def test_a_smaller_detector_window_keeps_each_die_with_its_targets():
    """A dot at a die's centre in the crop's top right cell: inside only the window furthest right and
    at the top. In every window drawn, the die's cell is the dot's, or both are out."""
    g = R.DET_IN // 4
    x = torch.zeros(1, R.DET_IN, R.DET_IN, 3, dtype=torch.uint8)
    heat, reg, mask = torch.zeros(1, g, g), torch.zeros(1, 3, g, g), torch.zeros(1, g, g)
    px, py = R.DET_IN - 2, 1
    x[0, py, px] = 255
    heat[0, py // 4, px // 4] = mask[0, py // 4, px // 4] = 1.0
    reg[0, :, py // 4, px // 4] = torch.tensor([3.0, 0.25, 0.0])
    seen = set()
    for seed in range(400):
        xs, hs, rs, ms = R.det_window(x, heat, reg, mask, 96, torch.Generator().manual_seed(seed))
        assert xs.shape == (1, 96, 96, 3) and hs.shape == ms.shape == (1, 24, 24) and rs.shape == (1, 3, 24, 24)
        dot, cell = torch.nonzero(xs[0, :, :, 0]), torch.nonzero(ms[0])
        assert len(dot) == len(cell) == int(hs.sum()) <= 1
        if len(dot):
            (dy, dx), (cy, cx) = dot[0].tolist(), cell[0].tolist()
            assert (dy // 4, dx // 4) == (cy, cx) == (0, 23) and rs[0, 0, cy, cx] == 3.0
        seen.add(len(dot))
    assert seen == {0, 1}                      # the furthest window was drawn, and others


def test_smaller_crops_are_a_share_below_one_and_fit_the_nets():
    for bad in ({"small_share": 1.0}, {"small_share": -0.1}, {"small_det": 100}, {"small_det": R.DET_IN},
                {"small_cls": 8}, {"small_cls": 64}):
        with pytest.raises(ValueError):
            replace(R.TINY, **bad)


def test_a_smaller_classifier_view_shows_what_the_full_one_shows():
    """The same draws at 32 px a side: the 48 px view's picture, less finely."""
    rng = np.random.default_rng(0)
    ctx = np.stack([cv2.resize(c, (R.CTX, R.CTX), interpolation=cv2.INTER_CUBIC)      # smooth colours
                    for c in rng.integers(0, 256, (3, 12, 12, 3)).astype(np.uint8)])
    full = R.cls_views(torch.from_numpy(ctx), torch.Generator().manual_seed(5))
    small = R.cls_views(torch.from_numpy(ctx), torch.Generator().manual_seed(5), 32)
    other = R.cls_views(torch.from_numpy(ctx), torch.Generator().manual_seed(6), 32)
    assert small.shape == (3, 3, 32, 32)
    shrunk = torch.nn.functional.interpolate(full, size=(32, 32), mode="area")
    assert float((small - shrunk).abs().mean()) < 0.02 < float((other - shrunk).abs().mean())


def test_a_run_on_smaller_crops_first_resumes_to_the_same_weights_and_trains_other_nets(cache, tmp_path):
    """Each net (three processes, no false peaks: none waits for another) interrupted in its smaller
    steps resumes to an uninterrupted run's weights; each differs from the same run without them."""
    small = replace(R.TINY, peaks=False, det_steps=6, cls_steps=6, wide_steps=6, small_share=0.5)   # steps 0-2
    R.run(small, str(tmp_path / "straight"), cache, say=lambda *a: None, jobs=3)
    out = str(tmp_path / "resumed")
    with pytest.raises(R.Stopped):
        R.run(small, out, cache, say=lambda *a: None, stop_after=3, jobs=3)    # saved at 2, a smaller step
    assert all(torch.load(os.path.join(out, "state", f"{k}.pt"))["step"] == 2 for k in ("det", "cls", "wide"))
    R.run(small, out, cache, say=lambda *a: None, jobs=3)
    a = _state(str(tmp_path / "straight"))
    assert _same(a, _state(out))
    R.run(replace(small, small_share=0.0), str(tmp_path / "full"), cache, say=lambda *a: None, jobs=3)
    b = _state(str(tmp_path / "full"))
    assert not any(_same({k: a[k]}, {k: b[k]}) for k in a)
