"""Pictures and words in both languages (issue 24): Japanese tables are drawn with every name, in the font the
install brings; every seat has a short name of its own everywhere; plural forms come from the catalogues; one
style for lengths of time; the lobby lists the options of its player count; the colour key has a colour a seat."""

from __future__ import annotations

import io
import logging
import random
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.games import GAMES, new_game
from bot.games.base import GameState
from bot.tables import SeatInfo, TableInfo, TableStatus
from cogs.charts import SQUARES, legend, totals_chart
from cogs.i18n import (
    DEFAULT,
    ServerLanguages,
    catalogue,
    duration,
    languages,
    plural_forms,
    server_reader,
    t,
)
from cogs.picture import SeatPlate, TablePicture, draw_table, fonts, picture_inputs
from cogs.picture.fonts import SPARED, UNDRAWABLE, coverage, drawable, font, shipped_path, undrawn
from cogs.tables.picture import table_picture
from cogs.tables.publisher import Publisher
from cogs.tables.render import SHEET_NAME, lobby_embed, seat_names, sheet_text, shown_width

JAPANESE = ("たろう", "はなこ", "山田太郎", "佐藤花子", "けんじ", "ゆうき", "鈴木一郎", "さくら", "ひろし")
ENGLISH = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan")
COUNTS = [(game, count) for game in sorted(GAMES) for count in GAMES[game].players]


def table_of(
    game: str, names: tuple[str, ...], levels: tuple[str, ...] = (), status: str = "playing", **options: Any
) -> TableInfo:
    """A table of ``names`` then a computer of each of ``levels``, in that order of seats."""
    now = datetime.now(UTC)
    people = [SeatInfo(index, 10**17 + index, name) for index, name in enumerate(names)]
    computers = [SeatInfo(len(names) + n, None, "", level=level) for n, level in enumerate(levels)]
    return TableInfo(
        id=7,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=4,
        game=game,
        options=options,
        players=len(names) + len(levels),
        status=TableStatus(status),
        host_id=10**17,
        version=1,
        seats=(*people, *computers),
        turn_seconds=300,
        grace_seconds=120,
        created_at=now,
        started_at=now,
        finished_at=None,
        to_act=(),
        actions=1,
        hints=False,
    )


def mid_deal(game: str, players: int, seed: int) -> GameState:
    """A game played at random until a trick has been taken and another is under way."""
    rng = random.Random(seed)
    state = new_game(game, players=players, options={}, seed=seed)
    for _ in range(2000):
        public = state.view(None)
        if public["last_trick"] and public["trick"]:
            return state
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    raise AssertionError("no trick was taken")


def pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


# ---------------------------------------------------------------------- the font


