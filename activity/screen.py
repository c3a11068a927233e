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
from bot.games import GAMES, cards, presentation_of
from bot.games.shown import CARD, LIST, NUMBER, Choice
from bot.games.views import DealSheet, LastTrick, View
from bot.tables import (
    DealReview,
    MatchSheet,
    TableInfo,
    TableStatus,
    TrickReview,
    final_standings,
    running_totals,
)
from bot.tables.deal_ends import last_trick_shown
from bot.words import cell_text, listed, option_text, rating_text

from .words import said, seat_name


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _words(line: str) -> list[tuple[str, int, int]]:
    """The words of a fixed-width line, each with the display columns it spans (a wide character counts two)."""
    found: list[tuple[str, int, int]] = []
    column, word, start = 0, "", 0
    for ch in line + " ":
        if ch == " ":
            if word:
                found.append((word, start, column))
            word = ""
        else:
            if not word:
                start = column
            word += ch
        column += _width(ch)
    return found


def _heads(head: str, widths: list[int]) -> list[str]:
    """Each figure's column head, read from the fixed-width head line above figures ``widths`` wide (after the
    name column and a space): a word of the line heads the figure it overlaps most; a figure may have none
    (the ✓ of a made bid). None at all when a word of the line overlaps no figure."""
    spans, start = [], 1
    for width in widths:
        spans.append((start, start + width))
        start += width + 1
    heads: list[list[str]] = [[] for _ in widths]
    for word, begin, end in _words(head):
        overlaps = [min(end, right) - max(begin, left) for left, right in spans]
        best = max(range(len(spans)), key=lambda at: overlaps[at], default=None)
        if best is None or overlaps[best] <= 0:
            return []
        heads[best].append(word)
    return [" ".join(words) for words in heads]


def sheet_table(table: TableInfo, sheet: DealSheet, language: str) -> dict[str, Any]:
    """A deal's score sheet as a table for the page: the column heads, a row per seat (its name and figures:
    bid, tricks, points) and the notes in words."""
    described = presentation_of(table.game).sheet(sheet)
    widths = [cell.width for cell in described.rows[0][1]] if described.rows else []
    return {
        "title": said(table, described.title, language),
        "columns": _heads(translate(language, described.head, name=""), widths),
        "rows": [
            {
                "seat": seat,
                "name": seat_name(table, seat, language),
                "cells": [cell_text(cell).strip() for cell in cells],
            }
            for seat, cells in described.rows
        ],
        "notes": [said(table, note, language) for note in described.notes],
    }


def review_screen(table: TableInfo, review: DealReview, language: str) -> dict[str, Any]:
    """The last deal, as the chat's "Last deal" shows it and no more: its tricks in order and who took each,
    its score sheet (bids, tricks, points), and the hands as dealt only where the service hands them out
    (once the match is over)."""
    tricks = []
    for number, trick in enumerate(review.tricks, start=1):
        tricks.append(
            {
                "number": number,
                "cards": [{"seat": seat, "card": card} for seat, card in trick.cards],
                "winner": trick.winner,
                "text": translate(language, "table.won_by", name=seat_name(table, trick.winner, language))
                if trick.winner is not None
                else translate(language, "review.nobody"),
            }
        )
    return {
        "table": table.id,
        "deal": review.deal,
        "title": translate(
            language, "review.title", game=translate(language, f"game.{table.game}"), table=table.id, deal=review.deal
        ),
        "tricks": tricks,
        "sheet": sheet_table(table, review.sheet, language) if review.sheet is not None else None,
        "hands": [
            {
                "seat": seat,
                "title": translate(language, "review.dealt", name=seat_name(table, seat, language)),
                "cards": list(cards),
            }
            for seat, cards in enumerate(review.hands)
        ],
    }


def final_screen(table: TableInfo, public: View, result: MatchSheet | None, language: str) -> dict[str, Any]:
    """The end of the match: places, scores and rating changes (once the match is stored, as in chat), and
    every seat's running total deal by deal for the chart the page draws."""
    standings = final_standings(public, result, table.resigned)
    seats = len(public["scores"]["total"])
    sheets = list(result["sheets"]) if result is not None else []
    return {
        "standings": [
            {
                "seat": row.seat,
                "name": seat_label(table, row.seat, language),
                "place": row.place,
                "score": row.score,
                "winner": row.winner,
                "rating": rating_text(row.rating_before, row.rating_after, language),
            }
            for row in standings
        ],
        "unrated": translate(language, "table.hints_unrated") if table.hints else "",
        "chart": {
            "title": translate(language, "table.chart"),
            "x": translate(language, "chart.deals"),
            "y": translate(language, "chart.points"),
            "names": [seat_name(table, seat, language) for seat in range(seats)],
            "lines": running_totals(sheets, seats),
        }
        if sheets
        else None,
    }


def matching(actions: list[str], prefix: str) -> list[str]:
    """The actions a next step offers for ``prefix`` (``play JK`` → its suits; ``bid 7`` → 7♠ … 7 NT)."""
    numbered = prefix.split()[-1].isdigit()

    def offered(action: str) -> bool:
        if action == prefix or action.startswith(prefix + " "):
            return True
        return numbered and action.startswith(prefix) and not action[len(prefix)].isdigit()

    return [action for action in actions if offered(action)]


