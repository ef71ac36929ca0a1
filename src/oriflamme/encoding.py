"""Fixed-size encodings shared by the research adapters and the policy bot.

Both encodings are relative to one player, the *perspective*: families and cards are renumbered
so that the perspective's own come first, which lets one policy play every seat.

* Relative family of family ``f = j*n + q`` (``n`` players; ``j`` is 1 for the second family
  of a player in the two-families variant) is ``j*n + (q - perspective) mod n``; the relative
  id of card ``c`` is ``relative_family(c // S) * S + c % S`` (``S`` cards per family).
* :class:`ActionCodec` maps every action of a decision to an integer below ``size``, fixed per
  set-up (see ``docs/rl.md`` for the table); it needs the acting player and, for the kinds
  whose card is the decision's own card (reveal, leave, move, twin), ``Decision.card``.
* :class:`ObservationEncoder` turns a player's observation (``Game.observe(player)``, the JSON
  view of R-INFO-1) into a float32 vector of ``size`` values in ``[0, HIGH]``: :meth:`encode
  <ObservationEncoder.encode>` reads that view and nothing else, so it cannot leak what the
  player may not know; it is the reference. :meth:`encode_state
  <ObservationEncoder.encode_state>` (and ``encode_game``) makes the same vector about 6 times
  faster from the raw state (``oriflamme.search.state_of``), reading only the fields the view
  shows; the tests prove it equal to the reference at every step of random games of every
  set-up, for every player. The adapters use it.

>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=1)
>>> layout = Layout.of(game.config)
>>> codec = ActionCodec(layout)
>>> encoder = ObservationEncoder(layout)
>>> codec.size, encoder.size
(420, 996)
>>> action = game.legal_actions()[0]
>>> index = codec.encode(action, player=0)
>>> codec.decode(index, player=0, decision_card=-1) == action
True
>>> bool((encoder.encode_game(game, 1) == encoder.encode(game.observe(1))).all())
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from oriflamme.api import (
    END,
    FRONT,
    Action,
    ActionKind,
    CardType,
    DecisionKind,
    Game,
    GameConfig,
    Observation,
    ObservedCard,
)
from oriflamme.search import (
    DISCARDED,
    ELIMINATED,
    FRAME_NAMES,
    HAND,
    KIND_PLACE,
    KIND_TARGET,
    N_ZONES,
    OVER,
    PHASE_NAMES,
    PILE,
    PLACEMENT,
    RESERVE,
    RESOLUTION,
    SET_ASIDE,
    State,
    result,
    state_of,
)
from oriflamme.search import decision as _decision

# Final: compiled code reads these as constants, not by a dict lookup in the module's globals.
ROUNDS: Final = 6
#: Largest value of any observation feature (Influence / 10 and the Queue length / 10 are
#: clipped to it; every other feature stays far below).
HIGH: Final = 10.0
FRAMES: Final = ("reveal", "choose", "gap", "twin", "activate", "tokens", "discard")
#: Where a card is, as its owner's observation may say; "unseen" covers every hidden place.
ZONES: Final = ("hand", "set_aside", "reserve", "discarded", "eliminated", "queue", "unseen")
PHASES: Final = ("placement", "resolution", "over")
_DECISION_KINDS: Final = {k.slug: int(k) for k in DecisionKind}
_ZONE: Final = {z: i for i, z in enumerate(ZONES)}
_UNSEEN: Final = _ZONE["unseen"]
_QUEUE: Final = _ZONE["queue"]
_RESERVE: Final = _ZONE["reserve"]
_DISCARDED: Final = _ZONE["discarded"]
_ELIMINATED: Final = _ZONE["eliminated"]
_HAND: Final = _ZONE["hand"]
_SET_ASIDE: Final = _ZONE["set_aside"]
#: A family's hand and set-aside cards where the observation has none (not the viewer's).
_NO_CARDS: Final[list[ObservedCard]] = []
# The raw state's numbering of frames and phases, in the encoding's order.
_FRAME_OF_KIND: Final = {kind: FRAMES.index(name) for kind, name in FRAME_NAMES.items()}
_ACTIVATE_OR_TOKENS: Final = frozenset(k for k, name in FRAME_NAMES.items()
                                       if name in ("activate", "tokens"))
assert PHASES == PHASE_NAMES
_CLIP: Final = 100  # Influence and Queue length clip at HIGH from 100 on
_TENTHS: Final = [k / 10 for k in range(_CLIP)]  # k / 10, looked up (zone sizes, Queue places)
_PLACE_KIND: Final = int(DecisionKind.PLACE)

# Explicit aliases: the compiled build is type-checked where NumPy may be missing (pip's build
# environment), and there an implicit alias of an unknown type is a variable, not a type.
Vector: TypeAlias = "npt.NDArray[np.float32]"
Mask: TypeAlias = "npt.NDArray[np.int8]"


class Layout:
    """Sizes and relative numbering of one set-up (shared, immutable; use :meth:`of`)."""

    __slots__ = (
        "card_types",
        "cards",
        "config",
        "families",
        "family_size",
        "own_families",
        "players",
        "type_index",
    )

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.players = config.players
        self.families = config.families
        self.family_size = config.family_size
        self.cards = self.families * self.family_size
        self.own_families = len(config.player_families(0))
        types = list(config.card_types)
        if config.has_twin:
            types.append(CardType.TWIN)
        self.card_types: tuple[CardType, ...] = tuple(types)
        self.type_index = {t.slug: i for i, t in enumerate(types)}

    @staticmethod
    def of(config: GameConfig | Mapping[str, Any]) -> Layout:
        """The layout of a configuration (or of its JSON form, as in an observation)."""
        if isinstance(config, GameConfig):
            config = config.to_dict()
        return _layout(config["players"], _cards_key(config["cards"]), config["variant"])

    def relative_family(self, family: int, perspective: int) -> int:
        block, seat = divmod(family, self.players)
        return block * self.players + (seat - perspective) % self.players

    def relative_card(self, card: int, perspective: int) -> int:
        family, slot = divmod(card, self.family_size)
        return self.relative_family(family, perspective) * self.family_size + slot

    def absolute_card(self, relative: int, perspective: int) -> int:
        rel_family, slot = divmod(relative, self.family_size)
        block, seat = divmod(rel_family, self.players)
        family = block * self.players + (seat + perspective) % self.players
        return family * self.family_size + slot

    def relative_cards(self, perspective: int) -> tuple[int, ...]:
        """``relative_cards(p)[card]`` is the relative id of ``card`` seen from ``p``."""
        return _relative_cards(self, perspective)


def _cards_key(cards: str | Sequence[str]) -> str:
    return cards if isinstance(cards, str) else ",".join(cards)


@lru_cache(maxsize=64)
def _layout(players: int, cards: str, variant: str | None) -> Layout:
    return Layout(GameConfig(players=players, cards=cards, variant=variant))


@lru_cache(maxsize=256)
def _relative_cards(layout: Layout, perspective: int) -> tuple[int, ...]:
    return tuple(layout.relative_card(c, perspective) for c in range(layout.cards))


# -- actions ------------------------------------------------------------------------------------
class ActionCodec:
    """Bijection between a decision's legal actions and integers ``0 .. size-1``.

    Segments, in order (``M`` own cards, ``N`` cards, ``D = N + 2`` destinations: front, end,
    or on the stack topped by a card): place ``M*D``, target ``N``, player ``n``, reveal 1,
    leave 1, move ``N + 1`` gaps, twin ``D``, gain 1, spend 1. Card and player numbers are
    relative to the acting player.
    """

    __slots__ = ("_tables", "layout", "offsets", "size")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        cards = layout.cards
        dests = cards + 2
        widths = {
            ActionKind.PLACE: layout.own_families * layout.family_size * dests,
            ActionKind.TARGET: cards,
            ActionKind.PLAYER: layout.players,
            ActionKind.REVEAL: 1,
            ActionKind.LEAVE: 1,
            ActionKind.MOVE: cards + 1,
            ActionKind.TWIN: dests,
            ActionKind.GAIN: 1,
            ActionKind.SPEND: 1,
        }
        self.offsets: dict[ActionKind, int] = {}
        total = 0
        for kind, width in widths.items():
            self.offsets[kind] = total
            total += width
        self.size = total
        self._tables = [self._player_tables(p) for p in range(layout.players)]

    def _player_tables(self, player: int) -> tuple[list[int], list[int], list[int]]:
        """Per card: start of its placements (-1 if not the player's), its destination number
        (indexed by ``to + 2``, so END and FRONT come first) and its target number."""
        layout = self.layout
        dests = layout.cards + 2
        rel = layout.relative_cards(player)
        place = [-1] * layout.cards
        for block, family in enumerate(layout.config.player_families(player)):
            for slot in range(layout.family_size):
                own = block * layout.family_size + slot
                place[family * layout.family_size + slot] = (
                    self.offsets[ActionKind.PLACE] + own * dests)
        dest = [1, 0, *(2 + r for r in rel)]
        target = [self.offsets[ActionKind.TARGET] + r for r in rel]
        return place, dest, target

    def encode(self, action: Action, player: int) -> int:
        """The index of ``action`` taken by ``player``; ValueError if it cannot be theirs."""
        place, dest, target = self._tables[player]
        kind, card, to = action
        if kind is ActionKind.PLACE:
            if place[card] < 0:
                raise ValueError(f"{action}: player {player} places only their own cards")
            return place[card] + dest[to + 2]
        if kind is ActionKind.TARGET:
            return target[card]
        base = self.offsets[kind]
        if kind is ActionKind.PLAYER:
            return base + (to - player) % self.layout.players
        if kind is ActionKind.MOVE:
            return base + to
        if kind is ActionKind.TWIN:
            return base + dest[to + 2]
        return base

    def encode_all(self, actions: Iterable[Action], player: int) -> list[int]:
        """The indices of ``actions`` (all taken by ``player``), in the same order."""
        place, dest, target = self._tables[player]
        out = []
        for action in actions:
            kind = action[0]
            if kind is KIND_PLACE and place[action[1]] >= 0:
                out.append(place[action[1]] + dest[action[2] + 2])
            elif kind is KIND_TARGET:
                out.append(target[action[1]])
            else:
                out.append(self.encode(action, player))
        return out

    def decode(self, index: int, player: int, decision_card: int) -> Action:
        """The action of ``index`` for ``player``; ``decision_card`` is ``Decision.card``."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is not in 0..{self.size - 1}")
        kind = ActionKind.PLACE
        for k, start in self.offsets.items():
            if start > index:
                break
            kind = k
        local = index - self.offsets[kind]
        layout = self.layout
        if kind is ActionKind.PLACE:
            own, dest = divmod(local, layout.cards + 2)
            block, slot = divmod(own, layout.family_size)
            card = (block * layout.players + player) * layout.family_size + slot
            return Action.place(card, self._to(dest, player))
        if kind is ActionKind.TARGET:
            return Action.target(layout.absolute_card(local, player))
        if kind is ActionKind.PLAYER:
            return Action.player((local + player) % layout.players)
        if kind is ActionKind.REVEAL:
            return Action.reveal(decision_card)
        if kind is ActionKind.LEAVE:
            return Action.leave(decision_card)
        if kind is ActionKind.MOVE:
            return Action.move(decision_card, local)
        if kind is ActionKind.TWIN:
            return Action.twin(decision_card, self._to(local, player))
        return Action(kind)

    def _to(self, dest: int, player: int) -> int:
        if dest == 0:
            return FRONT
        if dest == 1:
            return END
        return self.layout.absolute_card(dest - 2, player)

    def describe(self, index: int) -> str:
        """What ``index`` means whatever the position, e.g. ``"place own #3 on relative #12"``."""
        action = self.decode(index, 0, -1)
        layout = self.layout
        kind = action.kind

        def where(to: int) -> str:
            return {FRONT: "front", END: "end"}.get(to, f"on relative #{to}")

        if kind is ActionKind.PLACE:
            own = (index - self.offsets[kind]) // (layout.cards + 2)
            return f"place own #{own} {where(action.to)}"
        if kind is ActionKind.TARGET:
            return f"target relative #{action.card}"
        if kind is ActionKind.PLAYER:
            return f"player +{action.to}"
        if kind is ActionKind.MOVE:
            return f"move to gap {action.to}"
        if kind is ActionKind.TWIN:
            return f"twin {where(action.to)}"
        return kind.slug

    def mask(self, actions: Iterable[Action], player: int) -> Mask:
        """An int8 vector with 1 at the index of every action in ``actions``."""
        out = np.zeros(self.size, dtype=np.int8)
        out[self.encode_all(actions, player)] = 1
        return out


