"""A player's ephemeral hand: their cards sorted by suit and only their legal choices, within Discord's limits.

Rendered from the seat's own ``view(seat)`` and its legal actions. Choices are
built from the action strings, so every game (and every variant) gets controls:
cards to play are buttons; a choice of several cards (a Ninety-Nine bid, a
discard) is a select, confirmed as a next step; long lists are split into
selects of at most 25 options; a card with several actions (the joker's suit)
opens a next step of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.games import presentation_of
from bot.games.shown import CARD, CARDS, NUMBER, WORD, Choice
from bot.games.views import View
from bot.tables import SeatInfo, TableInfo, TableStatus
from bot.words import RED, card_label, hand_lines, is_joker, listed, said_cards, sort_key

from ..i18n import t
from .hand_components import ActButton, ChooseButton, HandButton, HintButton, PickSelect
from .render import COLOUR, clip, game_name, said, seat_name, trick_text, turn_clock

ROWS_MAX = 5
BUTTONS_PER_ROW = 5
OPTIONS_MAX = 25
CARD_ROWS_MAX = 3  # card buttons use at most three rows (15 cards); longer hands get a select


def _card_style(card: str) -> discord.ButtonStyle:
    if is_joker(card):
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.danger if card[-1] in RED else discord.ButtonStyle.secondary


def action_label(action: str, view: View, locale: Any) -> str:
    """An action as its button or list says it, as the game describes it."""
    return said(None, presentation_of(view["game"]).label(view, action), locale)


def matching(legal: list[str], prefix: str) -> list[str]:
    """The legal actions a next step offers for ``prefix`` (``play JK`` → its suits; ``bid 7`` → 7♠ … 7 NT)."""
    numbered = prefix.split()[-1].isdigit()

    def offered(action: str) -> bool:
        if action == prefix or action.startswith(prefix + " "):
            return True
        return numbered and action.startswith(prefix) and not action[len(prefix)].isdigit()

    return [action for action in legal if offered(action)]


@dataclass
class Controls:
    """Components laid out in rows (at most five); ``rows`` holds the items of each row."""

    rows: list[list[discord.ui.Item[Any]]] = field(default_factory=list)

    def free(self) -> int:
        return ROWS_MAX - len(self.rows)

    def add_row(self, items: list[discord.ui.Item[Any]]) -> None:
        if items and self.free() > 0:
            self.rows.append(items)

    def add_buttons(self, items: list[discord.ui.Item[Any]]) -> None:
        for start in range(0, len(items), BUTTONS_PER_ROW):
            self.add_row(items[start : start + BUTTONS_PER_ROW])

    def view(self) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for number, items in enumerate(self.rows):
            for item in items:
                inner = getattr(item, "item", item)
                inner.row = number
                view.add_item(item)
        return view


def _action_selects(
    controls: Controls, table: TableInfo, turn: int, actions: list[str], view: View, locale: Any, placeholder: str
) -> None:
    """Actions as selects of at most 25 options each, a row each. A select's part in its custom_id is the row
    it takes, so no two selects of a hand share one (Discord refuses a message with two alike)."""
    chunks = [actions[i : i + OPTIONS_MAX] for i in range(0, len(actions), OPTIONS_MAX)]
    for index, chunk in enumerate(chunks[: controls.free()]):
        options = [discord.SelectOption(label=clip(action_label(a, view, locale), 100), value=a) for a in chunk]
        text = placeholder if len(chunks) == 1 else f"{placeholder} ({index + 1}/{len(chunks)})"
        part = len(controls.rows)
        controls.add_row([PickSelect(table.id, turn, "action", part, options=options, placeholder=clip(text, 150))])


def _by_card(actions: list[str]) -> dict[str, list[str]]:
    """Actions grouped by their card (``play JK S`` and ``play JK H`` both under ``JK``)."""
    by_card: dict[str, list[str]] = {}
    for action in actions:
        by_card.setdefault(action.split()[1], []).append(action)
    return by_card


def _card_buttons(
    table: TableInfo, turn: int, cards: list[str], by_card: dict[str, list[str]], locale: Any, choice: Choice
) -> list[discord.ui.Item[Any]]:
    """A button per card; enabled when it has an action, a next step when it has several."""
    buttons: list[discord.ui.Item[Any]] = []
    for card in cards:
        actions = by_card.get(card, [])
        label = card_label(card, locale)
        note = choice.note(card)
        if note is not None:  # what the card means here: a bid's number
            label = f"{label} {said(table, note, locale)}"
        if len(actions) > 1:
            prefix = " ".join(actions[0].split()[:2])
            buttons.append(ChooseButton(table.id, turn, prefix, label=label, style=_card_style(card)))
        else:
            action = actions[0] if actions else f"play {card}"
            buttons.append(
                ActButton(table.id, turn, action, label=label, style=_card_style(card), disabled=not actions)
            )
    return buttons


def build_controls(table: TableInfo, seat: SeatInfo, view: View, legal: list[str], locale: Any) -> Controls:
    """Every legal action of the seat, laid out for Discord as the game's choices say."""
    controls = Controls()
    turn = seat.acted
    buttons: list[discord.ui.Item[Any]] = []
    placed: set[str] = set()
    for choice in presentation_of(table.game).choices(view, legal):
        actions = [a for a in choice.actions if a in legal and a not in placed]
        placed.update(actions)
        if not actions:
            continue
        prompt = said(table, choice.prompt, locale) if choice.prompt else t(locale, "hand.pick_other")
        if choice.kind == CARD:
            by_card = _by_card(actions)
            cards = sorted(choice.cards or by_card, key=sort_key)
            if len(cards) <= CARD_ROWS_MAX * BUTTONS_PER_ROW:
                controls.add_buttons(_card_buttons(table, turn, cards, by_card, locale, choice))
                continue
        elif choice.kind == CARDS:
            _cards_select(controls, table, turn, actions, view, locale, prompt, choice)
            continue
        elif choice.kind == NUMBER:
            _number_select(controls, table, turn, actions, choice, locale, prompt)
            continue
        elif choice.kind == WORD:
            for action in actions:
                label, style = action_label(action, view, locale), discord.ButtonStyle.primary
                if choice.confirmation(action) is not None:  # asked again first (tt:more: a next step)
                    buttons.append(ChooseButton(table.id, turn, action, label=label, style=style))
                else:
                    buttons.append(ActButton(table.id, turn, action, label=label, style=style))
            continue
        _action_selects(controls, table, turn, actions, view, locale, prompt)
    rest = [a for a in legal if a not in placed]
    if rest:  # an action the game's description left out still gets a control
        _action_selects(controls, table, turn, rest, view, locale, t(locale, "hand.pick_other"))
    if table.hints:  # only here: these controls are drawn for the seat on turn alone
        buttons.append(HintButton(table.id, turn, label=t(locale, "hand.hint")))
    buttons.append(HandButton(table.id, refresh=True, label=t(locale, "hand.refresh")))
    controls.add_buttons(buttons)
    return controls


