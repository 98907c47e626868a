"""Step 3, the Clock (Survey, Donation, the end), and step 4, the next First Player."""

from itertools import combinations, combinations_with_replacement

from .events import event
from .final_scoring import score_state
from .names import MARKET, RESOURCE_DISTRICT, RESOURCES, area_of_face
from .state import new_turn, seat_count, vp
from .survey import survey_counts, survey_winners


def move_clock(state: dict, task: dict, events: list) -> None:
    """Automatic: the hand moves by the clock icons of the Area of the remaining die."""
    pending = state["pending"]
    if state["end_after_visits"]:
        # R9: the Inn brought the hand to the end; there is nowhere left to move.
        events.append(event("clock.skipped", rule="R9"))
        pending.append({"t": "final"})
        return
    face = state["dice"][0]
    area = area_of_face(face, state["depleted"])
    tile = MARKET if area == MARKET else state["districts"][area]["top"]
    steps = state["profile"]["icons"][tile]
    track = state["profile"]["track"]
    end = len(track) - 1
    state["clock"] = min(state["clock"] + steps, end)
    space = track[state["clock"]]
    events.append(event("clock.move", area=area, tile=tile, steps=steps, space=state["clock"], kind=space))
    if state["clock"] == end:
        pending.append({"t": "final"})
        return
    pending.append({"t": "next_round"})
    if space.startswith("survey:"):
        survey(state, space.split(":", 1)[1], events)
    elif space == "donation":
        humans = len(state["players"])
        # R15: the neutral player makes no choices of its own, so it does not donate.
        for i in reversed(range(humans)):
            pending.append({"t": "donate", "seat": (state["first"] + i) % humans})


def survey(state: dict, subject: str, events: list) -> None:
    if subject in state["depleted"]:
        events.append(event("survey.depleted", subject=subject, rule="Survey"))
        return
    counts = survey_counts(state["stocks"], subject, state["depleted"])
    winners = survey_winners(counts)
    for seat in winners:
        state["tokens"][seat] += 1
    events.append(event("survey.result", rule="R7" if not winners else None, subject=subject,
                        counts=counts, winners=winners, place=_number(winners)))


def donate_options(state: dict, task: dict) -> list[dict]:
    """The player asked: a pair, or done (the first shape). Then, for the whole table at once:
    each player still in this Donation gives a count of one kind (2, 4, ... of it) or a pair of
    two kinds, in one tap; and "nobody (more) donates" ends it for everybody (DonateKind)."""
    stock = state["stocks"][task["seat"]]
    pairs = [{"type": "donate", "pair": [a, b]} for a, b in combinations_with_replacement(RESOURCES, 2)
             if (stock[a] >= 2 if a == b else stock[a] >= 1 and stock[b] >= 1)]
    if not pairs:
        return []
    gifts = []
    for seat in donation_seats(state, task):
        held = state["stocks"][seat]
        for r in RESOURCES:
            gifts += [{"type": "donate", "seat": seat, "give": {r: n}} for n in range(2, held[r] + 1, 2)]
        gifts += [{"type": "donate", "seat": seat, "give": {a: 1, b: 1}}
                  for a, b in combinations(RESOURCES, 2) if held[a] % 2 and held[b] % 2]
    return pairs + [{"type": "donate", "pair": None}] + gifts + [{"type": "donate", "all": True}]


def donation_seats(state: dict, task: dict) -> list[int]:
    """The players still in this Donation, in order: the one asked, then those after."""
    below = []
    for t in reversed(state["pending"]):
        if t["t"] != "donate":
            break
        below.append(t["seat"])
    seats = [task["seat"]] + [s for s in below if s != task["seat"]]
    return [s for s in seats if sum(state["stocks"][s].values()) >= 2]


def resolve_donate(state: dict, task: dict, inp: dict, events: list) -> None:
    seat = task["seat"]
    if inp.get("all"):
        while state["pending"] and state["pending"][-1]["t"] == "donate":
            state["pending"].pop()
        events.append(event("donation.over", seat=seat))
        return
    if "give" in inp:
        giver = inp["seat"]
        for r, n in inp["give"].items():
            state["stocks"][giver][r] -= n
            if r not in state["depleted"]:     # R10: a depleted District takes nothing back
                state["districts"][RESOURCE_DISTRICT[r]]["resources"][r] += n
        tokens = sum(inp["give"].values()) // 2
        state["tokens"][giver] += tokens
        events.append(event("donation.give", seat=giver, gift=dict(inp["give"]), tokens=tokens))
        state["pending"].append(dict(task))  # the Donation goes on: more may give
        return
    if inp["pair"] is None:
        events.append(event("donation.done", seat=seat))
        return
    for r in inp["pair"]:
        state["stocks"][seat][r] -= 1
        if r in state["depleted"]:
            pass  # R10: a depleted District takes nothing back; the resource leaves the game
        else:
            state["districts"][RESOURCE_DISTRICT[r]]["resources"][r] += 1
    state["tokens"][seat] += 1
    events.append(event("donation.pair", seat=seat, pair=list(inp["pair"])))
    state["pending"].append(dict(task))  # may give another pair


def donate_skipped(state: dict, task: dict) -> dict:
    return event("donation.cannot", seat=task["seat"], held=sum(state["stocks"][task["seat"]].values()))


def next_round(state: dict, task: dict, events: list) -> None:
    """Step 4: the First Player token passes clockwise; then the gates open again."""
    humans = len(state["players"])
    state["vp_history"].append(vp(state))
    state["first"] = (state["first"] + 1) % humans
    state["round"] += 1
    state["dice"] = []
    state["turn"] = new_turn(humans, state["first"], seat_count(state))
    state["pending"].append({"t": "gate_roll"})
    events.append(event("round.start", round=state["round"], seat=state["first"]))


def finish(state: dict, task: dict, events: list) -> None:
    """The game ends: final scoring with its breakdown."""
    state["vp_history"].append(vp(state))
    result = score_state(state)
    state["over"] = True
    state["result"] = result
    for r, line in result["resources"].items():
        if not line["depleted"]:
            events.append(event("final.resource", rule="R7" if not line["first"] else None, resource=r,
                                counts=line["counts"], first=line["first"], second=line["second"],
                                tied=line["tied"]))
    events.append(event("final.winners", winners=result["winners"], total=result["total"],
                        rule="R11" if state["neutral"] else None, place=_number(result["winners"])))


def _number(seats: list) -> str:
    """Which sentence fits: "nobody", "one" (Ana wins) or "many" (Ana and Bruno win)."""
    return "nobody" if not seats else ("one" if len(seats) == 1 else "many")


