"""The shelf of games: one package per game, each a pure rules engine (standard library only)
with its own words (i18n catalogs) and rulings."""
