"""What one screen shows, as JSON for the page: from the table, ``view(None)`` and ``view(seat)`` only.

Everything is said through the game's own description (:mod:`bot.games.shown`): the page
draws card codes, seat rows, header lines, choices and the score sheet of any game without
naming one. A seat's screen is built from that seat's view, a watcher's from the public
view: no other seat's hidden card can reach a browser, by construction.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.catalogues import translate
from bot.games import GAMES, presentation_of
from bot.games.options import resolve
from bot.games.shown import CARD, LIST, NUMBER, Cell, Choice
from bot.games.views import DealSheet, View
from bot.tables import TableInfo, TableStatus

from .words import said, seat_name

SHEET_NAME = 10  # columns of a name in the score sheet


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _narrow(text: str, width: int) -> str:
    if _width(text) <= width:
        return text
    while text and _width(text) > width - 1:
        text = text[:-1]
    return text + "…"


def _cell(cell: Cell) -> str:
    if isinstance(cell.value, bool):
        mark = "✓" if cell.value else ("✗!" if cell.bust else "✗")
        return f"{mark:<{cell.width}}"
    return f"{cell.value:>+{cell.width}}" if cell.signed else f"{cell.value:>{cell.width}}"


def sheet_screen(table: TableInfo, sheet: DealSheet, language: str) -> dict[str, Any]:
    """A deal's score sheet: its title, fixed-width lines (names cut short) and the notes in words."""
    described = presentation_of(table.game).sheet(sheet)
    lines: list[str] = []
    if described.rows:
        names = {seat: _narrow(seat_name(table, seat, language), SHEET_NAME) for seat, _ in described.rows}
        width = max(_width(name) for name in names.values())
        lines.append(translate(language, described.head, name=" " * width))
        lines.extend(" ".join([_pad(names[seat], width), *map(_cell, cells)]) for seat, cells in described.rows)
    return {
        "title": said(table, described.title, language),
        "lines": lines,
        "notes": [said(table, note, language) for note in described.notes],
    }


def matching(actions: list[str], prefix: str) -> list[str]:
    """The actions a next step offers for ``prefix`` (``play JK`` → its suits; ``bid 7`` → 7♠ … 7 NT)."""
    numbered = prefix.split()[-1].isdigit()

    def offered(action: str) -> bool:
        if action == prefix or action.startswith(prefix + " "):
            return True
        return numbered and action.startswith(prefix) and not action[len(prefix)].isdigit()

    return [action for action in actions if offered(action)]


def choice_screen(table: TableInfo, view: View, choice: Choice, actions: list[str], language: str) -> dict[str, Any]:
    """One choice, with every next step worked out: each card's actions, each number's actions."""
    shown = presentation_of(table.game)
    labels = {a: said(table, shown.label(view, a), language) for a in actions}
    out: dict[str, Any] = {
        "kind": choice.kind,
        "prompt": said(table, choice.prompt, language) if choice.prompt else "",
        "actions": [{"action": a, "label": labels[a]} for a in actions],
        "count": choice.count,
        "notes": [{"card": c, "text": said(table, text, language)} for c, text in choice.notes],
        "confirm": [{"action": a, "text": said(table, text, language)} for a, text in choice.confirm],
    }
    if choice.kind == CARD:
        # each card shown, and its actions (those naming it second): none for a card that may not be played
        out["cards"] = [{"card": c, "actions": [a for a in actions if a.split()[1:2] == [c]]} for c in choice.cards]
    elif choice.kind == NUMBER:
        verb = actions[0].split()[0] if actions else ""
        out["numbers"] = [
            {"number": n, "label": said(table, text, language), "actions": matching(actions, f"{verb} {n}")}
            for n, text in choice.numbers
        ]
    return out


def options_lines(table: TableInfo, language: str) -> list[str]:
    lines = []
    for name, value in resolve(table.game, GAMES[table.game].options, table.options).items():
        if isinstance(value, bool):
            shown = translate(language, "option.on" if value else "option.off")
        elif isinstance(value, str):
            shown = translate(language, f"choice.{value}")
        else:
            shown = str(value)
        lines.append(f"{translate(language, f'option.{name}')}: {shown}")
    return lines


def seat_label(table: TableInfo, index: int, language: str) -> str:
    """A seat's name in the lobby: a computer's names its level (``🤖 Strong 2``)."""
    return seat_name(table, index, language)


def lobby_screen(table: TableInfo, user_id: int, language: str) -> dict[str, Any]:
    info = GAMES[table.game]
    wanted = table.players
    return {
        "host": table.host_id == user_id,
        "seated": any(s.user_id == user_id for s in table.seats),
        "seats": [
            {
                "key": s.key,
                "name": seat_label(table, s.index, language),
                "computer": s.computer,
                "host": s.user_id == table.host_id,
            }
            for s in table.seats
        ],
        "players": list(info.players) if wanted is None else [wanted],
        "options": options_lines(table, language),
        "hints": table.hints,
    }


def choices_screen(table: TableInfo, view: View, legal: list[str], language: str) -> list[dict[str, Any]]:
    """The seat's legal actions as the game groups them; any action left out gets a list of its own."""
    out, placed = [], set[str]()
    for choice in presentation_of(table.game).choices(view, legal):
        actions = [a for a in choice.actions if a in legal and a not in placed]
        placed.update(actions)
        if actions:
            out.append(choice_screen(table, view, choice, actions, language))
    rest = [a for a in legal if a not in placed]
    if rest:
        out.append(choice_screen(table, view, Choice(LIST, tuple(rest)), rest, language))
    return out


