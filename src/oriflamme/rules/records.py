"""Records: the position format (any state, mid-ability included), saves and replays.

A *card reference* names a card by its owner and type, ``"red:soldier"`` (a family holds one
card of each type). In the Queue a reference may carry modifiers: ``*`` face up, ``+N`` tokens,
``@colour`` the Corruption token on it, e.g. ``"blue:queen*@red"``. In a family's zones the
owner is implied: ``"soldier"``. See ``docs/formats.md`` for the whole format.

>>> from oriflamme.rules.config import GameConfig
>>> pos = {"config": {"players": 3}, "round": 2, "phase": "resolution", "cursor": 0,
...        "queue": [["red:soldier*"], ["blue:spy"], ["green:lord*"]],
...        "families": {c: {"rest": "set_aside"} for c in ("red", "blue", "green")}}
>>> s = state_from_position(pos)
>>> [len(st) for st in s.queue], s.influence
([1, 1, 1], [1, 1, 1])
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from .abilities import ABILITIES
from .cards import CardType
from .config import ConfigError, GameConfig
from .engine import advance
from .events import EventKind
from .observe import FRAME_NAMES
from .state import (
    ACTIVATE,
    CHOOSE,
    DISCARD,
    DISCARDED,
    ELIMINATED,
    GAP,
    HAND,
    N_ZONES,
    OVER,
    PHASE_NAMES,
    PILE,
    PLACEMENT,
    RESERVE,
    RESOLUTION,
    REVEAL,
    SET_ASIDE,
    TOKENS,
    TWIN,
    ZONE_NAMES,
    Card,
    Event,
    Family,
    PendingFrame,
    State,
)
from .texts import FAMILY_COLOURS

POSITION_FORMAT = "oriflamme-position"
SAVE_FORMAT = "oriflamme-save"
REPLAY_FORMAT = "oriflamme-replay"
VERSION = 1

_REF = re.compile(r"^\s*(?:([a-z]+)\s*:)?\s*([^*+@]+?)\s*((?:[*]|\+\d+|@[a-z]+|\s)*)$")
_FRAME_KINDS = {v: k for k, v in FRAME_NAMES.items()}


class RecordError(ValueError):
    """A position, save or replay that is malformed or inconsistent; the message says why."""


def colour_index(name: str, families: int) -> int:
    key = name.strip().lower()
    if key not in FAMILY_COLOURS[:families]:
        allowed = ", ".join(FAMILY_COLOURS[:families])
        raise RecordError(f"unknown family {name!r} (this game has {allowed})")
    return FAMILY_COLOURS.index(key)


class _Ref:
    __slots__ = ("corrupt", "face_up", "family", "tokens", "type")

    def __init__(self, text: Any, families: int, family: Family | None, where: str) -> None:
        if not isinstance(text, str):
            raise RecordError(f"{where}: a card reference must be a string, not {text!r}")
        m = _REF.match(text.lower())
        if not m:
            raise RecordError(f"{where}: malformed card reference {text!r}")
        fam, name, mods = m.groups()
        if fam is None and family is None:
            raise RecordError(f"{where}: {text!r} needs its family, e.g. 'red:{name}'")
        self.family = colour_index(fam, families) if fam is not None else family
        if family is not None and self.family != family:
            raise RecordError(f"{where}: {text!r} is not a card of {FAMILY_COLOURS[family]}")
        try:
            self.type = CardType.from_name(name)
        except ValueError as exc:
            raise RecordError(f"{where}: {exc}") from None
        self.face_up = "*" in mods
        t = re.search(r"\+(\d+)", mods)
        self.tokens = int(t.group(1)) if t else 0
        c = re.search(r"@([a-z]+)", mods)
        self.corrupt = colour_index(c.group(1), families) if c else -1


def card_ref(state: State, card: Card, with_state: bool = False) -> str:
    """The reference of ``card``: ``"red:soldier"`` (with modifiers if ``with_state``)."""
    text = f"{FAMILY_COLOURS[state.card_family[card]]}:{CardType(state.card_type[card]).slug}"
    if with_state:
        if state.face_up[card]:
            text += "*"
        if state.tokens[card]:
            text += f"+{state.tokens[card]}"
        if state.corrupt[card] >= 0:
            text += f"@{FAMILY_COLOURS[state.corrupt[card]]}"
    return text


# -- position -> dict -------------------------------------------------------------------------
def position_of(state: State, with_ids: bool = True) -> dict[str, Any]:
    """Describe the state in the position format (complete: it loads back identical)."""
    cfg = state.config
    families: dict[str, Any] = {}
    for f in range(cfg.families):
        zones = {
            ZONE_NAMES[z]: [CardType(state.card_type[c]).slug for c in state.zones[f * N_ZONES + z]]
            for z in range(N_ZONES)
        }
        families[FAMILY_COLOURS[f]] = {k: v for k, v in zones.items() if v}
    out: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "config": cfg.to_dict(),
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "first_player": state.first_player,
        "placed": state.placed,
        "influence": list(state.influence),
        "queue": [[card_ref(state, c, True) for c in st] for st in state.queue],
        "families": families,
        "cursor": state.cursor,
        "resolving": card_ref(state, state.resolving) if state.resolving >= 0 else None,
        "pending": [_frame_out(state, fr) for fr in state.pending],
        "scores_by_round": [list(r) for r in state.scores_by_round],
    }
    if with_ids:
        out["ids"] = {card_ref(state, c): c for c in range(len(state.card_type))}
    return out


def _frame_out(state: State, frame: PendingFrame) -> dict[str, Any]:
    kind, x, f, arg = frame
    out: dict[str, Any] = {
        "frame": FRAME_NAMES[kind],
        "card": card_ref(state, x),
        "family": FAMILY_COLOURS[f],
    }
    if kind == CHOOSE:
        out["ability"] = CardType(arg).slug
    elif kind in (GAP, TWIN):
        out["target"] = card_ref(state, arg)
    elif kind in (ACTIVATE, TOKENS):
        out["tokens"] = arg
    return out


# -- dict -> state ----------------------------------------------------------------------------
def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = data.get(key, default)
    if value is not default and (not isinstance(value, kind) or isinstance(value, bool)):
        raise RecordError(f"{key!r} has the wrong type ({type(value).__name__})")
    return value


def state_from_position(data: Mapping[str, Any], log_events: bool = True) -> State:
    """Build a state from the position format, checking it completely.

    Missing cards of a family go to the zone its ``"rest"`` names; without ``"rest"`` every
    card must be placed. Card ids come from ``"ids"`` if given, else are dealt at random from
    ``"id_seed"`` (default 0) so that ids never tell what a card is.
    """
    if not isinstance(data, Mapping):
        raise RecordError("a position must be a JSON object")
    fmt = data.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise RecordError(f"not a position (format {fmt!r})")
    try:
        cfg = GameConfig.from_dict(_get(data, "config", Mapping, {}))
    except ConfigError as exc:
        raise RecordError(f"config: {exc}") from None
    nf = cfg.families
    size = cfg.family_size
    family_types = [int(t) for t in cfg.card_types]
    if cfg.has_twin:
        family_types.append(int(CardType.TWIN))

    # Where every card is: (family, type) -> location.
    located: dict[tuple[int, int], str] = {}

    def claim(family: Family, t: int, where: str) -> None:
        if t not in family_types:
            raise RecordError(
                f"{where}: {CardType(t).slug} is not in this game's card set")
        key = (family, t)
        if key in located:
            raise RecordError(
                f"{FAMILY_COLOURS[family]}:{CardType(t).slug} is in two places: "
                f"{located[key]} and {where}")
        located[key] = where

    queue_refs: list[list[_Ref]] = []
    corrupters: set[int] = set()
    raw_queue = _get(data, "queue", list, [])
    for i, stack in enumerate(raw_queue):
        if not isinstance(stack, list) or not stack:
            raise RecordError(f"queue[{i}] must be a non-empty list of cards (bottom first)")
        refs = []
        for j, text in enumerate(stack):
            ref = _Ref(text, nf, None, f"queue[{i}][{j}]")
            assert ref.family is not None
            claim(ref.family, ref.type, f"queue[{i}][{j}]")
            if ref.type == CardType.TWIN and not ref.face_up:
                raise RecordError(f"queue[{i}][{j}]: the Twin is always face up")
            if ref.corrupt >= 0 and not (ref.face_up and ref.type.is_character):
                raise RecordError(
                    f"queue[{i}][{j}]: only a revealed Character can carry a Corruption token")
            if ref.corrupt >= 0 and ref.corrupt in corrupters:
                raise RecordError(
                    f"queue[{i}][{j}]: {FAMILY_COLOURS[ref.corrupt]} has one Corruption token"
                    " and it is already on another card (R-CORR-1)")
            corrupters.add(ref.corrupt)
            if ref.face_up and ref.tokens:
                raise RecordError(f"queue[{i}][{j}]: a face-up card carries no token (R-RES-1)")
            refs.append(ref)
        queue_refs.append(refs)

    raw_fams = _get(data, "families", Mapping, {})
    zones_refs: dict[tuple[int, int], list[int]] = {}
    rest: dict[int, int] = {}
    for name, zones in raw_fams.items():
        f = colour_index(str(name), nf)
        if not isinstance(zones, Mapping):
            raise RecordError(f"families.{name} must be an object of zones")
        for zname, cards in zones.items():
            if zname == "rest":
                if cards not in ZONE_NAMES or cards == "reserve":
                    raise RecordError(f"families.{name}.rest must name a zone, not {cards!r}")
                rest[f] = ZONE_NAMES.index(cards)
                continue
            if zname not in ZONE_NAMES:
                raise RecordError(f"families.{name}: unknown zone {zname!r}")
            if not isinstance(cards, list):
                raise RecordError(f"families.{name}.{zname} must be a list of card names")
            z = ZONE_NAMES.index(zname)
            lst = zones_refs.setdefault((f, z), [])
            for k, text in enumerate(cards):
                ref = _Ref(text, nf, f, f"families.{name}.{zname}[{k}]")
                if ref.face_up or ref.tokens or ref.corrupt >= 0:
                    raise RecordError(f"families.{name}.{zname}[{k}]: modifiers only in the Queue")
                claim(f, ref.type, f"families.{name}.{zname}")
                lst.append(ref.type)
    for f in range(nf):
        for t in family_types:
            if (f, t) not in located:
                z = RESERVE if t == CardType.TWIN else rest.get(f, -1)
                if z < 0:
                    raise RecordError(
                        f"{FAMILY_COLOURS[f]}:{CardType(t).slug} is nowhere; place it or give "
                        f"families.{FAMILY_COLOURS[f]}.rest")
                zones_refs.setdefault((f, z), []).append(t)
                located[(f, t)] = ZONE_NAMES[z]
    for (f, z), types in zones_refs.items():
        twin = int(CardType.TWIN)
        if z == RESERVE and any(t != twin for t in types):
            raise RecordError(f"families.{FAMILY_COLOURS[f]}.reserve holds only the Twin")
        if z in (HAND, SET_ASIDE, PILE) and twin in types:
            raise RecordError(
                f"families.{FAMILY_COLOURS[f]}: the Twin is never in a hand, set-aside or pile"
                " (R-TWIN-1)")

    # Card ids.
    ids: dict[tuple[int, int], int] = {}
    raw_ids = data.get("ids")
    if raw_ids is not None:
        if not isinstance(raw_ids, Mapping):
            raise RecordError("ids must map card references to ids")
        for text, cid in raw_ids.items():
            ref = _Ref(text, nf, None, f"ids[{text!r}]")
            assert ref.family is not None
            base = ref.family * size
            if not isinstance(cid, int) or isinstance(cid, bool) or not base <= cid < base + size:
                raise RecordError(
                    f"ids[{text!r}] must be an id of its family ({base}..{base + size - 1})")
            ids[(ref.family, int(ref.type))] = cid
        if sorted(ids) != sorted(located) or len(set(ids.values())) != len(ids):
            raise RecordError("ids must give every card of the game a distinct id of its family")
    else:
        rng = random.Random(_get(data, "id_seed", int, 0))
        for f in range(nf):
            slots = list(range(f * size, f * size + size))
            rng.shuffle(slots)
            for t, cid in zip(family_types, slots, strict=True):
                ids[(f, t)] = cid

    n = nf * size
    card_type = [0] * n
    for (_f, t), cid in ids.items():
        card_type[cid] = t

    s = State.__new__(State)
    s.config = cfg
    s.card_type = tuple(card_type)
    s.card_family = tuple(c // size for c in range(n))
    s.face_up = [False] * n
    s.tokens = [0] * n
    s.corrupt = [-1] * n
    s.queue = []
    for refs in queue_refs:
        stack = []
        for ref in refs:
            assert ref.family is not None
            cid = ids[(ref.family, int(ref.type))]
            s.face_up[cid] = ref.face_up
            s.tokens[cid] = ref.tokens
            s.corrupt[cid] = ref.corrupt
            stack.append(cid)
        s.queue.append(stack)
    s.zones = [[] for _ in range(nf * N_ZONES)]
    for (f, z), types in zones_refs.items():
        s.zones[f * N_ZONES + z] = [ids[(f, t)] for t in types]
        if z in (RESERVE, DISCARDED, ELIMINATED):
            for t in types:
                s.face_up[ids[(f, t)]] = True

    influence = _get(data, "influence", list, [1] * cfg.players)
    if len(influence) != cfg.players or any(
        not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in influence
    ):
        raise RecordError(f"influence must be {cfg.players} non-negative integers (R-SCORE-1)")
    s.influence = list(influence)
    s.round = _get(data, "round", int, 1)
    if not 1 <= s.round <= 6:
        raise RecordError(f"round must be 1 to 6, not {s.round}")
    phase = _get(data, "phase", str, "placement")
    if phase not in PHASE_NAMES:
        raise RecordError(f"phase must be one of {', '.join(PHASE_NAMES)}, not {phase!r}")
    s.phase = PHASE_NAMES.index(phase)
    s.first_player = _get(data, "first_player", int, 0)
    if not 0 <= s.first_player < cfg.players:
        raise RecordError(f"first_player must be 0 to {cfg.players - 1}")
    s.placed = _get(data, "placed", int, 0)
    per_round = cfg.players * cfg.placements_per_round
    if not 0 <= s.placed <= per_round or (s.phase == PLACEMENT and s.placed == per_round):
        raise RecordError(f"placed must be 0 to {per_round - 1} in the placement phase")
    s.cursor = _get(data, "cursor", int, 0)
    if s.phase == RESOLUTION and not 0 <= s.cursor <= len(s.queue):
        raise RecordError(f"cursor must be 0 to {len(s.queue)} (the Queue has that many stacks)")
    resolving = data.get("resolving")
    s.resolving = -1 if resolving is None else _ref_id(resolving, nf, ids, "resolving")
    s.pending = [
        _frame_in(fr, nf, ids, f"pending[{i}]")
        for i, fr in enumerate(_get(data, "pending", list, []))
    ]
    if s.pending and s.phase != RESOLUTION:
        raise RecordError("pending abilities exist only in the resolution phase")
    s.scores_by_round = []
    for i, row in enumerate(_get(data, "scores_by_round", list, [])):
        if not isinstance(row, list) or len(row) != cfg.players or any(
            not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in row
        ):
            raise RecordError(f"scores_by_round[{i}] must be {cfg.players} non-negative integers")
        s.scores_by_round.append(tuple(row))
    if len(s.scores_by_round) > s.round:
        raise RecordError("scores_by_round has more rows than rounds played")
    if s.phase == OVER and s.round != 6:
        raise RecordError("a game is over only after round 6 (R-END-1)")
    s.log = [] if log_events else None
    _check_frames(s)
    ending = {x for kind, x, _f, _a in s.pending if kind == DISCARD}
    if s.phase == RESOLUTION and not s.pending and s.resolving < 0 and s.cursor < len(s.queue):
        ending.add(s.queue[s.cursor][-1])  # about to apply at the cursor: a test's set-up
    for st in s.queue:
        for c in st:
            if s.face_up[c] and CardType(s.card_type[c]).is_intrigue and c not in ending:
                raise RecordError(
                    f"{card_ref(s, c)}: a face-up Intrigue stays in the Queue only while its"
                    " ability resolves (under the cursor or with a pending discard frame)")
    if s.phase != OVER:
        advance(s)
    return s


def _ref_id(text: Any, nf: int, ids: Mapping[tuple[int, int], int], where: str) -> int:
    ref = _Ref(text, nf, None, where)
    assert ref.family is not None
    key = (ref.family, int(ref.type))
    if key not in ids:
        raise RecordError(f"{where}: {text!r} is not a card of this game")
    return ids[key]


def _frame_in(
    fr: Any, nf: int, ids: Mapping[tuple[int, int], int], where: str
) -> PendingFrame:
    if not isinstance(fr, Mapping):
        raise RecordError(f"{where} must be an object")
    kind = _FRAME_KINDS.get(str(fr.get("frame")))
    if kind is None:
        raise RecordError(f"{where}.frame must be one of {', '.join(_FRAME_KINDS)}")
    x = _ref_id(fr.get("card"), nf, ids, f"{where}.card")
    f = colour_index(str(fr.get("family")), nf)
    arg = 0
    if kind == CHOOSE:
        try:
            t = CardType.from_name(str(fr.get("ability")))
        except ValueError as exc:
            raise RecordError(f"{where}.ability: {exc}") from None
        if ABILITIES[t].decision is None or t == CardType.MACHINATION:
            raise RecordError(f"{where}.ability: {t.slug} has no choice to make")
        arg = int(t)
    elif kind in (GAP, TWIN):
        arg = _ref_id(fr.get("target"), nf, ids, f"{where}.target")
    elif kind in (ACTIVATE, TOKENS):
        arg = fr.get("tokens", 0)
        if not isinstance(arg, int) or isinstance(arg, bool) or arg < 0:
            raise RecordError(f"{where}.tokens must be a non-negative integer")
    return (kind, x, f, arg)


def _check_frames(state: State) -> None:
    """Decision frames must refer to cards where the decision makes sense."""
    for i, (kind, x, _f, arg) in enumerate(state.pending):
        top = i == len(state.pending) - 1
        if kind == REVEAL and (not top or state.face_up[x] or state.stack_index(x) < 0):
            raise RecordError(f"pending[{i}]: reveal needs the last frame, on a face-down top card")
        if kind in (CHOOSE, GAP, TWIN) and state.stack_index(x) < 0:
            raise RecordError(f"pending[{i}]: the acting card must be a top card of the Queue")
        if kind == GAP and state.stack_index(arg) < 0:
            raise RecordError(f"pending[{i}]: the card to move must be a top card")
        if kind == TWIN and state.card_type[arg] != CardType.TWIN:
            raise RecordError(f"pending[{i}]: target must be a Twin")
        if kind == TWIN and arg not in state.zone(state.card_family[arg], RESERVE):
            raise RecordError(f"pending[{i}]: the Twin must be in its reserve")
        if kind == DISCARD and not CardType(state.card_type[x]).is_intrigue:
            raise RecordError(f"pending[{i}]: only an Intrigue is discarded after its ability")


# -- saves and replays --------------------------------------------------------------------------
def save_dict(
    state: State, seed: int | None = None, actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A save file: the full position with ids, the log, and the history if known."""
    return {
        "format": SAVE_FORMAT,
        "version": VERSION,
        "position": position_of(state, with_ids=True),
        "log": [list(e) for e in state.log] if state.log is not None else None,
        "history": None if seed is None else {"seed": seed, "actions": actions or []},
    }


def state_from_save(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
        fmt = data.get("format") if isinstance(data, Mapping) else None
        raise RecordError(f"not a save file (format {fmt!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported save version {data.get('version')!r}")
    position = data.get("position")
    if not isinstance(position, Mapping):
        raise RecordError("a save needs a position object")
    raw_log = data.get("log")
    s = state_from_position(position, log_events=raw_log is not None)
    if raw_log is not None:
        if not isinstance(raw_log, list):
            raise RecordError("log must be a list of events")
        s.log = [_event_in(e, i, len(s.card_type)) for i, e in enumerate(raw_log)]
    return s


def _event_in(raw: Any, i: int, n_cards: int) -> Event:
    if (
        not isinstance(raw, list)
        or len(raw) != 7
        or any(not isinstance(v, int) or isinstance(v, bool) for v in raw)
    ):
        raise RecordError(f"log[{i}] must be a list of 7 integers")
    if raw[0] not in set(EventKind) or not -1 <= raw[3] < n_cards:
        raise RecordError(f"log[{i}] is not a valid event")
    return Event(*raw)


def replay_dict(config: GameConfig, seed: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": REPLAY_FORMAT,
        "version": VERSION,
        "config": config.to_dict(),
        "seed": seed,
        "actions": actions,
    }
