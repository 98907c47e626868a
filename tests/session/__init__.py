"""Atlandice with the session: its lifecycle, inputs, undo and redo, the dice desk's proposals, the
record and its replay, the words."""