def confirmation(table: TableInfo, view: View, legal: list[str], action: str, locale: Any) -> str | None:
    """What to say before ``action`` is done, if the game asks for it again first (a Reveal)."""
    for choice in presentation_of(table.game).choices(view, legal):
        text = choice.confirmation(action)
        if text is not None:
            return said(table, text, locale)
    return None


def _number_select(
    controls: Controls, table: TableInfo, turn: int, actions: list[str], choice: Choice, locale: Any, prompt: str
) -> None:
    """A number to choose (a bid's tricks); its actions (a suit for each) follow as a next step."""
    verb = actions[0].split()[0]
    options = [
        discord.SelectOption(label=clip(said(table, label, locale), 100), value=f"{verb} {number}")
        for number, label in choice.numbers[:OPTIONS_MAX]
    ]
    if options:
        part = len(controls.rows)  # the row it takes (see ``_action_selects``)
        controls.add_row([PickSelect(table.id, turn, "action", part, options=options, placeholder=clip(prompt, 150))])


def _cards_select(
    controls: Controls,
    table: TableInfo,
    turn: int,
    actions: list[str],
    view: View,
    locale: Any,
    placeholder: str,
    choice: Choice,
) -> None:
    """Choose exactly ``choice.count`` cards out of those that appear in ``actions``."""
    count = choice.count
    cards = sorted({card for a in actions for card in a.split()[1:]}, key=sort_key)
    if len(cards) > OPTIONS_MAX:  # cannot happen with today's hands; fall back to whole actions
        _action_selects(controls, table, turn, actions, view, locale, placeholder)
        return
    options = []
    for card in cards:
        note = choice.note(card)
        described = clip(said(table, note, locale), 100) if note is not None else None
        options.append(discord.SelectOption(label=card_label(card, locale), value=card, description=described))
    controls.add_row([PickSelect(table.id, turn, "cards", 0, options=options, placeholder=placeholder, count=count)])


