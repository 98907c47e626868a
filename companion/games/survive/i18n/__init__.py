"""Survive's words: en.json and pt-BR.json (events, prompts, refusals, names of things).
Loaded by the adapters at the edge; companion.games.survive.words renders from them."""
