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

from bot.games.shown.five_hundred import bid_text
from bot.tables import SeatInfo, TableInfo

from ..cards import RED, card_label, cards_label, hand_lines, is_joker, ninety_nine_bid, sort_key, suit_label
from ..i18n import t
from .components import ActButton, ChooseButton, HandButton, HintButton, PickSelect
from .render import COLOUR, clip, game_name, said, seat_name, trick_text

ROWS_MAX = 5
BUTTONS_PER_ROW = 5
OPTIONS_MAX = 25
CARD_ROWS_MAX = 3  # card buttons use at most three rows (15 cards); longer hands get a select

WORDS = ("pass", "declare", "reveal", "alone")


def _card_style(card: str) -> discord.ButtonStyle:
    if is_joker(card):
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.danger if card[-1] in RED else discord.ButtonStyle.secondary


def action_label(action: str, view: dict[str, Any], locale: Any) -> str:
    """An action as a button says it."""
    words = action.split()
    verb, args = words[0], words[1:]
    if verb in WORDS:
        return t(locale, f"action.{verb}")
    if verb == "bid" and view.get("game") == "five-hundred":  # bids, not cards: "bid 6S" is six spades
        return said(None, bid_text(parse_bid_500(args[0])), locale)
    if verb == "play" and len(args) == 2:  # the joker led at no trumps, naming a suit
        return t(locale, "action.joker_suit", card=card_label(args[0], locale), suit=suit_label(args[1], locale))
    if verb == "bid" and len(args) == 2 and args[1] == "double":
        return t(locale, "action.bid_double", card=card_label(args[0], locale))
    if verb == "call":
        return t(locale, "action.call", card=cards_label(args, locale))
    if verb == "discard":
        return t(locale, "action.discard", cards=cards_label(args, locale))
    if verb == "bid" and len(args) == 3:
        return t(
            locale, "action.bid_99", cards=cards_label(args, locale), bid=ninety_nine_bid(args, view.get("joker_as"))
        )
    if verb == "bid" and len(args) == 1:
        return t(locale, "action.bid_card", card=card_label(args[0], locale))
    if verb == "play" and len(args) == 1:
        return card_label(args[0], locale)
    return clip(action, 80)


def parse_bid_500(text: str) -> dict[str, Any]:
    """``6S`` / ``8NT`` / ``misere`` / ``open-misere`` as the engine's bid view."""
    if text in ("misere", "open-misere"):
        return {"kind": text}
    if text.endswith("NT"):
        return {"kind": "no-trumps", "tricks": int(text[:-2])}
    return {"kind": "suit", "tricks": int(text[:-1]), "trump": text[-1]}


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
    table: TableInfo, turn: int, actions: list[str], view: dict[str, Any], locale: Any, placeholder: str
) -> list[discord.ui.Item[Any]]:
    """Actions as selects of at most 25 options each."""
    selects: list[discord.ui.Item[Any]] = []
    chunks = [actions[i : i + OPTIONS_MAX] for i in range(0, len(actions), OPTIONS_MAX)]
    for part, chunk in enumerate(chunks[:ROWS_MAX]):
        options = [discord.SelectOption(label=clip(action_label(a, view, locale), 100), value=a) for a in chunk]
        text = placeholder if len(chunks) == 1 else f"{placeholder} ({part + 1}/{len(chunks)})"
        selects.append(PickSelect(table.id, turn, "action", part, options=options, placeholder=clip(text, 150)))
    return selects


def _dummy_cards(view: dict[str, Any]) -> list[str]:
    """The Ninety-Nine dummy's cards, when this seat plays for it (its own view shows them)."""
    dummy = view.get("dummy")
    if dummy is None:
        return []
    return list(view["hands"][dummy].get("cards") or [])


def _by_card(actions: list[str]) -> dict[str, list[str]]:
    """Actions grouped by their card (``play JK S`` and ``play JK H`` both under ``JK``)."""
    by_card: dict[str, list[str]] = {}
    for action in actions:
        by_card.setdefault(action.split()[1], []).append(action)
    return by_card


