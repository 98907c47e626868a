"""Tools beside the dice reader, for a source checkout: the bench (`python -m vision_tools.bench DIR`),
its contact sheet, and the nets' training and threshold sweeps (vision_tools.train, which needs
torch). Not installed with the package: the Pi runs the reader alone (pyproject.toml)."""
