"""What machine a figure was measured on. The nets' speed follows the CPU's vector width (OpenCV
and torch run twice as fast with AVX-512 as with AVX2, and only some CPUs compute bfloat16), so
two machines' figures compare only with this beside them. It names the units that compute
bfloat16 too: a recipe run gives other nets on a CPU with AMX than on one with AVX-512 BF16 only."""

from __future__ import annotations

import os
import platform

import cv2

# /proc/cpuinfo flags of the units that compute bfloat16, as the machine line names them
BF16_FLAGS = {"amx_bf16": "AMX-BF16", "avx512_bf16": "AVX512-BF16"}


def bf16_units(flags) -> list[str]:
    """The bfloat16 units among a CPU's /proc/cpuinfo `flags`, in BF16_FLAGS' order."""
    have = set(flags)
    return [name for flag, name in BF16_FLAGS.items() if flag in have]


def cpuinfo(path: str = "/proc/cpuinfo") -> tuple[str, list[str]]:
    """(the CPU's model name, its flags) from `path` (the platform's name and no flags without it)."""
    name, flags = platform.processor() or platform.machine(), []
    try:
        with open(path) as fh:
            lines = fh.read().splitlines()
    except OSError:
        return name, flags
    name = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("model name")), name)
    flags = next((ln.split(":", 1)[1].split() for ln in lines if ln.startswith("flags")), flags)
    return name, flags


def cpu() -> str:
    """The CPU's model, the vector extensions OpenCV runs with and the units that compute bfloat16,
    e.g. "AMD EPYC (AVX2), 2 cores", "Intel Xeon (AVX2, AVX512-SKX; bfloat16: AMX-BF16), 2 cores"."""
    name, flags = cpuinfo()
    # getCPUFeaturesLine: "SSE ... *AVX2 *AVX512-SKX?": '*' dispatched at run time, '?' not on this CPU
    have = [f.lstrip("*") for f in cv2.getCPUFeaturesLine().split() if not f.endswith("?")]
    wide = [f for f in have if f.startswith(("AVX2", "AVX512", "NEON", "SVE"))]
    units = bf16_units(flags)
    bf16 = f"; bfloat16: {', '.join(units)}" if units else ""
    return f"{name} ({', '.join(wide) or 'no AVX2'}{bf16}), {os.cpu_count() or 1} cores"
