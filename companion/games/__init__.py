"""The games of the shelf, one package each."""
