"""Rich renderables of a board, built only from one viewer's observation.

Everything shown comes from ``game.observe(viewer)``: a card's name appears only when that
viewer may know it (R-INFO-1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oriflamme.api import CardType, Result

from .labels import GameLabels

#: Rich style of each family colour (purple is rendered magenta).
FAMILY_STYLES: tuple[str, ...] = ("red", "blue", "green", "yellow", "magenta")
ROUNDS = 6


def family_style(family: int) -> str:
    return FAMILY_STYLES[family]


def card_name_text(entry: Mapping[str, Any], labels: GameLabels) -> Text:
    """``#12 Soldier`` in its owner's colour, or ``#12 ?`` for a card the viewer cannot know."""
    kind = entry.get("type")
    name = labels.type_name(CardType.from_name(kind)) if kind else "?"
    return Text(f"#{entry['id']} {name}", style=family_style(entry["family"]))


def stack_panel(
    stack: Sequence[Mapping[str, Any]], index: int, labels: GameLabels, at_cursor: bool
) -> Panel:
    """One stack of the Queue: its top card with its state, then the cards below it."""
    top = stack[-1]
    body = card_name_text(top, labels)
    body.stylize("bold")
    say = labels.say
    body.append("\n" + say("face_up" if top["face_up"] else "face_down"), style="dim")
    if top["tokens"]:
        n = top["tokens"]
        body.append("\n" + (say("tokens_one") if n == 1 else say("tokens_many", n=n)))
    if top["corrupted_by"] is not None:
        body.append("\n" + say("corrupted"))
        body.append(labels.colour(top["corrupted_by"]), style=family_style(top["corrupted_by"]))
    for below in reversed(stack[:-1]):
        body.append("\n" + say("below"), style="dim")
        body.append_text(card_name_text(below, labels))
        if below["face_up"]:
            body.append(say("up"), style="dim")
    title = f"▶ {index + 1}" if at_cursor else str(index + 1)
    return Panel(body, title=title, border_style=family_style(top["controller"]), expand=False)


def queue_view(observation: Mapping[str, Any], labels: GameLabels) -> RenderableType:
    queue = observation["queue"]
    if not queue:
        return Text(labels.say("queue_empty"), style="dim")
    cursor = observation.get("cursor")
    panels = [stack_panel(st, i, labels, i == cursor) for i, st in enumerate(queue)]
    return Columns(panels)


def players_table(observation: Mapping[str, Any], labels: GameLabels) -> Table:
    viewer = observation["viewer"]
    decision = observation["decision"]
    table = Table(show_edge=False, pad_edge=False, box=None)
    say = labels.say
    for key in ("col_player", "col_influence", "col_hand", "col_set_aside"):
        table.add_column(say(key))
    table.add_column("")
    for p, influence in enumerate(observation["influence"]):
        families = [f for f in observation["families"] if f["player"] == p]
        name = Text()
        for i, fam in enumerate(families):
            if i:
                name.append(" & ")
            name.append(labels.colour(fam["family"]), style=family_style(fam["family"]))
        notes = []
        if p == viewer:
            notes.append(say("you"))
        if decision is not None and decision["player"] == p:
            notes.append(say("to_decide"))
        table.add_row(
            name,
            str(influence),
            str(sum(f["hand_size"] for f in families)),
            str(sum(f["set_aside_size"] for f in families)),
            ", ".join(notes),
        )
    return table


def zone_line(
    title: str, family: Mapping[str, Any], cards: Sequence[Mapping[str, Any]], labels: GameLabels
) -> Text:
    """``Hand (Red): #3 Spy, #5 Lord``: one zone of one family, ``none`` when empty."""
    colon = " : " if labels.lang == "fr" else ": "
    line = Text(f"{title} ({labels.colour(family['family'])}){colon}", style="bold")
    if not cards:
        line.append(labels.say("none"), style="dim")
    for i, entry in enumerate(cards):
        if i:
            line.append(", ")
        line.append_text(card_name_text(entry, labels))
    return line


def own_cards(observation: Mapping[str, Any], labels: GameLabels) -> RenderableType:
    """The viewer's hand and set-aside cards, per family."""
    lines = []
    for fam in observation["families"]:
        if "hand" not in fam:
            continue
        for zone in ("hand", "set_aside"):
            lines.append(zone_line(labels.say(f"zone_{zone}"), fam, fam[zone], labels))
    return Group(*lines)


def public_piles(observation: Mapping[str, Any], labels: GameLabels) -> list[Text]:
    """Every family's discarded and eliminated cards, face up for all (R-ELIM-2); empty piles
    are left out."""
    lines = []
    for fam in observation["families"]:
        for zone in ("discarded", "eliminated"):
            if fam[zone]:
                lines.append(zone_line(labels.say(f"zone_{zone}"), fam, fam[zone], labels))
    return lines


def board(observation: Mapping[str, Any], labels: GameLabels) -> RenderableType:
    """The whole table as ``observation``'s viewer may see it."""
    phase = observation["phase"]
    say = labels.say
    header = Text(say("round", n=observation["round"], rounds=ROUNDS), style="bold")
    if phase != "over":
        first = labels.player(observation["first_player"])
        header.append(f" · {say(f'phase_{phase}')} · {say('first_player', player=first)}")
    parts: list[RenderableType] = [header, queue_view(observation, labels)]
    parts.append(players_table(observation, labels))
    parts.extend(public_piles(observation, labels))
    if observation["viewer"] is not None:
        parts.append(own_cards(observation, labels))
    return Group(*parts)


def options_list(lines: Sequence[str]) -> Text:
    text = Text()
    for i, line in enumerate(lines, start=1):
        if i > 1:
            text.append("\n")
        text.append(f"{i:>3}. ", style="bold")
        text.append(line)
    return text


def result_table(result: Result, labels: GameLabels) -> Table:
    """Final Influence, the tie-break (cards controlled in the Queue) and the winners."""
    say = labels.say
    table = Table(title=say("final_scores"))
    for key in ("col_player", "col_influence", "col_queue_cards"):
        table.add_column(say(key))
    table.add_column("")
    for p, score in enumerate(result.scores):
        mark = say("winner_mark") if p in result.winners else ""
        table.add_row(labels.player(p), str(score), str(result.queue_cards[p]), mark)
    return table


def winners_line(result: Result, labels: GameLabels) -> str:
    names = [labels.player(p) for p in result.winners]
    if len(names) == 1:
        return labels.say("winner", player=names[0])
    return labels.say("shared_victory", players=", ".join(names))