def _card_buttons(
    table: TableInfo, turn: int, cards: list[str], by_card: dict[str, list[str]], locale: Any
) -> list[discord.ui.Item[Any]]:
    """A button per card; enabled when it has an action, a next step when it has several."""
    buttons: list[discord.ui.Item[Any]] = []
    for card in cards:
        actions = by_card.get(card, [])
        label = card_label(card, locale)
        if len(actions) > 1:
            prefix = " ".join(actions[0].split()[:2])
            buttons.append(ChooseButton(table.id, turn, prefix, label=label, style=_card_style(card)))
        else:
            action = actions[0] if actions else f"play {card}"
            buttons.append(
                ActButton(table.id, turn, action, label=label, style=_card_style(card), disabled=not actions)
            )
    return buttons


def build_controls(table: TableInfo, seat: SeatInfo, view: dict[str, Any], legal: list[str], locale: Any) -> Controls:
    """Every legal action of the seat, laid out for Discord."""
    controls = Controls()
    turn = seat.acted
    hand = list(view.get("hand") or [])
    by_verb: dict[str, list[str]] = {}
    for action in legal:
        by_verb.setdefault(action.split()[0], []).append(action)

    plays = by_verb.pop("play", [])
    if plays:
        by_card = _by_card(plays)
        shown = sorted(hand if set(by_card) <= set(hand) else _dummy_cards(view) or list(by_card), key=sort_key)
        if len(shown) <= CARD_ROWS_MAX * BUTTONS_PER_ROW:
            controls.add_buttons(_card_buttons(table, turn, shown, by_card, locale))
        else:
            for select in _action_selects(table, turn, plays, view, locale, t(locale, "hand.pick_play")):
                controls.add_row([select])

    bids = by_verb.pop("bid", [])
    if bids:
        _bid_controls(controls, table, turn, bids, view, locale)

    for verb in ("discard",):
        actions = by_verb.pop(verb, [])
        if actions:
            _cards_select(
                controls,
                table,
                turn,
                actions,
                locale,
                t(locale, f"hand.pick_{verb}", count=len(actions[0].split()) - 1),
            )

    calls = by_verb.pop("call", [])
    if calls:
        for select in _action_selects(table, turn, calls, view, locale, t(locale, "hand.pick_call")):
            controls.add_row([select])

    words = [a for verb in WORDS for a in by_verb.pop(verb, [])]
    rest = [a for actions in by_verb.values() for a in actions]
    buttons: list[discord.ui.Item[Any]] = [
        ActButton(table.id, turn, a, label=action_label(a, view, locale), style=discord.ButtonStyle.primary)
        for a in words
    ]
    if rest:  # anything a future variant adds still gets a control
        for select in _action_selects(table, turn, rest, view, locale, t(locale, "hand.pick_other")):
            controls.add_row([select])
    if table.hints:  # only here: these controls are drawn for the seat on turn alone
        buttons.append(HintButton(table.id, turn, label=t(locale, "hand.hint")))
    buttons.append(HandButton(table.id, refresh=True, label=t(locale, "hand.refresh")))
    controls.add_buttons(buttons)
    return controls


