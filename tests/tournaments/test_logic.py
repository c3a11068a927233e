"""The pure logic of tournaments: places to points, standings, Swiss and knockout seating, duplicate scoring."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import GameState, new_game
from bot.tournaments.duplicate import compare, round_seed
from bot.tournaments.knockout import advancing, is_final, knockout_round
from bot.tournaments.standings import TablePlaces, bye_points, place_points, shown, standings
from bot.tournaments.swiss import first_round_order, pair_key, repeats, swiss_round, table_sizes


def test_place_points_and_shared_ties() -> None:
    assert place_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert place_points([2, 1, 4, 3]) == [2, 3, 0, 1]
    assert place_points([1, 1, 3, 4]) == [Fraction(5, 2), Fraction(5, 2), 1, 0]
    assert place_points([1, 1, 1]) == [1, 1, 1]
    assert bye_points(4) == Fraction(3, 2)
    assert shown(Fraction(5, 2)) == "2.5" and shown(Fraction(3)) == "3" and shown(Fraction(4, 3)) == "1.33"


@given(st.lists(st.integers(1, 6), min_size=1, max_size=7))
def test_points_of_a_table_always_sum_to_the_places_points(raw: list[int]) -> None:
    # places as the engines give them: ties share the best place they cover
    ordered = sorted(raw)
    places = [1 + sum(1 for other in ordered if other < value) for value in raw]
    size = len(places)
    assert sum(place_points(places)) == size * (size - 1) // 2


def test_standings_tie_breaks() -> None:
    tables = [
        TablePlaces(1, (1, 2, 3, None), (1, 2, 3, 4)),
        TablePlaces(1, (4, 5, 6, None), (1, 2, 3, 4)),
    ]
    lines = standings([1, 2, 3, 4, 5, 6], tables)
    # 1 and 4 both have 3 points, same opponents' points, one first each: sign-up order decides
    assert [line.entrant for line in lines] == [1, 4, 2, 5, 3, 6]
    assert [line.rank for line in lines] == [1, 2, 3, 4, 5, 6]
    tables.append(TablePlaces(2, (1, 5, None, None), (2, 1, 3, 4)))
    tables.append(TablePlaces(2, (4, 2, None, None), (2, 1, 3, 4)))
    lines = standings([1, 2, 3, 4, 5, 6], tables, {2: [(3, 4), (6, 4)]})
    assert lines[0].points == 5 and {line.entrant for line in lines if line.points == 5} == {1, 2, 4, 5}
    assert next(line for line in lines if line.entrant == 3).byes == 1


@given(st.integers(1, 200), st.integers(2, 7), st.booleans(), st.booleans())
def test_table_sizes_seat_everyone_once(count: int, size: int, computers: bool, smaller: bool) -> None:
    allowed = list(range(2, size + 1)) if smaller else [size]
    people, robots, out = table_sizes(count, size, allowed, computers)
    assert sum(people) + out == count
    assert all(p + r == size for p, r in zip(people, robots, strict=True)) or not computers
    assert all(p >= 1 for p in people)
    if computers:
        assert out == 0 and max(robots, default=0) - min(robots, default=0) <= 1
    else:
        assert all(p in allowed for p in people)
        assert out < size


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 70), st.integers(3, 5), st.booleans(), st.integers(0, 2**32), st.integers(1, 4))
def test_swiss_rounds(count: int, size: int, computers: bool, seed: int, rounds: int) -> None:
    """Every entrant is seated once or sits out; tables are full with computers; repeats never exceed the plain cut;
    byes go round before anyone has two."""
    entrants = list(range(100, 100 + count))
    met: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    order = first_round_order(entrants, seed)
    for _ in range(rounds):
        plan = swiss_round(order, met, byes, size, [size], computers)
        assert sorted(plan.seated + list(plan.byes)) == sorted(entrants)
        assert all(len(table) == size for table in plan.tables)
        if computers:
            assert not plan.byes
        plain = [order[i : i + size] for i in range(0, len(order), size)]
        if not plan.byes and not computers:
            assert sum(repeats([s for s in t if s is not None], met) for t in plan.tables) <= sum(
                repeats(t, met) for t in plain
            )
        for table in plan.tables:
            people = [seat for seat in table if seat is not None]
            for i, a in enumerate(people):
                for b in people[i + 1 :]:
                    met[pair_key(a, b)] += 1
        for entrant in plan.byes:
            byes[entrant] += 1
        assert max(byes.values(), default=0) - min((byes[e] for e in entrants), default=0) <= 1
        order = order[1:] + order[:1]


def test_swiss_second_round_avoids_all_repeats_when_it_can() -> None:
    entrants = list(range(16))
    round_one = swiss_round(entrants, {}, {}, 4, [4], False)
    met: Counter[tuple[int, int]] = Counter()
    for table in round_one.tables:
        people = [s for s in table if s is not None]
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                met[pair_key(a, b)] += 1
    # the same order again: the plain cut would repeat every table
    round_two = swiss_round(entrants, met, {}, 4, [4], False)
    assert sum(repeats([s for s in t if s is not None], met) for t in round_two.tables) == 0


def test_ten_players_in_tables_of_four_with_computers() -> None:
    plan = swiss_round(list(range(10)), {}, {}, 4, [4], True)
    assert [sum(seat is None for seat in table) for table in plan.tables] == [0, 1, 1]
    plan = swiss_round(list(range(10)), {}, {}, 4, [3, 4], False)
    assert sorted(len(table) for table in plan.tables) == [3, 3, 4] and not plan.byes
    plan = swiss_round(list(range(10)), {}, {}, 4, [4], False)
    assert plan.byes == (8, 9)


@given(st.integers(2, 64), st.integers(3, 5), st.integers(1, 3))
def test_knockout_reaches_a_final(count: int, size: int, k: int) -> None:
    k = min(k, size - 1)
    order = list(range(count))
    rounds = 0
    while not is_final(len(order), size):
        plan = knockout_round(order, size, [size], True)
        assert sorted(plan.seated) == sorted(order)
        tops = [table[0] for table in plan.tables]
        assert len(set(tops)) == len(tops)
        results = [TablePlaces(1, table, tuple(range(1, len(table) + 1))) for table in plan.tables]
        going = advancing(results, k, order)
        assert len(going) < len(order)
        assert going[0] == order[0]  # the best seed sits first at its table here, so goes on
        order = going
        rounds += 1
        assert rounds < 20


def test_knockout_spreads_the_seeds() -> None:
    plan = knockout_round(list(range(8)), 4, [4], False)
    assert plan.tables == ((0, 3, 4, 7), (1, 2, 5, 6))


def test_duplicate_tables_are_dealt_the_same() -> None:
    seed = round_seed(12345, 2)
    assert seed == round_seed(12345, 2) and seed != round_seed(12345, 3) and 0 <= seed < 2**62
    tables = [new_game("oh-hell", players=4, options={}, seed=seed) for _ in range(3)]
    assert len({state.to_json() for state in tables}) == 1


def sheet(deal: int, changes: list[int]) -> dict[str, object]:
    return {"deal": deal, "rows": [{"seat": s, "tricks": 0, "change": c, "total": 0} for s, c in enumerate(changes)]}


def test_matchpoints() -> None:
    tables = [
        [sheet(1, [10, 0]), sheet(2, [5, 5])],
        [sheet(1, [0, 0]), sheet(2, [5, 6])],
        [sheet(1, [10, 3])],
    ]
    result = compare(tables, 2)
    assert result.deals == (1,)
    assert result.most == 4
    assert result.matchpoints == ((3, 1), (0, 1), (3, 4))
    assert result.percent(2, 1) == 100.0
    assert compare([[sheet(1, [1, 2])]], 2).most == 0


def test_a_five_hundred_deal_dealt_by_another_seat_at_some_table_is_not_compared() -> None:
    """One table throws hand 1 in (everyone passes): the same dealer deals again, so its deal 2 goes round from
    another seat than the other table's. It was compared as the same deal; now only deals dealt by the same seat
    at every table are."""
    seed = round_seed(12345, 1)
    passed, played = (new_game("five-hundred", players=4, options={}, seed=seed) for _ in range(2))

    def act(state: GameState, everyone_passes: bool) -> None:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        bids = [a for a in legal if a != "pass"]
        opening = bids and not state.view(None)["auction"]
        state.act(seat, "pass" if everyone_passes and "pass" in legal else bids[0] if opening else legal[0])

    while not passed.sheets:
        act(passed, everyone_passes=True)
    assert passed.sheets[0]["thrown_in"]
    while len(played.sheets) < 2 and not played.is_over():
        act(played, everyone_passes=False)
    while len(passed.sheets) < 2 and not passed.is_over():
        act(passed, everyone_passes=False)
    assert passed.sheets[1]["dealer"] != played.sheets[1]["dealer"]  # deal 2: the same cards, another dealer
    assert compare([passed.sheets, played.sheets], 4).deals == ()
    lined_up = [dict(sheet, dealer=0) for sheet in passed.sheets]  # had the same seat dealt it: compared
    assert compare([lined_up, [dict(sheet, dealer=0) for sheet in played.sheets]], 4).deals == (2,)


def test_a_person_seated_alone_with_computers_goes_on_by_beating_them() -> None:
    """Three entrants at a game of two: one sits with a computer. It was out whatever it did (the cut took one
    less than the table's people); now it goes on by placing within the best ``k``, computers counted."""
    pair, lone = TablePlaces(1, (1, 2), (2, 1)), TablePlaces(1, (3, None), (1, 2))
    assert advancing([pair, lone], 1, [1, 2, 3]) == [2, 3]
    beaten = TablePlaces(1, (3, None), (2, 1))
    assert advancing([pair, beaten], 1, [1, 2, 3]) == [2]
    assert advancing([TablePlaces(1, (3, None, None), (2, 1, 3))], 2, [3]) == [3]  # second of three, two go on


def test_a_table_whose_people_left_sends_its_next_best_in_their_place() -> None:
    from bot.tournaments.knockout import advancing_without

    beaten_by_a_computer = TablePlaces(1, (10, None, 11), (2, 1, 3))  # k=1: 10 goes on, as the best person
    assert advancing_without([beaten_by_a_computer], 1, [10, 11], set()) == [10]
    assert advancing_without([beaten_by_a_computer], 1, [10, 11], {10}) == [11]  # not nobody
    four = TablePlaces(1, (1, 2, 3, 4), (1, 2, 3, 4))
    assert advancing_without([four], 2, [1, 2, 3, 4], {2}) == [1, 3]
    assert advancing_without([four], 1, [1, 2, 3, 4], {1, 2, 3, 4}) == []