DEJAVU = tuple(path for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",) if Path(path).is_file())
DEJAVU_BOLD = tuple(path for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",) if Path(path).is_file())


def machine_fonts(monkeypatch: pytest.MonkeyPatch, regular: tuple[str, ...], bold: tuple[str, ...] = ()) -> None:
    """The pictures as drawn on a machine whose own fonts are these (none: a slim container)."""
    monkeypatch.setattr(fonts, "SYSTEM", {True: bold, False: regular})
    for cached in (fonts.system_path, fonts.font, fonts.drawn_anywhere):
        cached.cache_clear()


@pytest.fixture(autouse=True)
def no_cjk_font_of_its_own(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The normal case: a machine with DejaVu Sans at most, no CJK font (whatever this one has)."""
    machine_fonts(monkeypatch, DEJAVU, DEJAVU_BOLD)
    yield
    monkeypatch.undo()
    for cached in (fonts.system_path, fonts.font, fonts.drawn_anywhere):
        cached.cache_clear()


def test_the_install_brings_a_small_japanese_font() -> None:
    path = shipped_path()
    assert path is not None, "pip install pylopdf-fonts-jp (a dependency in pyproject.toml)"
    assert Path(path).stat().st_size < 6_000_000  # Noto Sans JP, one weight: 4.5 MB
    assert {ord(c) for c in "あア漢字ー・：（）ABCabc0123456789"} <= coverage(path)


@pytest.mark.parametrize(("game", "count"), COUNTS)
def test_every_letter_a_japanese_table_draws_is_in_the_shipped_font(game: str, count: int) -> None:
    """Japanese tables draw whole on a machine with no font of its own: every character of every text
    the picture and the chart draw is in Noto Sans JP (emoji, left out on purpose, and suits, drawn as
    shapes, aside), so nothing is left out."""
    shipped = shipped_path()
    assert shipped is not None
    state = mid_deal(game, count, seed=count)
    table = table_of(game, JAPANESE[: count - 1], ("strong",))
    drawn = table_picture(table, state.view(None), "ja")
    names = list(seat_names(table, "ja").values())
    texts = [*drawn.texts(), *names, t("ja", "chart.deals"), t("ja", "chart.points"), t("ja", "picture.undrawn")]
    missing = {
        char
        for text in texts
        for char in UNDRAWABLE.sub("", text)
        if char not in SPARED and ord(char) not in coverage(shipped)
    }
    assert not missing, f"not in Noto Sans JP: {sorted(missing)}"
    assert undrawn(texts) == ""


@pytest.mark.parametrize(("game", "count"), [(game, max(GAMES[game].players)) for game in sorted(GAMES)])
def test_a_japanese_table_is_drawn_with_every_name(game: str, count: int) -> None:
    state = mid_deal(game, count, seed=3)
    public = state.view(None)
    table = table_of(game, JAPANESE[: count - 1], ("easy",))
    drawn = table_picture(table, public, "ja")
    png = draw_table(drawn)
    seats = picture_inputs(png)["seats"]
    assert isinstance(seats, list)
    assert [seat["name"] for seat in seats] == [*JAPANESE[: count - 1], "🤖 やさしい" + str(count)]
    assert any("\u3040" <= char <= "\u30ff" for line in drawn.header for char in line)  # the header in kana
    # The names are drawn: other Japanese names give another picture, and so do the names left out.
    others = table_of(game, tuple(name[::-1] + "x" for name in JAPANESE[: count - 1]), ("easy",))
    assert pixels(draw_table(table_picture(others, public, "ja"))) != pixels(png)
    blank = replace(drawn, seats=tuple(replace(seat, name="") for seat in drawn.seats))
    assert pixels(draw_table(blank)) != pixels(png)
    # Each name, as the picture fits it, keeps every letter and puts ink on the page.
    face = font(24, bold=True)
    for name in JAPANESE[: count - 1]:
        assert drawable(name) == name and face.runs(name) == [(face.runs(name)[0][0], name)]
        canvas = Image.new("L", (400, 60), 0)
        face.draw(ImageDraw.Draw(canvas), (4, 4), name, 255)
        box = canvas.getbbox()
        assert box is not None and box[2] - box[0] >= 0.8 * face.getlength(name) - 4


@pytest.mark.skipif(not DEJAVU_BOLD, reason="a machine without DejaVu Sans draws English in the shipped font too")
def test_a_japanese_name_on_an_english_table_is_drawn_in_the_japanese_font() -> None:
    face = font(20, bold=True)
    runs = face.runs("Last trick · won by 山田太郎")
    assert [run for _, run in runs] == ["Last trick · won by ", "山田太郎"]  # English in the first font
    assert len({index for index, _ in runs}) == 2
    assert [index for index, _ in face.runs("山田太郎")] == [runs[1][0]]


def test_a_letter_no_font_draws_is_logged_once_and_said_on_the_picture(caplog: pytest.LogCaptureFixture) -> None:
    """Hangul is in no font here (the machine's DejaVu and the shipped Noto Sans JP lack it): the picture is still
    drawn, with the rest of the name, and says at its foot which letters it left out; the log says it once."""
    caplog.set_level(logging.WARNING, logger="cogs.picture.fonts")
    note = t(DEFAULT, "picture.undrawn")
    seats = (SeatPlate("뷁뷀 Kim", ("bid 1",)), SeatPlate("Alice", ("bid 2",)))
    picture = TablePicture(("Deal 1",), seats, (), None, (), "", note)
    with_note = draw_table(picture)
    without = draw_table(replace(picture, seats=(SeatPlate("Kim", ("bid 1",)), seats[1])))
    with Image.open(io.BytesIO(with_note)) as a, Image.open(io.BytesIO(without)) as b:
        assert a.height == b.height + 30  # a line more: the note
    told = [r.getMessage() for r in caplog.records if "뷁" in r.getMessage()]
    assert len(told) == 1 and "U+BDC1" in told[0]
    caplog.clear()
    draw_table(picture)
    chart = totals_chart([[0, 5], [0, 7]], ["뷁뷀", "Alice"], "deals", "points", note)
    assert chart.startswith(b"\x89PNG")
    assert not [r for r in caplog.records if "뷁" in r.getMessage()], "logged once"
    assert undrawn(["뷁뷀 Kim", "Alice"]) == "뷁뷀"


async def test_a_japanese_server_gets_its_table_picture() -> None:
    state = mid_deal("oh-hell", 4, seed=5)
    table = table_of("oh-hell", JAPANESE[:3], ("strong",))

    class Service:
        async def snapshot(self, table_id: int) -> tuple[TableInfo, Any]:
            return table, state.view(None)

        async def deal_end(self, table: TableInfo, public: Any) -> None:
            return None  # mid-deal: no deal just scored

    async def japanese(guild_id: int) -> str:
        return "ja"

    publisher = Publisher(None, Service(), japanese)  # type: ignore[arg-type]
    message = await publisher.message(table.id)
    assert [file.filename for file in message["attachments"]] == ["table.png"]
    assert message["embed"].image.url == "attachment://table.png"


# ---------------------------------------------------------------------- names


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_every_seat_has_a_short_name_of_its_own_in_the_picture_and_the_score_sheet(locale: str) -> None:
    names = ENGLISH if locale == "en-US" else JAPANESE
    table = table_of("just-make", names[:6], ("strong", "strong", "easy"))
    shown = seat_names(table, locale)
    assert len(set(shown.values())) == 9
    assert shown[6] == t(locale, "seat.computer.strong", number=7) and shown[8] == t(
        locale, "seat.computer.easy", number=9
    )
    state = mid_deal("just-make", 9, seed=11)
    drawn = table_picture(table, state.view(None), locale)
    played_by = drawn.rows[0].under
    assert len(played_by) == 9 and set(played_by) == set(shown.values())  # every card with its player's name
    rng = random.Random(1)
    while state.view(None)["last_deal"] is None:
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    last = state.view(None)["last_deal"]
    assert last is not None
    sheet = sheet_text(table, last, locale)
    head, *rows = sheet.split("```")[1].strip("\n").splitlines()
    after = t(locale, "sheet.head_jm", name="")
    width = len(head) - len(head.lstrip(" ")) - (len(after) - len(after.lstrip(" ")))  # the names' column
    assert 0 < width <= SHEET_NAME

    def name_column(row: str) -> str:
        end = next(i for i in range(len(row) + 1) if shown_width(row[:i]) >= width)
        return row[:end].rstrip()

    cut = [name_column(row) for row in rows]
    assert len(set(cut)) == 9, cut  # not cut to the same prefix
    assert all(shown_width(name) <= SHEET_NAME for name in cut)
    assert all(name[-1].isdigit() for name in cut[-3:]), cut  # a computer keeps its seat's number


def test_names_cut_alike_are_told_apart() -> None:
    table = table_of("oh-hell", ("Alexander Smithson the Great", "Alexander Smithson the Small", "Bo", "Bo"))
    shown = seat_names(table, "en-US")
    assert len(set(shown.values())) == 4, shown
    assert all(len(name) <= 20 for name in shown.values())


# ---------------------------------------------------------------------- words


def test_plural_texts_have_every_form_of_each_language_with_the_same_placeholders() -> None:
    english = plural_forms(DEFAULT)
    assert {"table.score", "history.footer", "sheet.why_bids_99", "table.deal_oh"} <= set(english)
    for language in languages():
        forms = plural_forms(language)
        assert set(forms) == set(english), language
        for key, (counted, texts) in forms.items():
            assert len(texts) == (2 if language == "en" else 1), (language, key)
            for text in texts:
                assert "{" + counted + "}" in text, (language, key)


def test_no_english_text_counts_without_plural_forms() -> None:
    """A number before a countable word (``{matches} matches``) has plural forms, so nobody reads "1 matches"."""
    plural = plural_forms(DEFAULT)
    never_one = {  # a list of player counts ("2, 3, 4" or a range), or a table's seats: never a single one
        "lobby.description",
        "error.table_full",
        "error.bad_players",
        "error.option_needs_players",
    }
    nouns = "pts|points|matches|cards|deals|tricks|bids|players|seats|tables|lobbies|minutes|bid\\(s\\)"
    for key, text in catalogue(DEFAULT).items():
        if re.search(r"\{\w+\} (?:exact )?(?:open )?(?:" + nouns + r")\b", text) and key not in never_one:
            assert key in plural, key


@pytest.mark.parametrize(
    ("count", "english", "japanese"), [(1, "1 pt", "1点"), (2, "2 pts", "2点"), (0, "0 pts", "0点")]
)
def test_counted_words_take_the_form_of_their_number(count: int, english: str, japanese: str) -> None:
    assert t("en-US", "table.score", score=count) == english
    assert t("ja", "table.score", score=count) == japanese
    assert t("en-US", "sheet.why_bids_99", bonus=30, count=1) == "+30 each: 1 exact bid"
    assert t("en-US", "sheet.why_bids_99", bonus=30, count=2) == "+30 each: 2 exact bids"
    assert "1 match " in t("en-US", "history.footer", page=1, pages=1, matches=1)
    assert "(s)" not in "".join(catalogue(DEFAULT).values())


async def test_a_host_alone_pressing_start_reads_1_player_and_the_counts_as_the_language_lists(
    tmp_path: Path,
) -> None:
    """The host alone presses Start: "1 player is seated" (it read "1 are seated"), and the counts allowed are
    listed as each language lists them (、 in Japanese)."""
    from bot.storage.database import Database
    from bot.tables import TableError, TableService
    from bot.words import error_text

    database = Database(f"sqlite+aiosqlite:///{tmp_path}/words.db")
    await database.upgrade()
    service = TableService(database)
    try:
        info = await service.open_table(1, 2, 3, "Ann", "oh-hell", {})
        with pytest.raises(TableError) as refused:
            await service.start(info.id, 3, message_id=4)
    finally:
        await service.close()
        await database.close()
    assert error_text(refused.value, "en-US") == "Oh Hell is played by 3, 4, 5, 6, 7 players; 1 player is seated."
    assert "3、4、5、6、7人" in error_text(refused.value, "ja")


def test_a_table_picture_says_1_pt() -> None:
    state = mid_deal("just-make", 4, seed=4)
    drawn = table_picture(table_of("just-make", ENGLISH[:4]), state.view(None), "en-US")
    lines = [line for seat in drawn.seats for line in seat.lines]
    assert not [line for line in lines if re.search(r"\b1 pts\b", line)]


@pytest.mark.parametrize(
    ("seconds", "english", "japanese"),
    [
        (0, "off", "なし"),
        (15, "15 s", "15秒"),
        (90, "1 min 30 s", "1分30秒"),
        (300, "5 min", "5分"),
        (5400, "1 h 30 min", "1時間30分"),
    ],
)
def test_lengths_of_time_read_the_same_everywhere(seconds: int, english: str, japanese: str) -> None:
    assert duration(seconds, "en-US") == english
    assert duration(seconds, "ja") == japanese


@pytest.mark.parametrize(
    ("locale", "said"), [("en-US", "About 1 h to play (about 30 deals)"), ("ja", "対戦は約1時間（約30ディール）")]
)
def test_a_lobby_says_its_length_as_every_length_of_time_is_said(locale: str, said: str) -> None:
    """Two-player Ninety-Nine takes an hour: "1 h", as a timer of an hour reads (it read "1 h 0 min")."""
    table = replace(table_of("ninety-nine", ENGLISH[:1], status="lobby"), players=2)
    assert said in str(lobby_embed(table, locale).description)


@pytest.mark.parametrize(("game", "count"), COUNTS)
@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_every_lobby_lists_the_options_of_its_player_count_and_its_timer_in_minutes(
    game: str, count: int, locale: str
) -> None:
    table = table_of(game, (ENGLISH if locale == "en-US" else JAPANESE)[:1], status="lobby")
    table = replace(table, players=count)
    embed = lobby_embed(table, locale)
    options = next(field.value for field in embed.fields if field.name == t(locale, "lobby.options"))
    shown = {spec.name for spec in GAMES[game].options if t(locale, f"option.{spec.name}") + ":" in str(options)}
    played = GAMES[game].options_in_play(count, {})
    assert shown == {spec.name for spec in GAMES[game].options if spec.applies(count) and spec.counts_with(played)}
    if game == "ninety-nine":  # by default not played to a target: no target to show
        assert t(locale, "option.target") + ":" not in str(options)
    if game == "five-hundred":
        assert (t(locale, "option.six_sides") + ":" in str(options)) == (count == 6)
        assert (t(locale, "option.called_partner") + ":" in str(options)) == (count == 5)
    footer = str(embed.footer.text)
    assert duration(300, locale) in footer and duration(120, locale) in footer
    assert not re.search(r"\d+ s\b", footer) and "300" not in footer


@pytest.mark.parametrize(("game", "count"), COUNTS)
def test_every_seat_has_a_colour_of_its_own_in_the_key(game: str, count: int) -> None:
    key = legend([f"P{n}" for n in range(count)])
    squares = [part.split(" ")[0] for part in key.split(" · ")]
    assert len(squares) == count and len(set(squares)) == count, key
    assert set(squares) <= set(SQUARES)


def test_the_settings_panel_is_in_the_language_the_server_chose() -> None:
    chosen = ServerLanguages({1: "ja"})

    def interaction(guild: int, locale: str) -> Any:
        return SimpleNamespace(client=SimpleNamespace(languages=chosen), guild_id=guild, locale=locale)

    assert server_reader(interaction(1, "en-US")) == "ja"  # a Japanese server: Japanese, whoever opens it
    assert server_reader(interaction(2, "ja")) == "ja"  # a server that chose none: the reader's
    assert server_reader(interaction(2, "en-US")) == "en"


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_a_machine_with_no_font_draws_every_name_in_the_shipped_one(
    monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    machine_fonts(monkeypatch, ())
    names = ENGLISH[:3] if locale == "en-US" else JAPANESE[:3]
    state = mid_deal("oh-hell", 4, seed=2)
    drawn = table_picture(table_of("oh-hell", names, ("strong",)), state.view(None), locale)
    assert undrawn(drawn.texts()) == ""
    face = font(24, bold=True)
    assert [face.runs(name) for name in names] == [[(0, name)] for name in names]  # Noto Sans JP, first now
    with Image.open(io.BytesIO(draw_table(drawn))) as image:
        assert image.height == 16 + 31 * len(drawn.header) + 480 + round(44 * 1.4 + 62) + 16  # no note of letters


def test_a_name_reads_as_it_is_in_the_text_and_as_typed_in_the_picture_and_the_sheet() -> None:
    """Discord reads a message's text as markdown: a person's name there is escaped, so its marks are letters
    (no italics, no masked link, no mention); a picture, the chart's names, the score sheet's code block and a
    button's label read no marks, so there the name is as typed (a code block's backticks made primes, so a
    name cannot end the block)."""
    names = ("[win](https://ev.il)", "_x_ *y*", "<@123> @everyone", "a```b")
    table = table_of("oh-hell", names)
    marked = seat_names(table, "en-US")
    assert marked[0].startswith("\\[")  # not a masked link: its text in brackets, the address after it
    assert marked[1] == "\\_x\\_ \\*y\\*"
    assert marked[2].startswith("\\<@123>") and "@everyone" not in marked[2]  # no mention, no ping
    assert "```" not in marked[3]
    assert seat_names(table, "en-US", marked=False) == dict(enumerate(names))
    state = mid_deal("oh-hell", 4, seed=3)
    drawn = table_picture(table, state.view(None), "en-US")
    assert {plate.name for plate in drawn.seats} == set(names)
    rng = random.Random(2)
    while state.view(None)["last_deal"] is None:
        seat = state.to_act()[0]
        state.act(seat, rng.choice(state.legal(seat)))
    last = state.view(None)["last_deal"]
    assert last is not None
    sheet = sheet_text(table, last, "en-US")
    assert sheet.count("```") == 2 and sheet.startswith("```\n")  # the block opened and closed once
    assert "\\" not in sheet.split("```")[1]  # nothing escaped inside the block