def _bid_controls(
    controls: Controls, table: TableInfo, turn: int, bids: list[str], view: dict[str, Any], locale: Any
) -> None:
    if table.game == "ninety-nine":  # three cards, confirmed as a next step that shows the number
        _cards_select(controls, table, turn, bids, locale, t(locale, "hand.pick_bid_99"))
        return
    if table.game == "just-make":  # a card of the hand; several actions for a card open a next step
        by_card = _by_card(bids)
        cards = sorted(by_card, key=sort_key)
        if len(cards) <= CARD_ROWS_MAX * BUTTONS_PER_ROW:
            controls.add_buttons(_card_buttons(table, turn, cards, by_card, locale))
        else:
            for select in _action_selects(table, turn, bids, view, locale, t(locale, "hand.pick_bid")):
                controls.add_row([select])
        return
    # Five Hundred: the number first, then the suit as a next step; misère and open misère as buttons
    words = [a for a in bids if a.split()[1] in ("misere", "open-misere")]
    numbers = sorted({int(a.split()[1].rstrip("SHDCNT")) for a in bids if a not in words})
    if numbers:
        options = [
            discord.SelectOption(label=t(locale, "hand.bid_tricks", tricks=n), value=f"bid {n}")
            for n in numbers[:OPTIONS_MAX]
        ]
        controls.add_row(
            [PickSelect(table.id, turn, "action", 0, options=options, placeholder=t(locale, "hand.pick_bid"))]
        )
    if words:
        controls.add_buttons(
            [
                ActButton(table.id, turn, a, label=action_label(a, view, locale), style=discord.ButtonStyle.primary)
                for a in words
            ]
        )


def _cards_select(
    controls: Controls, table: TableInfo, turn: int, actions: list[str], locale: Any, placeholder: str
) -> None:
    """Choose exactly k cards out of those that appear in ``actions``."""
    count = len(actions[0].split()) - 1
    cards = sorted({card for a in actions for card in a.split()[1:]}, key=sort_key)
    if len(cards) > OPTIONS_MAX:  # cannot happen with today's hands; fall back to whole actions
        for select in _action_selects(table, turn, actions, {}, locale, placeholder):
            controls.add_row([select])
        return
    options = [discord.SelectOption(label=card_label(card, locale), value=card) for card in cards]
    controls.add_row([PickSelect(table.id, turn, "cards", 0, options=options, placeholder=placeholder, count=count)])


def focus_controls(table: TableInfo, seat: SeatInfo, view: dict[str, Any], actions: list[str], locale: Any) -> Controls:
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


def hand_embed(
    table: TableInfo, seat: SeatInfo, view: dict[str, Any], legal: list[str], locale: Any, note: str | None = None
) -> discord.Embed:
    """What the seat holds and what it is asked to do."""
    embed = discord.Embed(
        title=clip(t(locale, "hand.title", game=game_name(table.game, locale), table=table.id), 256),
        colour=COLOUR["playing"],
    )
    lines = [hand_lines(view.get("hand") or [], locale)]
    game = table.game
    if game == "ninety-nine":
        if view.get("bid_cards"):
            lines.append(
                t(locale, "hand.your_bid_99", cards=cards_label(view["bid_cards"], locale), bid=view.get("bid"))
            )
        lines.append(t(locale, "hand.trump", trump=suit_label(view.get("trump"), locale)))
        if view.get("dummy") is not None and view.get("dummy_controller") == seat.index:
            dummy = view["hands"][view["dummy"]]
            if dummy.get("cards"):
                embed.add_field(name=t(locale, "hand.dummy"), value=clip(hand_lines(dummy["cards"], locale), 1024))
    elif game == "five-hundred":
        if view.get("contract"):
            lines.append(t(locale, "hand.contract", bid=said(None, bid_text(view["contract"]), locale)))
        if view.get("you_are_partner"):
            lines.append(t(locale, "hand.you_are_partner"))
        if view.get("kitty") and view.get("phase") == "discarding":
            lines.append(t(locale, "hand.kitty", cards=cards_label(view["kitty"], locale)))
    else:
        bid = next((b for b in view.get("bids", []) if b["seat"] == seat.index), None)
        if bid is not None:
            lines.append(t(locale, "hand.your_bid_jm", bid=bid["bid"], card=card_label(bid["card"], locale)))
    if view.get("trick"):
        lines.append(t(locale, "hand.trick", trick=trick_text(table, view["trick"], locale)))
    if legal:
        lines.append("**" + t(locale, f"hand.ask.{view.get('phase', 'playing')}") + "**")
    elif table.status == "playing":
        waiting = ", ".join(seat_name(table, s, locale) for s in table.to_act)
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
    view: dict[str, Any],
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
