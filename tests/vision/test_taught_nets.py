"""Taught nets on the device: checked before use, installed whole, the shipped nets the fallback.

No torch here: a folder of "taught" nets is made of the shipped files (a sound one) or of a
damaged or mismatched copy; full teaching itself is tested in test_full_teaching.py."""

import shutil

import pytest

from calibration.camera import TAUGHT_NAME, TAUGHT_NETS, CalibratedReader, install_nets
from companion.cli import main as companion_main
from vision import nets, teach
from vision.render import render_scene
from vision.settings import MODELS

pytestmark = pytest.mark.skipif(not nets.available(), reason="vision/models/*.onnx not present")


def net_folder(path, cls_from=nets.CLS_NET):
    """A folder of the three shipped nets, its first classifier copied from the shipped `cls_from`."""
    path.mkdir(parents=True)
    for name in nets.NETS:
        shutil.copyfile(f"{MODELS}/{cls_from if name == nets.CLS_NET else name}", path / name)
    return path


def test_check_takes_sound_nets_and_names_what_is_wrong(tmp_path):
    nets.check(str(net_folder(tmp_path / "good")))
    bad = net_folder(tmp_path / "bad")
    (bad / nets.WIDE_NET).unlink()
    with pytest.raises(ValueError, match="lacks dice_cls_wide.onnx"):
        nets.check(str(bad))
    shutil.copyfile(f"{MODELS}/{nets.CLS_NET}", bad / nets.WIDE_NET)
    (bad / nets.CLS_NET).write_bytes(b"not a net")
    with pytest.raises(ValueError, match="dice_cls.onnx is not a net OpenCV can run"):
        nets.check(str(bad))
    shutil.copyfile(f"{MODELS}/{nets.DET_NET}", bad / nets.CLS_NET)    # a net, of the wrong shape
    with pytest.raises(ValueError, match=r"dice_cls.onnx gives .* not \(2, 7\)"):
        nets.check(str(bad))


def test_installed_nets_are_read_with_and_removing_them_goes_back_to_the_shipped(tmp_path):
    cal = tmp_path / "calibration"
    assert CalibratedReader(cal / "camera.toml").config.models == MODELS
    said = install_nets(cal, net_folder(tmp_path / "taught", cls_from=nets.WIDE_NET))
    assert "installed" in said and (cal / TAUGHT_NETS / nets.CLS_NET).read_bytes() == \
        (tmp_path / "taught" / nets.CLS_NET).read_bytes()
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.models == str(cal / TAUGHT_NETS) and reader.status()["taught_nets"]
    assert reader.problem is None
    frame, truth = render_scene([2, 5], seed=4, size=(640, 480), die_px=56)
    assert sorted(reader.read(frame).values) == [2, 5]
    assert "removed" in install_nets(cal, None)
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.models == MODELS and not reader.status()["taught_nets"]
    assert "no taught nets" in install_nets(cal, None)


def test_unsound_nets_are_refused_and_change_nothing(tmp_path):
    cal = tmp_path / "calibration"
    install_nets(cal, net_folder(tmp_path / "first"))
    before = (cal / TAUGHT_NETS / nets.CLS_NET).read_bytes()
    bad = net_folder(tmp_path / "bad")
    (bad / nets.DET_NET).write_bytes(b"\x08\x07junk")
    with pytest.raises(ValueError, match="dice_det.onnx"):
        install_nets(cal, bad)
    with pytest.raises(ValueError, match="no such folder"):
        install_nets(cal, tmp_path / "nowhere")
    assert (cal / TAUGHT_NETS / nets.CLS_NET).read_bytes() == before
    assert sorted(p.name for p in cal.iterdir()) == [TAUGHT_NETS]          # no half-copied folder left


def test_a_damaged_installed_folder_reads_with_the_shipped_nets_and_says_why(tmp_path):
    cal = tmp_path / "calibration"
    install_nets(cal, net_folder(tmp_path / "taught"))
    (cal / TAUGHT_NETS / nets.WIDE_NET).write_bytes(b"")
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.models == MODELS
    assert "dice_cls_wide.onnx" in reader.problem and "the shipped nets are used" in reader.problem


def test_a_light_state_taught_with_other_nets_is_not_used(tmp_path):
    from tests.vision.test_teach import labelled_folder, scenes

    cal = tmp_path / "calibration"
    state = teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 2)))      # the shipped classifier's
    assert state.net == teach.net_id(MODELS) != ""
    teach.save(state, str(cal / TAUGHT_NAME))
    assert CalibratedReader(cal / "camera.toml").config.taught == str(cal / TAUGHT_NAME)
    install_nets(cal, net_folder(tmp_path / "taught", cls_from=nets.WIDE_NET))   # another classifier
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.taught is None and "taught with other nets" in reader.problem
    assert reader.config.models == str(cal / TAUGHT_NETS)                          # the nets still are