# -- observations -------------------------------------------------------------------------------
class ObservationEncoder:
    """A player's observation as a fixed-size float32 vector (layout in ``docs/rl.md``).

    Global block: round (one-hot 6), phase (3), placements made / per round, first player
    (relative, one-hot ``n``), Influence / 10 (``n``), winners (``n``), the decision (present,
    kind one-hot 11, player one-hot ``n``, "mine", ability type one-hot ``T``), pending frames
    (count / 4 per frame kind, 7), Machination tokens held / 5, Queue length / 10; then per
    relative family hand, set-aside and pile sizes / 10 and "Corruption token in play". Then one
    block per relative card: type one-hot (``T``) or unknown, zone (7), face up, tokens / 5,
    corrupted by (relative family one-hot), stack index / 10 and from the end / 10, level in its
    stack / 10, top of its stack, at the cursor, already resolved this round, resolving now,
    the decision's card.

    :meth:`encode` reads an observation (the reference); :meth:`encode_state` and
    :meth:`encode_game` make the same vector from the raw state, much faster.
    """

    __slots__ = ("_ability", "_consts", "_starts", "_type_col", "_views", "card_width", "columns",
                 "family_base", "fields", "layout", "size")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        n, t, f = layout.players, len(layout.card_types), layout.families
        g: dict[str, int] = {}
        offset = 0
        for name, width in (
            ("round", ROUNDS), ("phase", len(PHASES)), ("placed", 1), ("first", n),
            ("influence", n), ("winners", n), ("decision", 1),
            ("kind", len(_DECISION_KINDS)), ("decider", n), ("mine", 1), ("ability", t),
            ("frames", len(FRAMES)), ("held", 1), ("queue_length", 1),
        ):
            g[name] = offset
            offset += width
        #: Offset of each global field in the vector.
        self.fields = g
        self.family_base = offset
        offset += 4 * f
        #: Column of each per-card feature inside a card's block.
        self.columns: dict[str, int] = {}
        column = 0
        for name, width in (
            ("type", t), ("unknown", 1), ("zone", len(ZONES)), ("face_up", 1), ("tokens", 1),
            ("corrupted_by", f), ("index", 1), ("from_end", 1), ("level", 1), ("top", 1),
            ("cursor", 1), ("resolved", 1), ("resolving", 1), ("decision_card", 1),
        ):
            self.columns[name] = column
            column += width
        self.card_width = column
        self.size = offset + column * layout.cards
        # Start of each card's block, by absolute id, seen from each perspective.
        self._starts = [
            tuple(offset + column * r for r in layout.relative_cards(p)) for p in range(n)]
        self._prepare_fast_path()

    # -- the fast path: the same vector, read from the raw state ------------------------------
    def _prepare_fast_path(self) -> None:
        """Tables of :meth:`encode_state`: per perspective (and public or not), the relative
        players, card block and family offsets, the zones the viewer sees card by card or only
        counts (``rules/observe.py``), and which cards are the viewer's."""
        layout, c, g = self.layout, self.columns, self.fields
        n, t = layout.players, len(layout.card_types)
        top = max(int(k) for k in CardType) + 1
        #: Column of a known card's type in its block, by CardType value (-1: not in the game).
        self._type_col = [-1] * top
        for i, kind in enumerate(layout.card_types):
            self._type_col[int(kind)] = c["type"] + i
        self._ability = {int(kind): g["ability"] + i for i, kind in enumerate(layout.card_types)}
        self._views: list[tuple[Any, ...]] = []
        cards_of = [layout.config.family_player(card // layout.family_size)
                    for card in range(layout.cards)]
        for p in range(n):
            for public in (False, True):
                viewer = None if public else p
                rel_family = [layout.relative_family(f, p) for f in range(layout.families)]
                family_base = [self.family_base + 4 * r for r in rel_family]
                hidden: list[int] = []  # zones (index in State.zones) the viewer only counts
                shown: list[tuple[int, int]] = []  # zones they see card by card, zone column
                for f in range(layout.families):
                    z = f * N_ZONES
                    if layout.config.family_player(f) == viewer:
                        hidden.append(z + PILE)  # not even the order of their own pile
                        shown += [(z + HAND, c["zone"] + _ZONE["hand"]),
                                  (z + SET_ASIDE, c["zone"] + _ZONE["set_aside"])]
                    else:
                        hidden += [z + HAND, z + SET_ASIDE, z + PILE]
                    shown += [(z + zone, c["zone"] + _ZONE[name]) for zone, name in (
                        (RESERVE, "reserve"), (DISCARDED, "discarded"),
                        (ELIMINATED, "eliminated"))]
                self._views.append((
                    [(q - p) % n for q in range(n)],
                    self._starts[p],
                    family_base,
                    [(f * N_ZONES, b) for f, b in enumerate(family_base)],
                    hidden,
                    shown,
                    [c["corrupted_by"] + r for r in rel_family],
                    [owner == viewer for owner in cards_of],
                ))
        self._consts = (
            n, t, layout.config.placements,
            g["round"], g["phase"], g["placed"], g["first"], g["influence"], g["winners"],
            g["decision"], g["kind"], g["decider"], g["mine"], g["frames"], g["held"],
            g["queue_length"],
            c["zone"], c["face_up"], c["tokens"], c["index"], c["top"], c["cursor"],
            c["resolving"], c["decision_card"],
        )

    def encode_game(self, game: Game, perspective: object, out: Vector | None = None,
                    public: bool = False) -> Vector:
        """:meth:`encode_state` of ``state_of(game)``."""
        return self.encode_state(state_of(game), perspective, out, public)

    # ``perspective: object``, checked here: a compiled ``int`` parameter would take ``True``
    # as 1 before the check could refuse it.
    def encode_state(self, state: State, perspective: object, out: Vector | None = None,
                     public: bool = False) -> Vector:
        """The vector :meth:`encode` makes of ``observe(perspective)`` (of the public view
        with ``public``), read straight from the raw state, about 6 times faster.

        It reads only what that view shows (R-INFO-1, ``rules/observe.py``): public facts, the
        viewer's own hand and set-aside cards and the types of their own cards and of face-up
        cards; hidden cards (others' and the viewer's own pile) only as counts. The tests check
        it equals :meth:`encode` of the observation at every step of random games.
        """
        players: int = self._consts[0]
        if (isinstance(perspective, bool) or not isinstance(perspective, int)
                or not 0 <= perspective < players):
            raise ValueError(
                f"perspective must be a player 0 to {players - 1}, not {perspective!r}")
        viewer: int = perspective
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        m = cast("memoryview[float]", out.data)  # item writes: the fastest way here
        (n, t, placements, g_round, g_phase, g_placed, g_first, g_influence,
         g_winners, g_decision, g_kind, g_decider, g_mine, g_frames, g_held, g_queue_length,
         c_zone, c_up, c_tokens, c_index, c_top, c_cursor, c_resolving,
         c_decision) = self._consts
        (rel, start, family_base, family_sizes, hidden, shown, corrupted_col,
         own) = self._views[2 * viewer + public]
        type_col = self._type_col
        card_type, face_up = state.card_type, state.face_up

        m[g_round + state.round - 1] = 1.0
        m[g_phase + state.phase] = 1.0
        if state.placed:
            m[g_placed] = state.placed / placements
        m[g_first + rel[state.first_player]] = 1.0
        for q, influence in enumerate(state.influence):
            if influence:
                m[g_influence + rel[q]] = influence / 10 if influence < _CLIP else HIGH
        if state.phase == OVER:
            outcome = result(state)
            assert outcome is not None
            for q in outcome.winners:
                m[g_winners + rel[q]] = 1.0
        pending = state.pending
        if pending or state.phase != PLACEMENT:
            d = _decision(state)
            if d is not None:
                m[g_decision] = 1.0
                m[g_kind + d.kind] = 1.0
                m[g_decider + rel[d.player]] = 1.0
                if d.player == viewer:
                    m[g_mine] = 1.0
                if d.ability >= 0:
                    m[self._ability[d.ability]] = 1.0
                if d.card >= 0:
                    m[start[d.card] + c_decision] = 1.0
        else:  # a placement (engine.decision, without building the Decision)
            placer = (state.first_player + state.placed) % n  # placing_player, inlined
            m[g_decision] = 1.0
            m[g_kind + _PLACE_KIND] = 1.0
            m[g_decider + rel[placer]] = 1.0
            if placer == viewer:
                m[g_mine] = 1.0
        if pending:
            held = 0
            frames = [0] * len(FRAMES)
            for kind, _, _, arg in pending:
                frames[_FRAME_OF_KIND[kind]] += 1
                if kind in _ACTIVATE_OR_TOKENS:
                    held = arg
            for i, count in enumerate(frames):
                if count:
                    m[g_frames + i] = count / 4
            if held:
                m[g_held] = held / 5
        queue = state.queue
        if queue:
            m[g_queue_length] = _TENTHS[len(queue)] if len(queue) < _CLIP else HIGH

        unknown = t
        unseen = c_zone + _UNSEEN
        zones = state.zones
        for z, b in family_sizes:  # hand, set-aside and pile sizes
            size = len(zones[z + HAND])
            if size:
                m[b] = _TENTHS[size]
            size = len(zones[z + SET_ASIDE])
            if size:
                m[b + 1] = _TENTHS[size]
            size = len(zones[z + PILE])
            if size:
                m[b + 2] = _TENTHS[size]
        for z in hidden:  # zones only counted: every card "unseen", of unknown type
            for card in zones[z]:
                cb = start[card]
                m[cb + unseen] = 1.0
                m[cb + unknown] = 1.0
        for z, column in shown:  # zones listed card by card
            for card in zones[z]:
                cb = start[card]
                m[cb + column] = 1.0
                m[cb + (type_col[card_type[card]] if own[card] or face_up[card]
                        else unknown)] = 1.0
        corrupt = state.corrupt
        if corrupt.count(-1) != len(corrupt):
            for family in set(corrupt):
                if family >= 0:  # its Corruption token is in play
                    m[family_base[family] + 3] = 1.0
        if not queue:
            return out

        tokens = state.tokens
        resolution = state.phase == RESOLUTION
        cursor = state.cursor if resolution else -1
        resolving = state.resolving if resolution else -1
        in_queue, c_from_end, c_level = c_zone + _QUEUE, c_index + 1, c_index + 2
        last = len(queue) - 1
        for i, stack in enumerate(queue):
            top = stack[-1]
            at_cursor = (c_cursor + (i < cursor)) if i <= cursor else -1
            for level, card in enumerate(stack):
                cb = start[card]
                m[cb + in_queue] = 1.0
                if face_up[card]:
                    m[cb + c_up] = 1.0
                    m[cb + type_col[card_type[card]]] = 1.0
                elif own[card]:
                    m[cb + type_col[card_type[card]]] = 1.0
                else:
                    m[cb + unknown] = 1.0
                if tokens[card]:
                    m[cb + c_tokens] = tokens[card] / 5
                if corrupt[card] >= 0:
                    m[cb + corrupted_col[corrupt[card]]] = 1.0
                if i:
                    m[cb + c_index] = _TENTHS[i]
                if i < last:
                    m[cb + c_from_end] = _TENTHS[last - i]
                if level:
                    m[cb + c_level] = _TENTHS[level]
                if card == top:
                    m[cb + c_top] = 1.0
                if at_cursor >= 0:
                    m[cb + at_cursor] = 1.0
                if card == resolving:
                    m[cb + c_resolving] = 1.0
        return out

    def encode(
        self, observation: Observation, perspective: int | None = None,
        out: Vector | None = None,
    ) -> Vector:
        """Encode ``observation``; ``perspective`` defaults to its viewer (needed for the
        public view, whose viewer is None). Writes into ``out`` if given."""
        p = observation["viewer"] if perspective is None else perspective
        if p is None:
            raise ValueError("the public view needs a perspective player")
        layout = self.layout
        n, t = layout.players, len(layout.card_types)
        g = self.fields
        start = self._starts[p]
        type_index = layout.type_index
        hot: list[int] = []
        at: list[int] = []
        values: list[float] = []

        hot.append(g["round"] + observation["round"] - 1)
        hot.append(g["phase"] + PHASES.index(observation["phase"]))
        at.append(g["placed"])
        values.append(observation["placed"] / layout.config.placements)
        hot.append(g["first"] + (observation["first_player"] - p) % n)
        base = g["influence"]
        for q, influence in enumerate(observation["influence"]):
            at.append(base + (q - p) % n)
            values.append(min(influence / 10, HIGH))
        result = observation["result"]
        if result is not None:
            hot.extend(g["winners"] + (q - p) % n for q in result["winners"])
        decision = observation["decision"]
        if decision is not None:
            hot.append(g["decision"])
            hot.append(g["kind"] + _DECISION_KINDS[decision["kind"]])
            hot.append(g["decider"] + (decision["player"] - p) % n)
            if decision["player"] == p:
                hot.append(g["mine"])
            if decision["ability"] is not None:
                hot.append(g["ability"] + type_index[decision["ability"]])
            if decision["card"] is not None:
                hot.append(start[decision["card"]] + self.columns["decision_card"])
        held = 0
        frames = [0] * len(FRAMES)
        for frame in observation["pending"]:
            frames[FRAMES.index(frame["frame"])] += 1
            if frame["frame"] in ("activate", "tokens"):
                held = frame["arg"]
        at.extend(range(g["frames"], g["frames"] + len(FRAMES)))
        values.extend(count / 4 for count in frames)
        at.append(g["held"])
        values.append(held / 5)
        queue = observation["queue"]
        at.append(g["queue_length"])
        values.append(min(len(queue) / 10, HIGH))

        zone_of = [_UNSEEN] * layout.cards
        fb = self.family_base
        for fam in observation["families"]:
            b = fb + 4 * layout.relative_family(fam["family"], p)
            at.extend((b, b + 1, b + 2))
            values.extend(
                (fam["hand_size"] / 10, fam["set_aside_size"] / 10, fam["pile_size"] / 10))
            if fam["corruption_on"] is not None:
                hot.append(b + 3)
            for z, entries in ((_RESERVE, fam["reserve"]), (_DISCARDED, fam["discarded"]),
                               (_ELIMINATED, fam["eliminated"]),
                               (_HAND, fam.get("hand", _NO_CARDS)),
                               (_SET_ASIDE, fam.get("set_aside", _NO_CARDS))):
                for entry in entries:
                    c = entry["id"]
                    zone_of[c] = z
                    kind = entry["type"]
                    hot.append(start[c] + (t if kind is None else type_index[kind]))
        self._queue(observation, p, zone_of, hot, at, values)
        zone_column = self.columns["zone"]
        hot.extend([b + zone_column + z for b, z in zip(start, zone_of, strict=True)])
        hot.extend([b + t for b, z in zip(start, zone_of, strict=True) if z == _UNSEEN])

        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        out[np.array(hot, dtype=np.intp)] = 1.0  # typed arrays: twice as fast as lists here
        out[np.array(at, dtype=np.intp)] = np.array(values, dtype=np.float32)
        return out

    def _queue(self, observation: Observation, p: int, zone_of: list[int],
               hot: list[int], at: list[int], values: list[float]) -> None:
        """The features of the cards in the Queue."""
        layout, columns = self.layout, self.columns
        t = len(layout.card_types)
        start = self._starts[p]
        type_index = layout.type_index
        up, tokens, corrupted = columns["face_up"], columns["tokens"], columns["corrupted_by"]
        index, top, cursor_col = columns["index"], columns["top"], columns["cursor"]
        queue = observation["queue"]
        cursor = observation["cursor"]
        resolving = observation["resolving"]
        last = len(queue) - 1
        for i, stack in enumerate(queue):
            height = len(stack) - 1
            for level, entry in enumerate(stack):
                c = entry["id"]
                zone_of[c] = _QUEUE
                b = start[c]
                kind = entry["type"]
                hot.append(b + (t if kind is None else type_index[kind]))
                if entry["face_up"]:
                    hot.append(b + up)
                if entry["tokens"]:
                    at.append(b + tokens)
                    values.append(entry["tokens"] / 5)
                if entry["corrupted_by"] is not None:
                    hot.append(b + corrupted + layout.relative_family(entry["corrupted_by"], p))
                at.extend((b + index, b + index + 1, b + index + 2))
                values.extend((i / 10, (last - i) / 10, level / 10))
                if level == height:
                    hot.append(b + top)
                if cursor is not None and i <= cursor:
                    hot.append(b + cursor_col + (i < cursor))  # at the cursor, or resolved
                if c == resolving:
                    hot.append(b + columns["resolving"])
