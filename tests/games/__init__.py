"""Each game's rules, pure and alone: one folder a game of the shelf (atlandice/, survive/, atlantis/)."""
