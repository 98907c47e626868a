"""Full teaching (vision_tools/train/owner.py): the nets read back from ONNX, fine-tuned, written whole.

torch is for training only, not a test dependency: these run where it is installed
(`pip install -e '.[train]'`) and are skipped elsewhere."""

import json
import math
import shutil
from dataclasses import replace

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (training only): full teaching not checked")
pytest.importorskip("onnx", reason="onnx is not installed (training only): full teaching not checked")

from calibration.camera import install_nets  # noqa: E402
from tests.vision.test_teach import labelled_folder, scenes  # noqa: E402
from vision import nets  # noqa: E402
from vision.classifier import crops  # noqa: E402
from vision.settings import MODELS  # noqa: E402
from vision_tools.train import from_onnx, owner  # noqa: E402
from vision_tools.train import train_dice as T  # noqa: E402

TINY = replace(owner.Recipe(), det_steps=2, cls_steps=2, wide_steps=2, det_batch=2, cls_batch=8, scenes=2,
               warmup=1, threads=1)


def outputs(models, name, x):
    net = cv2.dnn.readNetFromONNX(f"{models}/{name}")
    net.setInput(x)
    return net.forward()


@pytest.mark.parametrize("kind", ["det", "cls", "wide"])
def test_a_net_read_back_and_exported_again_gives_the_same_outputs(tmp_path, kind):
    model = from_onnx.load(MODELS, kind)
    T.export(model, kind, str(tmp_path), say=lambda *a: None)
    name = T.ONNX_NAME[kind]
    x = np.random.default_rng(1).random((3, 3, 48, 48) if kind != "det" else (1, 3, 96, 128)).astype(np.float32)
    assert np.abs(outputs(tmp_path, name, x) - outputs(MODELS, name, x)).max() < 1e-4


def test_a_file_of_another_net_is_refused_not_loaded_wrong(tmp_path):
    shutil.copyfile(f"{MODELS}/{nets.WIDE_NET}", tmp_path / nets.CLS_NET)
    with pytest.raises(ValueError, match="weighted layers"):
        from_onnx.load(str(tmp_path), "cls")


def test_fine_tuning_learns_the_owners_dice(tmp_path):
    """A few steps on one folder's dice move the first classifier towards their labels. Labelled one more
    than they show, so that it could not already read them (any good net reads rendered dice at the
    label smoothing's bound, where a few jittered steps can only wobble it)."""
    folder = labelled_folder(tmp_path / "rolls", scenes(7, 2), wrong=True)
    pool = owner.photos(folder)
    recipe = replace(TINY, cls_steps=25, cls_batch=32, syn_share=0.0, lr=1e-3)
    torch.manual_seed(0)
    model = owner.fine_tune("cls", pool, [], [], recipe)
    before = from_onnx.load(MODELS, "cls").eval()
    values = [v for _, _, labs in pool for v, *_ in labs]
    blob = np.concatenate([crops(img, [(x + w / 2, y + h / 2, math.sqrt(w * h)) for _, x, y, w, h in labs])
                           for _, img, labs in pool])
    assert len(blob) == len(values) == 12
    with torch.no_grad():
        p0, p1 = (torch.softmax(net(torch.from_numpy(blob)), 1).numpy()[np.arange(len(values)), values]
                  for net in (before, model))
    assert p0.mean() < 0.05 and p1.mean() > 0.1      # the shipped nets: 0.006, then 0.38


def test_teach_writes_three_sound_nets_and_what_they_learned_from(tmp_path):
    folder = labelled_folder(tmp_path / "rolls", scenes(10, 3))
    out = tmp_path / "nets"
    out.mkdir()
    (out / owner.MANIFEST).write_text("{}")                  # an earlier output ...
    (out / "stale.onnx").write_bytes(b"from before")        # ... with a file of its own
    manifest = owner.teach(folder, str(out), names=["r0.png", "r2.png"], recipe=TINY, say=lambda *a: None)
    nets.check(str(out))
    assert sorted(p.name for p in out.iterdir()) == sorted([*nets.NETS, owner.MANIFEST])   # replaced whole
    assert json.loads((out / owner.MANIFEST).read_text()) == manifest
    assert manifest["photos"] == ["r0.png", "r2.png"] and manifest["dice"] == 12
    assert manifest["recipe"]["cls_steps"] == 2
    assert set(manifest["on_taught_photos"]) == {"shipped", "taught"}
    for name in nets.NETS:                                     # each net was trained
        assert (out / name).read_bytes() != open(f"{MODELS}/{name}", "rb").read()
    assert not list(tmp_path.glob(".taught-*"))                # no working folder left
    assert "installed" in install_nets(tmp_path / "calibration", out)


def test_the_same_seed_teaches_the_same_nets(tmp_path):
    folder = labelled_folder(tmp_path / "rolls", scenes(10, 2))
    for k in (1, 2):
        owner.teach(folder, str(tmp_path / f"n{k}"), recipe=TINY, say=lambda *a: None)
    rng = np.random.default_rng(2)
    for name, shape in ((nets.DET_NET, (1, 3, 96, 128)), (nets.CLS_NET, (2, 3, 48, 48)), (nets.WIDE_NET, (2, 3, 48, 48))):
        x = rng.random(shape).astype(np.float32)
        assert np.array_equal(outputs(tmp_path / "n1", name, x), outputs(tmp_path / "n2", name, x)), name


def test_photos_without_a_labelled_die_teach_nothing_and_write_nothing(tmp_path):
    folder = labelled_folder(tmp_path / "rolls", [])
    cv2.imwrite(str(tmp_path / "rolls" / "images" / "empty.png"), np.full((240, 320, 3), 200, np.uint8))
    with pytest.raises(ValueError, match="no labelled die"):
        owner.teach(folder, str(tmp_path / "nets"), names=["empty.png"], recipe=TINY, say=lambda *a: None)
    assert not (tmp_path / "nets").exists()


def test_the_nets_are_never_written_over_the_photos_or_a_folder_of_something_else(tmp_path):
    folder = labelled_folder(tmp_path / "rolls", scenes(10, 2))
    for out in (folder, str(tmp_path)):
        with pytest.raises(ValueError, match="holds the photos"):
            owner.teach(folder, out, recipe=TINY, say=lambda *a: None)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match="not an earlier output"):
        owner.teach(folder, str(tmp_path / "mine"), recipe=TINY, say=lambda *a: None)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"
    assert sorted(p.name for p in (tmp_path / "rolls").iterdir()) == ["images", "labels.csv"]


def test_teaching_leaves_the_thread_counts_as_it_found_them(tmp_path):
    folder = labelled_folder(tmp_path / "rolls", scenes(10, 2))
    before = torch.get_num_threads(), cv2.getNumThreads()
    owner.teach(folder, str(tmp_path / "nets"), recipe=replace(TINY, threads=1), say=lambda *a: None)
    assert (torch.get_num_threads(), cv2.getNumThreads()) == before


def test_the_command_line_teaches_and_refuses_a_folder_without_labels(tmp_path, capsys, monkeypatch):
    from vision_tools.train.__main__ import main

    assert main(["--owner", str(tmp_path)]) == 2
    assert "no labels.csv" in capsys.readouterr().err
    monkeypatch.setattr(owner, "Recipe", lambda: TINY)
    folder = labelled_folder(tmp_path / "rolls", scenes(10, 2))
    assert main(["--owner", folder, "--out", str(tmp_path / "nets"), "--threads", "1"]) == 0
    assert "companion dice nets" in capsys.readouterr().out
    nets.check(str(tmp_path / "nets"))
