"""Shared fixtures for the vision tests."""

import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_DICE = os.path.join(os.path.dirname(REPO), "shared", "data", "dice")


@pytest.fixture
def repo() -> str:
    return REPO


@pytest.fixture
def shared_folder():
    """Function: name -> path of a shared photo folder, or skip with a clear message."""
    def get(name: str) -> str:
        path = os.path.join(SHARED_DICE, name)
        if not os.path.isfile(os.path.join(path, "labels.csv")):
            pytest.skip(f"shared dice photos not present ({path}); these tests need "
                        "../shared/data/dice next to the repository")
        return path
    return get
