"""Preparação do Jogo: the eight setup steps, walked one at a time.

The board holds the pieces; the companion says each step with the numbers of this
game (players, colours, boats, supply) and waits for the table to tap it done.
"""

from .events import event
from .names import BOATS_PER_COLOUR, CREATURE_TOKENS, EXPLORERS_PER_COLOUR, SETUP_STEPS, TERRAIN_TILES
from .state import playing_colours, two_colours

# The setup's own options beyond the players and the first player, as data for a setup
# form: the key, the values it takes (the first is the default), the player counts it
# applies to, and its words in the catalogs' "page" group (`words` the legend,
# `choice_words` + value each choice).
SETUP_OPTIONS = (
    {"key": "colours_each", "kind": "choice", "among": (2, 1), "players": (2,),
     "words": "setup_colours_each", "choice_words": "setup_colours_each_"},
    {"key": "challenges", "kind": "checks", "among": (1, 2, 3, 4), "players": (2, 3, 4),
     "words": "setup_challenges", "choice_words": "challenge_"},
)
# What a new game's setup may hold besides its options: the seats' colours, chosen by the API.
SETUP_KEYS = ("players", "first_player", "colours", "colours_each", "challenges")


def step_events(state: dict) -> list[dict]:
    """What setup step `state["setup_step"]` asks the table to do, as events (the prompt's "now")."""
    events: list = []
    announce(state, events)
    return events


def announce(state: dict, events: list) -> None:
    """The events that say setup step `state["setup_step"]`."""
    step = state["setup_step"]
    first = state["first"]
    if step == 1:
        events.append(event("setup.serpents", "Preparação do Jogo", serpents=CREATURE_TOKENS["serpent"]))
    elif step == 2:
        events.append(event("setup.island", "Preparação do Jogo", total=sum(TERRAIN_TILES.values()), **TERRAIN_TILES))
    elif step == 3:
        events.append(event("setup.explorers_taken", "S1" if two_colours(state) else "Preparação do Jogo",
                            explorers=EXPLORERS_PER_COLOUR))
        for seat, colours in enumerate(state["colours"]):
            for colour in colours:
                events.append(event("setup.colour_of", None, seat=seat, colour=colour))
    elif step == 4:
        events.append(event("setup.boats_taken", "S1" if two_colours(state) else "Preparação do Jogo",
                            each=BOATS_PER_COLOUR, boats=state["boats"]["board"]))
    elif step == 5:
        events.append(event("setup.supply", "Preparação do Jogo", boats=state["boats"]["supply"],
                            sharks=state["creatures"]["shark"]["supply"],
                            whales=state["creatures"]["whale"]["supply"]))
    elif step == 6:
        events.append(event("setup.first_player", "S3", seat=first, values=state["profile"]["values"]))
    elif step == 7:
        events.append(event("setup.place_explorers", "Desafio 1" if 1 in state["challenges"] else "Preparação do Jogo",
                            variant="overpopulation" if 1 in state["challenges"] else None,
                            seat=first, explorers=EXPLORERS_PER_COLOUR * len(playing_colours(state))))
    elif step == 8:
        events.append(event("setup.place_boats", "Preparação do Jogo", seat=first, boats=state["boats"]["board"]))


def begin(state: dict, events: list) -> None:
    """The first events of a game: the profile's standing, the challenges, setup step 1."""
    if not state["profile"]["confirmed"]:
        events.append(event("setup.profile_unconfirmed", "S4", name=state["profile"]["name"]))
    for number in state["challenges"]:
        events.append(event(f"setup.challenge_{number}", f"Desafio {number}"))
    announce(state, events)


def options(state: dict) -> list[dict]:
    return [{"type": "setup", "step": state["setup_step"]}]


def resolve(state: dict, inp: dict, events: list) -> bool:
    """Step done: announce the next one; True when the setup is finished."""
    if state["setup_step"] == SETUP_STEPS:
        events.append(event("setup.done", "Preparação do Jogo", seat=state["first"]))
        return True
    state["setup_step"] += 1
    announce(state, events)
    return False
