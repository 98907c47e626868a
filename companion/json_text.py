"""JSON as the companion reads it from outside: a record's line, a request's body.

Python's json module reads more than the companion can keep. A lone surrogate
("\\ud800") is no character: it cannot be written as UTF-8, so SQLite refuses it.
A number of 5,000 digits fails int(), one past 2**63 fails SQLite, 1e400 is
infinity, NaN is not JSON, and text nested 100,000 deep overflows the stack.
`loads` refuses each of them with its reason (a JSONTextError, a ValueError),
before anything is stored or replayed.
"""

import json
import re

MAX_DEPTH = 64             # a record's deepest line (a position's header) is under 10
MAX_INT = 2 ** 63 - 1      # SQLite's largest INTEGER
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONTextError(ValueError):
    """Text that is not JSON the companion can keep. `key` and `params` say why as data
    (the catalogs' err_<key>); `detail` holds the JSON parser's own (English) words."""

    def __init__(self, key: str, message: str, params: dict | None = None, detail: str | None = None):
        super().__init__(message)
        self.key = key
        self.message = message
        self.params = params or {}
        self.detail = detail


def _too_large() -> JSONTextError:
    return JSONTextError("json_number", f"a number is too large (at most {MAX_INT})", {"max": MAX_INT})


def _int(text: str) -> int:
    if len(text.lstrip("-")) > len(str(MAX_INT)) or abs(int(text)) > MAX_INT:
        raise _too_large()
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _too_large()
    return value


def _constant(name: str):
    raise JSONTextError("json_syntax", f"not valid JSON ({name} is not a JSON number)",
                        detail=f"{name} is not a JSON number")


def loads(text: str | bytes) -> object:
    """Parse JSON text; JSONTextError says what is wrong with it."""
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise _too_deep() from None
    except json.JSONDecodeError as exc:
        raise JSONTextError("json_syntax", f"not valid JSON ({exc.msg})", detail=exc.msg) from None
    except UnicodeDecodeError:
        raise JSONTextError("json_syntax", "not valid JSON (not UTF-8 text)", detail="not UTF-8 text") from None
    _check(value)
    return value


def _too_deep() -> JSONTextError:
    return JSONTextError("json_deep", f"nested too deep (at most {MAX_DEPTH} levels)", {"max": MAX_DEPTH})


def _check(value: object) -> None:
    """Walk the parsed value (without recursion: it may be deep): depth and lone surrogates."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise JSONTextError("json_surrogate", "a text holds a lone surrogate (such as \\ud800), "
                                    "which is not a character")
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise _too_deep()
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
