"""The demo camera's pictures: dice trays the project renders itself.

The embedded default (no Pi, no camera) plays these in order through
ImageFolderCamera: each READ shows the next picture. A round of three players
needs one gate roll of 7 dice and then single dice for the effects' rolls, so
the pictures go: a gate roll, then six single dice, and again.

Made by `python -m hardware.demo` (with vision.render); the JPEGs are shipped.
"""

from pathlib import Path

DEMO_FOLDER = Path(__file__).resolve().parent / "demo_frames"

# (file stem, dice values); seeds are fixed so the pictures never change by accident.
SCRIPT = [
    ("01-gates", [3, 5, 1, 4, 6, 2, 5]),
    ("02-roll", [6]), ("03-roll", [2]), ("04-roll", [5]), ("05-roll", [1]), ("06-roll", [4]), ("07-roll", [3]),
    ("08-gates", [2, 2, 6, 4, 1, 3, 5]),
    ("09-roll", [4]), ("10-roll", [6]), ("11-roll", [1]), ("12-roll", [5]), ("13-roll", [2]), ("14-roll", [3]),
]


def make_demo_frames(folder: Path = DEMO_FOLDER) -> list[Path]:
    import cv2

    import vision

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for n, (stem, values) in enumerate(SCRIPT):
        # The demo must read right: keep the first seed the reader gets right, and say which were not.
        for seed in range(100 + 10 * n, 110 + 10 * n):
            image = vision.render(values, seed=seed)
            read = sorted(d.value for d in vision.read(image).dice)
            if read == sorted(values):
                break
            print(f"{stem}: seed {seed} rendered {sorted(values)}, read {read}: skipped")
        else:
            raise RuntimeError(f"{stem}: no seed read right")
        path = folder / f"{stem}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        written.append(path)
    return written


if __name__ == "__main__":
    for p in make_demo_frames():
        print(p, p.stat().st_size // 1024, "KiB")
