"""The Atlandice table companion: rules engine, game session and command line."""

__version__ = "0.1.0"