def table_screen(table: TableInfo, public: View, language: str) -> dict[str, Any]:
    """The part of a screen every screen of the table shares at one moment (built from ``public``,
    ``view(None)``, only): built once per table, moment and language, whatever the number of screens.
    :func:`seat_screen` adds what one seat may see."""
    shown = presentation_of(table.game)
    view = public
    rows = {row.seat: row for row in shown.seat_rows(view)}
    seats = []
    for index in range(view["players"]):
        info = next((s for s in table.seats if s.index == index), None)
        row = rows.get(index)
        seats.append(
            {
                "index": index,
                "name": seat_name(table, index, language),
                "label": seat_label(table, index, language),  # with a computer's level
                "computer": bool(info and info.computer),
                "me": False,
                "acting": bool(row and row.acting),
                "parts": [said(table, part, language) for part in row.parts] if row else [],
                "cards": view["cards_left"][index] if index < len(view["cards_left"]) else 0,
                "absent": bool(info and info.absent),
                "resigned": bool(info and info.resigned),
            }
        )
    last = view["last_trick"]
    to_act = list(table.to_act)
    phase = view["phase"]
    who = translate(language, "list.separator").join(seat_name(table, s, language) for s in to_act)
    out: dict[str, Any] = {
        "id": table.id,
        "version": table.version,
        "actions": table.actions,  # the moves made so far: the turn marker of the whole table
        "status": str(table.status.value),
        "title": translate(language, "table.title", game=translate(language, f"game.{table.game}"), table=table.id),
        "hints": table.hints,
        "header": [" ".join(said(table, text, language) for text in line) for line in shown.header(view)],
        "seats": seats,
        "to_act": to_act,
        "turn_line": translate(language, f"turn.{phase}", who=who) if to_act and phase else "",
        "turn_ends": table.turn_ends.isoformat() if table.turn_ends else None,
        "trick": [{"seat": p["seat"], "card": p["card"]} for p in view["trick"]],
        "leader": view["leader"],
        "last_trick": (
            {
                "cards": [{"seat": p["seat"], "card": p["card"]} for p in last["cards"]],
                "winner": last["winner"],
                "text": translate(language, "table.won_by", name=seat_name(table, last["winner"], language))
                if last["winner"] is not None
                else "",
            }
            if last and last["cards"]
            else None
        ),
        "face_up": [
            {"title": said(table, s.title, language), "cards": list(s.cards.names)} for s in shown.face_up(view)
        ],
        "sheet": sheet_screen(table, view["last_deal"], language) if view["last_deal"] else None,
        "scores": list(view["scores"]["total"]),
        "winners": view["winners"],
    }
    if table.status == TableStatus.FINISHED:
        totals = view["scores"]["total"]
        winners = set(view["winners"] or [])
        order = sorted(range(len(totals)), key=lambda s: (s not in winners, -totals[s]))
        out["final"] = [
            {"name": seat_label(table, s, language), "score": totals[s], "winner": s in winners} for s in order
        ]
    return out


def seat_screen(
    shared: dict[str, Any], table: TableInfo, mine: View | None, *, seat: int | None, legal: list[str], language: str
) -> dict[str, Any]:
    """One seat's screen: the shared part (:func:`table_screen`, left unchanged) and what ``mine``
    (``view(seat)``, of the same moment as the shared part) shows; a watcher (``seat`` None) gets the
    shared part alone."""
    own = mine if seat is not None else None
    out = dict(shared)
    out["seat"] = seat
    out["turn"] = next((s.acted for s in table.seats if s.index == seat), 0) if seat is not None else 0
    if own is None:
        out.update({"hand": [], "hand_notes": [], "choices": []})
        return out
    shown = presentation_of(table.game)
    out["seats"] = [{**row, "me": True} if row["index"] == seat else row for row in shared["seats"]]
    out["hand"] = list(own.get("hand") or [])
    out["hand_notes"] = [said(table, text, language) for text in shown.hand_notes(own)]
    beside = shown.beside(own)
    if beside:
        out["face_up"] = [
            *shared["face_up"],
            *({"title": said(table, s.title, language), "cards": list(s.cards.names)} for s in beside),
        ]
    out["choices"] = choices_screen(table, own, legal, language)
    return out


def screen(
    table: TableInfo,
    public: View | None,
    *,
    mine: View | None = None,
    user_id: int,
    seat: int | None,
    legal: list[str],
    language: str,
) -> dict[str, Any]:
    """One screen's whole state, as the chat presentation splits it: the table (header, seats, the trick, cards
    face up, the score sheet) from ``public`` (``view(None)``), and for a seated player their hand, its notes,
    what they play beside it and their choices from ``mine`` (``view(seat)``, of the same moment)."""
    if table.status == TableStatus.LOBBY or public is None:
        return {
            "id": table.id,
            "version": table.version,
            "actions": table.actions,
            "status": str(table.status.value),
            "title": translate(language, "table.title", game=translate(language, f"game.{table.game}"), table=table.id),
            "seat": seat,
            "turn": next((s.acted for s in table.seats if s.user_id == user_id), 0),
            "hints": table.hints,
            "lobby": lobby_screen(table, user_id, language),
        }
    return seat_screen(table_screen(table, public, language), table, mine, seat=seat, legal=legal, language=language)
