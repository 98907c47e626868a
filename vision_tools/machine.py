"""What machine a figure was measured on. The nets' speed follows the CPU's vector width (OpenCV
and torch run twice as fast with AVX-512 as with AVX2, and only some CPUs compute bfloat16), so
two machines' figures compare only with this beside them."""

from __future__ import annotations

import os
import platform

import cv2


def cpu() -> str:
    """The CPU's model and the vector extensions OpenCV runs with, e.g. "AMD EPYC (AVX2), 2 cores"."""
    name = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            name = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), name)
    except OSError:
        pass
    # getCPUFeaturesLine: "SSE ... *AVX2 *AVX512-SKX?": '*' dispatched at run time, '?' not on this CPU
    have = [f.lstrip("*") for f in cv2.getCPUFeaturesLine().split() if not f.endswith("?")]
    wide = [f for f in have if f.startswith(("AVX2", "AVX512", "NEON", "SVE"))]
    return f"{name} ({', '.join(wide) or 'no AVX2'}), {os.cpu_count() or 1} cores"