LONG_LIST = 12  # cards named in a list past which the page lays them out by suit, not as a row of buttons


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
    elif choice.kind == LIST:
        # a long list of cards to name (Five Hundred's called card: forty and more) is laid out by suit on the page
        named = [(a, words[1]) for a in actions if len(words := a.split()) == 2 and cards.parse(words[1]) is not None]
        if len(named) > LONG_LIST:
            out["list_cards"] = [{"card": card, "action": action} for action, card in named]
    elif choice.kind == NUMBER:
        verb = actions[0].split()[0] if actions else ""
        out["numbers"] = [
            {"number": n, "label": said(table, text, language), "actions": matching(actions, f"{verb} {n}")}
            for n, text in choice.numbers
        ]
    return out


def options_lines(table: TableInfo, language: str) -> list[str]:
    """The table's options that change its game (as the chat's lobby lists them)."""
    count = table.players or (len(table.seats) if table.status != TableStatus.LOBBY else None)
    options = GAMES[table.game].options_that_count(count, table.options)
    return [option_text(table.game, name, value, language) for name, value in options.items()]


def seat_label(table: TableInfo, index: int, language: str) -> str:
    """A seat's name in the lobby: a computer's names its level (``🤖 Strong 2``)."""
    return seat_name(table, index, language)


def most_seats(table: TableInfo) -> int:
    """The most seats the table takes, as the service counts them when a player joins or the host seats a
    computer: the player count chosen, else the game's largest."""
    return table.players or max(GAMES[table.game].players)


def lobby_screen(table: TableInfo, user_id: int, language: str) -> dict[str, Any]:
    """The lobby: who sits, the options, and whether a seat is left (on a full table the page offers neither
    Join nor a computer, which the service would refuse: "This table is full")."""
    info = GAMES[table.game]
    wanted = table.players
    most = most_seats(table)
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
        "most": most,
        "full": len(table.seats) >= most,
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


def table_screen(
    table: TableInfo,
    public: View,
    language: str,
    result: MatchSheet | None = None,
    deal_end: TrickReview | None = None,
) -> dict[str, Any]:
    """The part of a screen every screen of the table shares at one moment (built from ``public``,
    ``view(None)``, and, once the match is over, its stored ``result``: both public): built once per table,
    moment and language, whatever the number of screens. :func:`seat_screen` adds what one seat may see.
    ``deal_end``: the last trick of the deal just scored, shown as the last trick until the new deal's first card
    (every card of it was played face up; the new deal's view holds none of the last deal's)."""
    shown = presentation_of(table.game)
    view = public
    rows = {row.seat: row for row in shown.seat_rows(view)}
    seats = []
    # every seat that holds cards: the players, and two-player Ninety-Nine's dummy (after them), whose plate shows
    # its bid, tricks and points and whose cards land on the felt at its own place, not a player's
    for index in range(len(view["cards_left"])):
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
    last = last_trick_shown(view, deal_end)  # (a deal just scored: its last trick, until the new deal's first card)
    to_act = list(table.to_act)
    phase = view["phase"]
    who = listed((seat_name(table, s, language) for s in to_act), language)
    out: dict[str, Any] = {
        "id": table.id,
        "version": table.version,
        "actions": table.actions,  # the moves made so far: the turn marker of the whole table
        "status": str(table.status.value),
        "title": translate(language, "table.title", game=translate(language, f"game.{table.game}"), table=table.id),
        "hints": table.hints,
        "phase": phase,
        "header": [" ".join(said(table, text, language) for text in line) for line in shown.header(view)],
        "seats": seats,
        "to_act": to_act,
        "turn_line": translate(language, f"turn.{phase}", who=who) if to_act and phase else "",
        "turn_ends": table.turn_ends.isoformat() if table.turn_ends else None,
        "trick": [{"seat": p["seat"], "card": p["card"]} for p in view["trick"]],
        "leader": view["leader"],
        "last_trick": _last_trick(table, last, language) if last is not None else None,
        "face_up": [
            {"title": said(table, s.title, language), "cards": list(s.cards.names)} for s in shown.face_up(view)
        ],
        "sheet": sheet_table(table, view["last_deal"], language) if view["last_deal"] else None,
        "scores": list(view["scores"]["total"]),
        "winners": view["winners"],
    }
    if table.status == TableStatus.FINISHED:
        out["final"] = final_screen(table, view, result, language)
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
    out["hand_notes"] = _new_lines([said(table, text, language) for text in shown.hand_notes(own)], shared["header"])
    # what the chat's hand shows beside the hand (the dummy's cards, to its player), unless the table shows it
    # face up to all already (the screen lists each set of cards once)
    public = [sorted(entry["cards"]) for entry in shared["face_up"]]
    beside = [s for s in shown.beside(own) if sorted(s.cards.names) not in public]
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
    result: MatchSheet | None = None,
) -> dict[str, Any]:
    """One screen's whole state, as the chat presentation splits it: the table (header, seats, the trick, cards
    face up, the score sheet) from ``public`` (``view(None)``), and for a seated player their hand, its notes,
    what they play beside it and their choices from ``mine`` (``view(seat)``, of the same moment). A finished
    table's standings take their places, rating changes and running totals from the stored ``result``."""
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
    shared = table_screen(table, public, language, result)
    return seat_screen(shared, table, mine, seat=seat, legal=legal, language=language)


def _last_trick(table: TableInfo, last: LastTrick, language: str) -> dict[str, Any]:
    winner = last["winner"]
    return {
        "cards": [{"seat": p["seat"], "card": p["card"]} for p in last["cards"]],
        "winner": winner,
        "text": translate(language, "table.won_by", name=seat_name(table, winner, language))
        if winner is not None
        else "",
    }


def _new_lines(lines: list[str], shown: list[str]) -> list[str]:
    """``lines`` less those already ``shown`` (a hand note that repeats a header line, such as the trumps)."""
    return [line for line in lines if line not in shown]
