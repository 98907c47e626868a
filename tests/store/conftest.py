"""The store's tests play Atlandice games into a games file (the session's fixtures)."""

from tests.session.conftest import profile, random_game  # noqa: F401
