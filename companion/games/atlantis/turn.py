"""A turn: buy cards (optional, first), move one citizen (or lose the turn when no
move is possible), pay the crossings, take the tile behind, draw.

The step a turn is at lives in state["step"]:
    {"t": "turn"}                          buy, move or declare no move
    {"t": "pay", "owed", "citizen"}        the crossings of the move just made
    {"t": "reveal", "position"}            the table enters the lower tile just uncovered
"""

from .buying import buy_options
from .drawing import draw, end_of_turn_cards
from .end import all_home, finish
from .events import event
from .movement import follow
from .path import MAINLAND, is_water
from .reach import affordable, all_routes, legal_move, move_options, movable, route_of, sure_to_move
from .refusals import refuse
from .taking import leave_behind, take_behind
from .water import build_bridge, crossed, crossing_cost, gap_at

NO_MOVE_CARDS = 2   # "perderá su turno, pero recibirá dos cartas como compensación"


def begin_turn(state: dict, seat: int, events: list) -> None:
    state["seat"] = seat
    state["step"] = {"t": "turn"}
    events.append(event("atlantis.turn", None, seat=seat))


def turn_options(state: dict) -> list[dict]:
    """Every legal input of the turn, each move listed (thousands in a crowded turn): for the
    tests and the simulator; the prompt lists only `listed` and says which citizens can move."""
    seat = state["seat"]
    routes = all_routes(state, seat)
    out = move_options(state, seat, routes) + buy_options(state, seat)
    if not sure_to_move(state, seat, routes):
        out.append({"type": "no_move"})
    return out


def turn_context(state: dict) -> dict:
    """What the turn's prompt says besides the hand: the citizens that can move (`movable`) and
    the inputs that can be listed (`listed`: each tile to give back, and no_move when it may be
    declared). The moves themselves are asked step by step (reach) and checked one by one."""
    seat = state["seat"]
    listed = buy_options(state, seat)
    if not sure_to_move(state, seat):
        listed.append({"type": "no_move"})
    return {"movable": movable(state, seat), "listed": listed}


def turn_legal(state: dict, inp: dict) -> bool:
    """An input of the turn is legal now: exactly when `turn_options` lists it."""
    seat = state["seat"]
    if inp["type"] == "move":
        return legal_move(state, inp)
    if inp["type"] == "buy":
        return inp["tile"] in state["held"][seat]
    return not sure_to_move(state, seat)


def resolve_move(state: dict, inp: dict, events: list) -> None:
    seat = state["seat"]
    citizen, cards = inp["citizen"], inp["cards"]
    start = state["citizens"][seat][citizen]
    if inp["bridge"] is not None:
        build_bridge(state, seat, inp["bridge"], events)
    counts = state["cards"][seat]
    counts["hand"] -= len(cards)
    counts["played"] += len(cards)
    state["discard"] += len(cards)
    to, steps = follow(state, start, cards)
    state["citizens"][seat][citizen] = to
    key = "atlantis.move/mainland" if to == MAINLAND else "atlantis.move"
    events.append(event(key, "Move", seat=seat, citizen=citizen, cards=list(cards), position=start, to=to,
                        jumped=steps[:-1]))
    take = inp.get("take", True)
    owed = crossing_cost(state, start, to)
    if owed:
        split = [g["cost"] for g in crossed(state, start, to)]
        events.append(event("atlantis.owed/gaps" if len(split) > 1 else "atlantis.owed", "Water", seat=seat,
                            owed=owed, split=split))
        state["step"] = {"t": "pay", "owed": owed, "citizen": citizen}
        if not take:
            state["step"]["take"] = False
        return
    after_move(state, citizen, events, take)


def after_move(state: dict, citizen: int, events: list, take: bool = True) -> None:
    """The move is paid for: take the tile behind (or leave it, A9), then (unless a tile must be
    entered) end the turn. The move that brings the third citizen home ends the game at once:
    no tile is taken after it (A15)."""
    seat = state["seat"]
    if all_home(state, seat):
        finish(state, seat, events)
        return
    position = state["citizens"][seat][citizen]
    if not take:
        leave_behind(state, seat, position, events)
        end_turn(state, events)
        return
    pending = take_behind(state, seat, position, events)
    if pending is not None:
        state["step"] = {"t": "reveal", "position": pending}
        return
    end_turn(state, events)


def end_turn(state: dict, events: list) -> None:
    seat = state["seat"]
    draw(state, seat, end_of_turn_cards(state, seat), events)
    begin_turn(state, (seat + 1) % len(state["players"]), events)


def resolve_no_move(state: dict, events: list) -> None:
    seat = state["seat"]
    events.append(event("atlantis.no_move", "A11", seat=seat))
    draw(state, seat, NO_MOVE_CARDS, events, rule="A11")
    begin_turn(state, (seat + 1) % len(state["players"]), events)


def bridge_space(state: dict, position: object) -> object:
    """A bridge may be named by any water space of its gap: the first one is the gap's name."""
    if type(position) is int:
        gap = gap_at(state, position)
        if gap is not None:
            return gap["first"]
    return position


def explain_move(state: dict, inp: dict) -> Exception:
    """Why a move not among the options is refused (the options decide; this only says why)."""
    seat = state["seat"]
    citizens = state["citizens"][seat]
    citizen = inp["citizen"]
    if not 0 <= citizen < len(citizens):
        return refuse("no_citizen", f"there is no citizen {citizen + 1}: a player's citizens are 1 to "
                      f"{len(citizens)}", "Move", citizen=citizen, citizens=len(citizens))
    if citizens[citizen] >= MAINLAND:
        return refuse("citizen_home", "that citizen is already on the mainland", "Move", citizen=citizen)
    hand = state["cards"][seat]["hand"]
    if len(inp["cards"]) > hand:
        return refuse("too_many_cards", f"you hold {hand} cards, not {len(inp['cards'])}", "Move", hand=hand,
                      cards=len(inp["cards"]))
    colours = state["profile"]["colours"]
    unknown = next((c for c in inp["cards"] if c not in colours), None)
    if unknown is not None:
        return refuse("unknown_colour", f"{unknown!r} is not a colour of this game ({', '.join(colours)})", "A2",
                      colour=unknown)
    to, _ = follow(state, citizens[citizen], inp["cards"])
    if to is None:
        return refuse("bad_route", "each card but the last must land on an occupied tile, the last on a free "
                      "tile or the mainland", "A5")
    route = route_of(state, seat, citizen, inp["cards"])
    if inp["bridge"] is not None:
        if state["bridge_built"][seat]:
            return refuse("no_bridge_left", "you have already built your bridge", "Water")
        if is_water(state, inp["bridge"]) and gap_at(state, inp["bridge"]) is None:
            return refuse("bridge_at_an_end", "water touching Atlantis or the mainland is no gap: crossing it is "
                          "free and no bridge goes there", "A6", position=inp["bridge"])
        if inp["bridge"] not in route["bridges"]:
            return refuse("bridge_not_crossed", "a bridge goes on an unbridged gap this move crosses", "A7",
                          position=inp["bridge"])
    if not affordable(state, seat, route, inp["bridge"]):
        return refuse("cannot_afford", "you cannot pay these crossings with your tiles and the cards left",
                      "A8", cost=route["cost"])
    return refuse("bad_route", "that move is not possible now", "Move")