def test_companion_dice_nets_installs_refuses_and_removes(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ATLANDICE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ATLANDICE_CONFIG", "")
    taught = net_folder(tmp_path / "taught")
    assert companion_main(["dice", "nets", str(taught)]) == 0
    assert "installed" in capsys.readouterr().out
    assert (tmp_path / "data" / "calibration" / TAUGHT_NETS / nets.DET_NET).is_file()
    (taught / nets.CLS_NET).unlink()
    assert companion_main(["dice", "nets", str(taught)]) == 2
    assert "lacks dice_cls.onnx" in capsys.readouterr().err
    assert companion_main(["dice", "nets", "--shipped"]) == 0
    assert "removed" in capsys.readouterr().out
    assert not (tmp_path / "data" / "calibration" / TAUGHT_NETS).exists()


def test_a_light_state_that_does_not_name_its_nets_is_not_used(tmp_path):
    from dataclasses import replace

    from tests.vision.test_teach import labelled_folder, scenes

    cal = tmp_path / "calibration"
    teach.save(replace(teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 2))), net=""), str(cal / TAUGHT_NAME))
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.taught is None and "teach again" in reader.problem


def test_refused_nets_are_what_the_table_is_told_to_mend_not_the_light_state(tmp_path):
    from tests.vision.test_teach import labelled_folder, scenes

    cal = tmp_path / "calibration"
    install_nets(cal, net_folder(tmp_path / "taught", cls_from=nets.WIDE_NET))
    state = teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 2)),
                        config=CalibratedReader(cal / "camera.toml").config)        # with the taught nets
    teach.save(state, str(cal / TAUGHT_NAME))
    (cal / TAUGHT_NETS / nets.DET_NET).write_bytes(b"")
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.models == MODELS and reader.config.taught is None
    assert "companion dice nets" in reader.problem and "teach again" not in reader.problem


def test_an_install_cut_short_is_finished_at_the_next_start(tmp_path):
    cal = tmp_path / "calibration"
    install_nets(cal, net_folder(tmp_path / "taught"))
    (cal / TAUGHT_NETS).rename(cal / (TAUGHT_NETS + ".old"))     # cut between the two renames
    (cal / ".nets-abc").mkdir()                                  # and a copy never finished
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.models == str(cal / TAUGHT_NETS) and reader.problem is None
    assert sorted(p.name for p in cal.iterdir()) == [TAUGHT_NETS]


def pad(path, size):
    """`path` made `size` bytes long with zeros at the end (sparse: nothing written to disk)."""
    with open(path, "r+b") as f:
        f.truncate(size)


def test_an_oversized_file_is_refused_unread_at_install_and_at_start(tmp_path, monkeypatch):
    cal = tmp_path / "calibration"
    install_nets(cal, net_folder(tmp_path / "first"))
    before = (cal / TAUGHT_NETS / nets.CLS_NET).read_bytes()
    opened = []
    real_read = nets.cv2.dnn.readNetFromONNX
    monkeypatch.setattr(nets.cv2.dnn, "readNetFromONNX", lambda p: opened.append(p) or real_read(p))
    padded = net_folder(tmp_path / "padded")
    pad(padded / nets.WIDE_NET, nets.MAX_NET_BYTES + 1)
    with pytest.raises(ValueError, match=r"dice_cls_wide.onnx is 10.0 MB.*refused unread"):
        install_nets(cal, padded)
    assert opened == []                                              # no net was read
    manifest = net_folder(tmp_path / "manifest")
    (manifest / "taught.json").write_text("{}")
    pad(manifest / "taught.json", 2 * nets.MAX_NET_BYTES)
    with pytest.raises(ValueError, match="taught.json is 20.0 MB"):
        install_nets(cal, manifest)
    assert (cal / TAUGHT_NETS / nets.CLS_NET).read_bytes() == before
    assert sorted(p.name for p in cal.iterdir()) == [TAUGHT_NETS]
    pad(cal / TAUGHT_NETS / nets.DET_NET, nets.MAX_NET_BYTES + 1)      # grown where it is installed
    opened.clear()
    reader = CalibratedReader(cal / "camera.toml")
    assert reader.config.models == MODELS and "refused unread" in reader.problem
    assert not any(TAUGHT_NETS in p for p in opened)


def test_a_file_that_grows_after_its_check_is_not_copied_whole(tmp_path, monkeypatch):
    cal = tmp_path / "calibration"
    taught = net_folder(tmp_path / "taught")
    monkeypatch.setattr(nets, "check", lambda folder: None)            # checked while it was small
    pad(taught / nets.DET_NET, 3 * nets.MAX_NET_BYTES)
    with pytest.raises(ValueError, match="larger than 10 MB"):
        install_nets(cal, taught)
    assert not (cal / TAUGHT_NETS).exists() and list(cal.iterdir()) == []
