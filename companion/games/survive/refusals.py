"""Why an understood input is not allowed now: the rule, and the reason as a catalog key.

The engine refuses exactly what `expected` does not offer; this only says why.
"""

from .errors import RuleError, illegal
from .explorers import shark_moving
from .names import MOVES_PER_TURN, REPELS, TERRAINS
from .profile import back_total
from .sinking import current_terrain
from .state import in_play, playing_colours
from .tiles import needs_explorer, target_present


def explain(state: dict, inp: dict) -> RuleError:
    kind, step = inp["type"], state["step"]
    seat = state["turn"]["seat"]
    colour = inp.get("colour")
    if colour is not None and colour not in playing_colours(state):
        return illegal(f"{colour} is not a colour in this game", "Preparação do Jogo", "colour_not_playing", colour=colour)
    if kind == "setup":
        return illegal(f"the setup is at step {state['setup_step']}, not {inp['step']}", "Preparação do Jogo", "setup_step",
                       step=state["setup_step"], given=inp["step"])
    if kind == "play" and step in ("tile", "moves"):
        tile = inp["tile"]
        if not state["hands"][seat]:
            return illegal("this player holds no tile", "Visão da Partida", "no_tile_in_hand", seat=seat)
        if state["played"][tile] >= back_total(state["profile"], tile):
            return illegal(f"every {tile} tile of the game was played already", "S15", "tile_used_up", tile=tile)
        if needs_explorer(tile) and not in_play(state, seat):
            return illegal(f"{tile} acts for one of the player's explorers, and none is left in play", "S13",
                           "tile_no_explorer", tile=tile, seat=seat)
        if not target_present(state, tile, seat):
            return illegal(f"there is nothing on the board for {tile} to move", "S13", "tile_no_target", tile=tile)
    if kind == "defend" and step == "creature":
        if inp["seat"] >= len(state["players"]):
            return illegal(f"there is no seat {inp['seat']}", "Preparação do Jogo", "no_such_seat", seat=inp["seat"])
        if inp["seat"] == seat:
            return illegal("a defensive tile is played in another player's turn", "Usando a Informação de uma "
                           "Peça de Terreno", "defend_own_turn", seat=seat)
        if REPELS[inp["tile"]] != state["turn"]["face"]:
            return illegal(f"{inp['tile']} answers a {REPELS[inp['tile']]}, not the creature rolled", "S9",
                           "defend_wrong_creature", tile=inp["tile"], creature=REPELS[inp["tile"]])
        if not state["hands"][inp["seat"]]:
            return illegal("this player holds no tile", "Visão da Partida", "no_tile_in_hand", seat=inp["seat"])
        if not in_play(state, inp["seat"]):
            return illegal(f"{inp['tile']} protects the holder's own explorers, and none is left in play", "S9",
                           "tile_no_explorer", tile=inp["tile"], seat=inp["seat"])
        return illegal(f"every {inp['tile']} tile of the game was played already", "S15", "tile_used_up",
                       tile=inp["tile"])
    if kind in ("saved", "lost") and not state["explorers"][colour]["in_play"]:
        return illegal(f"no {colour} explorer is left on the board", "Objetivo", "no_explorer_in_play",
                       colour=colour)
    if kind == "saved":
        if step != "moves":
            return illegal("an explorer reaches a safe isle with a move, in step 2", "S8", "saved_not_moving")
        if colour not in state["colours"][seat]:
            return illegal(f"only the player whose turn it is moves, and {colour} is not theirs",
                           "Movendo Barcos e Exploradores", "not_your_colour", colour=colour, seat=seat)
        return illegal(f"landing costs a move and the {MOVES_PER_TURN} moves are spent", "S8", "no_moves_left",
                       moves=MOVES_PER_TURN)
    if kind == "boat_lost" and not state["boats"]["board"]:
        return illegal("no boat is on the board", "Barcos", "no_boat_on_board")
    if kind == "boat_lost" and shark_moving(state):
        return illegal("a shark does not take a boat: a boat and its passengers are safe from it",
                       "Usando o Resultado do Dado", "shark_spares_boats")
    if kind == "taken" and step == "whirlpool" and not state["creatures"][inp["creature"]]["board"]:
        return illegal(f"no {inp['creature']} is on the board", "Redemoinho", "no_creature_on_board",
                       creature=inp["creature"])
    if kind == "remove" and step == "remove":
        terrain, now = inp["terrain"], current_terrain(state)
        if not state["terrain"][terrain]:
            return illegal(f"no {terrain} tile is left", "Remova uma peça de Terreno", "terrain_none_left",
                           terrain=terrain)
        if TERRAINS.index(terrain) > TERRAINS.index(now):
            return illegal(f"a {terrain} sinks only when no {now} is left ({state['terrain'][now]} left)",
                           "Remova uma peça de Terreno", "sinking_order", terrain=terrain, first=now,
                           left=state["terrain"][now])
        if terrain != TERRAINS[-1] and state["terrain"][terrain] > 1:
            return illegal(f"a surrounded {terrain} goes as the last {terrain}, and {state['terrain'][terrain]} are left",
                           "S7", "surrounded_not_last", terrain=terrain, left=state["terrain"][terrain])
        return illegal(f"a surrounded {terrain} needs six tiles of the higher terrains around it", "S7",
                       "surrounded_impossible", terrain=terrain)
    if kind == "reveal" and step == "reveal":
        return illegal(f"no {inp['back']} is left under the {state['turn']['removed']} tiles (game profile)", "S4",
                       "back_not_left", back=inp["back"], terrain=state["turn"]["removed"])
    if kind == "value" and step == "values":
        asked = state["to_value"][0]
        if colour != asked:
            return illegal(f"the values asked now are {asked}'s", "Objetivo", "values_other_colour", colour=asked)
        return illegal(f"no {colour} explorer left to enter shows {inp['value']} (game profile: "
                       f"{', '.join(map(str, state['profile']['values']))})", "S3", "value_not_held",
                       colour=colour, value=inp["value"])
    if kind == "values" and step == "values" and state["shown"]:
        return illegal("the numbers are being entered one tap per explorer: tap the next one", "Objetivo",
                       "values_one_by_one", colour=state["to_value"][0])
    if kind == "values" and step == "values":
        asked = state["to_value"][0]
        if colour != asked:
            return illegal(f"the values asked now are {asked}'s", "Objetivo", "values_other_colour", colour=asked)
        saved = state["explorers"][colour]["saved"]
        if len(inp["values"]) != saved:
            return illegal(f"{colour} saved {saved} explorers: enter {saved} values, not {len(inp['values'])}",
                           "Objetivo", "values_count", colour=colour, saved=saved, given=len(inp["values"]))
        return illegal(f"{colour}'s explorers do not hold these values (game profile: "
                       f"{', '.join(map(str, state['profile']['values']))})", "S3", "values_not_held",
                       colour=colour)
    return illegal(f"the companion expects {step} now, not {kind}", "Visão da Partida", "wrong_step",
                   expected=step, given=kind)