def focus_controls(table: TableInfo, seat: SeatInfo, view: View, actions: list[str], locale: Any) -> Controls:
    """A next step: just these actions (a bid to confirm, a suit to name), and Back."""
    controls = Controls()
    buttons: list[discord.ui.Item[Any]] = [
        ActButton(
            table.id, seat.acted, a, label=clip(action_label(a, view, locale), 80), style=discord.ButtonStyle.success
        )
        for a in actions[: (ROWS_MAX - 1) * BUTTONS_PER_ROW]
    ]
    controls.add_buttons(buttons)
    controls.add_row([HandButton(table.id, refresh=True, label=t(locale, "hand.back"))])
    return controls


def asked(table: TableInfo, view: View, legal: list[str], locale: Any) -> str:
    """What the seat on turn is asked: the words of its game's choice of answers where the game gives them
    (a Ninety-Nine premium bid says only the answers still open), else the phase's."""
    for choice in presentation_of(table.game).choices(view, legal):
        if choice.kind == WORD and choice.prompt is not None:
            return said(table, choice.prompt, locale)
    return t(locale, f"hand.ask.{view['phase']}")


def hand_embed(
    table: TableInfo, seat: SeatInfo, view: View, legal: list[str], locale: Any, note: str | None = None
) -> discord.Embed:
    """What the seat holds and what it is asked to do."""
    embed = discord.Embed(
        title=clip(t(locale, "hand.title", game=game_name(table.game, locale), table=table.id), 256),
        colour=COLOUR[TableStatus.PLAYING],
    )
    lines = [hand_lines(view.get("hand") or [], locale)]
    shown = presentation_of(table.game)
    lines += [said(table, note, locale) for note in shown.hand_notes(view)]
    for beside in shown.beside(view):
        embed.add_field(name=said(table, beside.title, locale), value=clip(said_cards(beside.cards, locale), 1024))
    last = view["last_trick"]
    if view["trick"]:
        lines.append(t(locale, "hand.trick", trick=trick_text(table, view["trick"], locale)))
    elif last and last["cards"] and view["phase"] == "playing":  # a trick just ended: who took it
        cards = trick_text(table, last["cards"], locale)
        if last["winner"] is None:
            lines.append(t(locale, "hand.last_trick_nobody", trick=cards))
        else:
            lines.append(t(locale, "hand.last_trick", trick=cards, name=seat_name(table, last["winner"], locale)))
    if legal:
        lines.append("**" + asked(table, view, legal, locale) + "**")
        clock = turn_clock(table, locale)
        if clock:
            lines.append(clock)
    elif table.status == TableStatus.PLAYING:
        waiting = listed((seat_name(table, s, locale) for s in table.to_act), locale)
        lines.append(t(locale, "hand.waiting", who=waiting or "…"))
    else:
        lines.append(t(locale, "hand.over"))
    if note:
        lines.append(note)
    embed.description = clip("\n".join(lines), 4096)
    embed.set_footer(text=t(locale, "hand.footer"))
    return embed


def hand_message(
    table: TableInfo,
    seat: SeatInfo,
    view: View,
    legal: list[str],
    locale: Any,
    *,
    focus: list[str] | None = None,
    note: str | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The whole ephemeral hand: its embed and its controls."""
    if focus:
        controls = focus_controls(table, seat, view, focus, locale)
    elif legal:
        controls = build_controls(table, seat, view, legal, locale)
    else:
        controls = Controls()
        controls.add_row([HandButton(table.id, refresh=True, label=t(locale, "hand.refresh"))])
    return hand_embed(table, seat, view, legal, locale, note), controls.view()
