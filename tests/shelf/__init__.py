"""The shelf: the registry, every game through the shared parts (session, words, replay), the toy
game that proves a new game touches only its own package, no game named outside."""
