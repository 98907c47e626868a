"""Events: what happened, as data the catalogs (i18n/) turn into words.

An event is {"key": str, "params": {...}, "rule": str | None}. Params hold
seats, citizen numbers (from 0, as the record counts them), path positions, tile
ids and faces ({"colour", "value"}), colour ids, numbers and lists of numbers
(`split`: what each gap crossed costs, in path order), never prose. `rule` names a part of the rules ("Move", "Water", ...) or a
ruling of docs/rulings-atlantis.md ("A6"). KEYS lists every key the engine
can emit (a test checks both catalogs have each one).
"""

KEYS = (
    "atlantis.setup",          # players, hands dealt
    "atlantis.position",       # the game goes on from a position (position.py)
    "atlantis.laid",           # a path tile entered as the table laid it
    "atlantis.shuffled",       # the companion laid the profile's tiles in the given order
    "atlantis.turn",           # whose turn it is
    "atlantis.buy",            # a tile given back for cards
    "atlantis.move",           # a citizen moved to a tile
    "atlantis.move/mainland",  # a citizen moved to the mainland
    "atlantis.bridge",         # a player built their bridge
    "atlantis.owed",           # what the crossing costs (one gap)
    "atlantis.owed/gaps",      # what the crossings cost, gap by gap (split)
    "atlantis.pay",            # the payment, exact
    "atlantis.pay/over",       # the payment, more than owed
    "atlantis.take",           # the tile behind the citizen taken
    "atlantis.take/none",      # no free tile behind
    "atlantis.take/declined",  # the player left the tile behind on the path
    "atlantis.revealed",       # a stack's lower tile, now on top
    "atlantis.flooded",        # a space lost its last tile: water
    "atlantis.bridge_longer",  # a bridge lengthened over a flooded space
    "atlantis.draw",           # cards drawn at the end of a turn
    "atlantis.draw/short",     # fewer cards than due: the draw pile and discards ran out
    "atlantis.reshuffle",      # the discards became the draw pile
    "atlantis.no_move",        # the turn is lost; two cards
    "atlantis.end",            # the third citizen reached the mainland
    "atlantis.settle",         # a citizen moved to the mainland at the end, its crossing paid from points
    "atlantis.settle/gaps",    # ... several gaps, their costs (split)
    "atlantis.settle/free",    # ... nothing to pay on the way
    "atlantis.cards_left",     # a player confirmed the cards left
    "atlantis.cards_left/differs",  # ... a count other than the companion's
    "atlantis.score",          # one player's final score
    "atlantis.winners",        # who won (several on a tie)
)


def event(key: str, rule: str | None = None, **params) -> dict:
    assert key in KEYS, key
    return {"key": key, "params": params, "rule": rule}
