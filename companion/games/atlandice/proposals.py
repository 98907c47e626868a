"""What the session may enter or propose by itself at a prompt, and the dice it asks the camera for.

    forced(prompt)          the single legal option of a step the table has no choice in, entered at once
    preferred(prompt)       what CONFIRM may enter without a tap (never a decision nobody made)
    camera_dice(prompt)     how many dice the camera reads now (a gate roll, an effect's roll), else None
    roll_input(prompt, values, source)   the input a reading of those dice enters
"""

from .inputs import is_chance
from .names import DISTRICT_RESOURCE


def forced(prompt: dict) -> dict | None:
    """Never a roll (chance), a revealed tile (hidden information: the table turns it over) or who
    takes a tied tile."""
    options = prompt["options"]
    if is_chance(prompt["kind"]) or prompt["kind"] in ("over", "reveal", "tile_taker") or len(options) != 1:
        return None
    return options[0]


def preferred(prompt: dict) -> dict | None:
    """- the resource taken at a District: its own resource first (R2);
    - a Donation: nobody (more) donates (giving is a choice: "can spend");
    - a step with a single legal option (`forced`: after a load or a resume, before the
      session entered it).
    A die to take, an effect's target, a revealed tile (hidden information) or who takes a
    tied tile is chosen on the tablet."""
    options = prompt["options"]
    kind = prompt["kind"]
    if kind == "over" or not options:
        return None
    if kind == "resource":
        own = DISTRICT_RESOURCE.get(prompt["context"].get("area"))
        for option in options:
            if option["resource"] == own:
                return option
    if kind == "donate":    # nobody (more) donates: the Donation is over
        return {"type": "donate", "all": True}
    return forced(prompt)


def camera_dice(prompt: dict) -> int | None:
    if prompt["kind"] == "gate_roll":
        return prompt["count"]
    return 1 if prompt["kind"] == "roll" else None


def roll_input(prompt: dict, values: list, source: str) -> dict:
    if prompt["kind"] == "gate_roll":
        return {"type": "gate_roll", "dice": list(values), "source": source}
    return {"type": "roll", "value": values[0] if len(values) == 1 else None, "source": source}
