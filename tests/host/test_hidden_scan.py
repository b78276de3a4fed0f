"""The hidden-information scan through the host: whole simulated matches of Tile Decklaration,
Dueling Decks and Deck Swabbing (alone, with random anomalies) and of All Hands On Deck (random
first seat and items, bans and Overrides included), driven through a real :class:`Host` with a
recording transport, random but legal submissions (private ones by DM, now and then first
typed in the room by mistake), timeouts now and then, and the memory window closed by its
durable timer. After every step the scan checks what the room was shown:

* the memory grid: every message that showed it (its text, a board of it) is gone once the
  window has closed, and no later room message holds the colour of an undeclared tile; nothing
  else is ever deleted;
* an unexploded mine, and a Darkness play, never appear in the room before the rules reveal them;
* a sealed submission (mines, a creation, a play, a snipe, a sealed move, an All-In answer) that
  leaves the opponent still to answer tells the room and the opponent exactly the same whatever
  it was: a twin of the match (its stored state copied into another room) is given another
  legal submission in its place, and the two rooms must be told the same words and shown the
  same public view;
* no private text (an acknowledgement, a sealed event, a seat's own view) is ever in a room
  message; the boards are the public view (a text board of ``view(None)``, or a picture whose
  bytes are the render of ``view(None)``);
* the public log: every private submission is logged as private, and no action logged as public
  holds one; the exported record (public once the match is over) writes them ``p1 (dm): ...``.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from datetime import UTC, datetime

import pytest

from geniusbot.games import other_seat
from geniusbot.games.allhands.common import TASK_ANOMALIES
from geniusbot.games.allhands.tiles import TILES, Mines, grid_text
from geniusbot.host import board
from geniusbot.host.deadlines import DELETE_TIMER
from geniusbot.host.live import utc
from geniusbot.host.match import Host
from geniusbot.host.replay import export_record
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import SeatInfo, Store
from tests.games.allhands_helpers import tiles_step
from tests.host.support import FakeTime

ROOM = 900
NAMES = {"p1": "Alice", "p2": "Bob"}
USERS = {"p1": 11, "p2": 22}
# The prompts' own examples ("such as play 20 15"): saying them proves nothing.
PROMPT_EXAMPLES = {"play 20", "play 20 15", "play none", "create 20 15", "create none"}
_BOARD_ROW = re.compile(r"^ ?\d( +[A-Z]){7}$", re.MULTILINE)


def running_task(game):
    """The task game being played now (the game itself for a task hosted alone), else ``None``."""
    if game.name != "allhands":
        return None if game.is_over else game
    return game.task if game.phase == "task" and not game.is_over else None


def pick(game, rng: random.Random):
    """A random step: ``("move", move)``, ``("timeout", seat)`` or ``("window", None)``. Tile
    Decklaration is mostly played from a perfect memory so that its plays last; landmines are
    drawn, not listed."""
    movers = game.to_move()
    if not movers:
        return "window", None
    seat = rng.choice(movers)
    if rng.random() < 0.04:
        return "timeout", seat
    task = running_task(game)
    if task is not None and task.name == "tiles":
        move = tiles_step(task, seat, rng, remembers=lambda: rng.random() < 0.95)
        if move is not None:
            return "move", move
    moves = list(itertools.islice(game.legal_moves(seat), 3000))
    return "move", rng.choice(moves)


def alternative(game, move, rng: random.Random):
    """Another legal private submission of the same seat, or ``None``."""
    if isinstance(move, Mines):
        for _ in range(20):
            tiles = sorted(rng.sample(list(TILES), 5), key=lambda p: (p.col, p.row))
            other = Mines(move.seat, tuple(str(p) for p in tiles))
            if other != move:
                return other
        return None
    options = [m for m in itertools.islice(game.legal_moves(move.seat), 400) if m != move and game.is_private(m)]
    return rng.choice(options) if options else None


class Scan:
    """One match hosted through a real host and scanned after every step."""

    def __init__(self, store: Store, *, pictures: bool = False, twins: int = 25) -> None:
        self.store = store
        self.clock = FakeTime()
        self.transport = RecordingTransport()
        self.host = Host(store, self.transport, now=self.clock, pictures=pictures, heartbeat=0)
        self.pictures = pictures
        self.twins_left = twins
        self.match_id = 0
        self.grid_messages: set[int] = set()
        self.private_texts: set[str] = set()
        self.darkness: list[str] = []  # play texts of resolved Darkness rounds of the running task
        self.darkness_task: object | None = None
        self.dm_moves: list[tuple[str, str]] = []
        self.submissions: list[tuple[str, str, bool]] = []
        self.public_attempts: list[str] = []
        self.counts: Counter[str] = Counter()
        self.twin_rooms = itertools.count(ROOM + 1)

    @property
    def live(self):
        # Once the match is over the host lets go of it; the object last held has its final state.
        self._live = self.host.matches.get(self.match_id, getattr(self, "_live", None))
        return self._live

    @property
    def game(self):
        return self.live.game

    async def start(self, game: str, seed: int, options: dict[str, str]) -> None:
        players = [Player(s, USERS[s], NAMES[s]) for s in ("p1", "p2")]
        mark = len(self.transport.sent)
        reply = await self.host.start_match(
            game, players=players, seed=seed, options=options, clock="30s", channel_id=ROOM
        )
        assert reply.ok, reply.message
        self.match_id = reply.match_id
        self.check(mark, accepted=True)

    async def fire_due(self) -> None:
        for timer in await self.store.due_timers(datetime.fromtimestamp(self.clock.t, UTC)):
            await self.host.on_timer(timer)
            await self.store.delete_timer(timer.id)

    # ---- one step ------------------------------------------------------------------------

    async def step(self, rng: random.Random) -> None:
        kind, what = pick(self.game, rng)
        mark = len(self.transport.sent)
        if kind == "window":
            window = self.live.host.get("window")
            assert window, "nobody may move, yet no window runs"
            self.clock.t = max(self.clock.t, float(window["due"])) + 0.001
            await self.fire_due()
            self.counts["window"] += 1
        elif kind == "timeout":
            deadline = self.live.clock.deadline(what)
            if deadline is None:
                return
            self.clock.t = max(self.clock.t, deadline) + 0.001
            await self.fire_due()
            self.counts["timeout"] += 1
        else:
            await self.submit(what, rng)
            return
        self.check(mark, accepted=True)

    async def submit(self, move, rng: random.Random) -> None:
        game, seat, text = self.game, move.seat, move.text()
        if not game.is_private(move):
            mark = len(self.transport.sent)
            # As the bot does for a match it holds: the seat is known from the room and the user.
            reply = await self.host.submit(self.match_id, seat, text)
            assert reply.ok, (text, reply.message)
            self.submissions.append((seat, text, False))
            self.check(mark, accepted=True)
            return
        other = alternative(game, move, rng)
        if other is not None and rng.random() < 0.25:
            # Typed in the room by mistake: refused there with the game's reason, nothing changes.
            before = game.to_dict()
            mark = len(self.transport.sent)
            reply = await self.host.room_message(ROOM, USERS[seat], other.text())
            assert reply.status == "rejected" and "direct message" in reply.message, reply
            assert self.game.to_dict() == before
            self.public_attempts.append(other.text())
            self.counts["public attempt"] += 1
            self.check(mark, accepted=False)
        opponent = other_seat(seat)
        twin = None
        if other is not None and opponent in game.to_move() and self.twins_left > 0:
            twin = await self.make_twin()
        mark = len(self.transport.sent)
        reply = await self.host.private_message(USERS[seat], text)
        assert reply.ok, (text, reply.message)
        self.dm_moves.append((seat, text))
        self.submissions.append((seat, text, True))
        end = len(self.transport.sent)
        self.check(mark, accepted=True)
        if twin is not None:
            await self.compare_twin(twin, move, other, mark, end)

    # ---- the twin: the same match, another sealed submission ----------------------------------

    async def make_twin(self) -> int:
        live = self.live
        record = await self.store.create_match(
            game=live.game.name,
            seats=[SeatInfo(s, NAMES[s], None) for s in ("p1", "p2")],
            state=live.game.to_dict(),
            variant=live.game.variant,
            seed=live.game.seed,
            options=live.game.option_values,
            channel_id=next(self.twin_rooms),
            clock=live.clock.to_dict(),
            host=dict(live.host),
        )
        twin, _ = await self.host.cache.get(record.id)
        assert twin is not None
        # The twin has told each seat its own view already, as the match has.
        twin.private_views = json.loads(json.dumps(live.private_views))
        return record.id

    async def compare_twin(self, twin_id: int, move, other, mark: int, end: int) -> None:
        self.twins_left -= 1
        twin = self.host.matches[twin_id]
        opponent = other_seat(move.seat)
        reply = await self.host.submit(twin_id, move.seat, other.text(), private=True)
        assert reply.ok, reply.message
        done = len(self.transport.sent)
        if opponent in self.game.to_move() and opponent in twin.game.to_move():
            mine, theirs = self.transport.sent[mark:end], self.transport.sent[end:done]

            def told(sent, room, match_id):
                return [
                    (s.op, s.text.replace(f"#{match_id}", "#N"))
                    for s in sent
                    if (s.op in ("post", "picture") and s.room == room) or (s.op == "private" and s.to == opponent)
                ]

            assert told(mine, ROOM, self.match_id) == told(theirs, twin.room, twin_id), (move.text(), other.text())
            assert self.game.view(None) == twin.game.view(None)
            assert self.game.view(opponent) == twin.game.view(opponent)
            self.counts["sealed twin"] += 1
        await self.host.command(twin_id, "abort")
        assert twin_id not in self.host.matches  # an aborted match is let go of
        del self.transport.sent[end:]  # the twin's messages are not the match's

    # ---- the checks ------------------------------------------------------------------------

    def check(self, mark: int, *, accepted: bool) -> None:
        game = self.game
        new = self.transport.sent[mark:]
        room = [s for s in new if s.op in ("post", "picture") and s.room == ROOM]
        texts = [s.text for s in room]
        task = running_task(game)
        public = game.view(None)
        dumped = json.dumps(public)
        # Boards are the public view: a text board of view(None), or its picture.
        told = {s.text for s in new if s.op == "private" and len(s.text) >= 12} if accepted else set()
        for s in room:
            assert not any(secret in s.text for secret in self.private_texts | told), (
                f"a private text reached the room: {s.text!r}"
            )
        if self.pictures:
            pictures = [s for s in room if s.op == "picture"]
            if pictures:
                players = {seat: p.name or seat for seat, p in self.live.players.items()}
                expected = board.picture(
                    public,
                    players=players,
                    clocks=self.host.clocks(self.live, self.clock.t),
                    title=f"Match #{self.match_id}",
                )
                assert pictures[-1].png == expected
                self.counts["pictures"] += 1
        # The memory grid: shown during its window, gone once it has closed.
        if task is not None and task.name == "tiles":
            shown = grid_text(task.original)
            if task.phase == "memorize":
                # No notes: a DM would keep the grid after the window, so none may hold it.
                for s in new:
                    if s.op == "private":
                        assert shown not in s.text and '"grid": {"' not in s.text, "the grid went into a DM"
                for s in room:
                    # The board showing the grid, and the announcement that goes with it.
                    if (
                        s.op == "picture"
                        or shown in s.text
                        or '"grid": {"' in s.text
                        or _BOARD_ROW.search(s.text)
                        or s.text.startswith("Memorize the grid")
                    ):
                        self.grid_messages.add(s.message_id)
            else:
                gone = {s.message_id for s in self.transport.sent if s.op == "delete"}
                assert self.grid_messages <= gone, "a message showing the memory grid is still up"
                named = {d["tile"] for d in task.declared}
                secrets = [
                    f'"{p}": "{c}"'
                    for grid in (task.original, task.grid)
                    for p, c in grid.items()
                    if str(p) not in named and c != "black"
                ]
                rows = [line for line in shown.splitlines()[:-1] if line.strip()]
                for text in texts:
                    assert not any(secret in text for secret in secrets), "a hidden colour reached the room"
                    assert not any(row in text for row in rows), "a row of the hidden grid reached the room"
                assert not any(secret in dumped for secret in secrets)
                self.counts["hidden grid"] += 1
                exploded = {e["tile"] for e in task.exploded}
                for seat in ("p1", "p2"):
                    mines = [str(p) for p in task.mines.sealed_by(seat) or []]
                    if mines and not exploded & set(mines):
                        listing = " ".join(mines)
                        assert not any(listing in text for text in texts), "an unexploded mine reached the room"
                        assert listing not in dumped and public.get("task", public).get("mines") is None
                        self.counts["mines"] += 1
        deleted = {s.message_id for s in self.transport.sent if s.op == "delete"}
        assert deleted <= self.grid_messages, "a message that did not show the memory grid was deleted"
        # Darkness: the cards played stay hidden until the task is over.
        if task is not None and task.name == "decks" and task.has("darkness"):
            if self.darkness_task is not task.seed:
                self.darkness_task, self.darkness = task.seed, []
            for entry in task.history[len(self.darkness) // 2 :]:
                for seat in ("p1", "p2"):
                    cards = entry["plays"][seat]["cards"]
                    self.darkness.append("play " + " ".join(map(str, cards)) if cards else "play none")
            for play in set(self.darkness) - PROMPT_EXAMPLES:
                said = re.compile(rf"(?<![\w-]){re.escape(play)}(?![\w-])")
                assert not any(said.search(text) for text in texts), f"a Darkness play ({play}) reached the room"
            self.counts["darkness"] += bool(self.darkness)
        elif task is None or task.name != "decks":
            self.darkness_task, self.darkness = None, []
        # What was told in private is never repeated to the room.
        self.private_texts |= told

    async def finish(self) -> None:
        """The public log, then the exported record of the finished match."""
        assert self.game.is_over
        actions = await self.store.actions(self.match_id)
        # Every submission is logged as it came: a DM as private, a room message as public.
        logged = [(a.seat, a.text, a.private) for a in actions if a.accepted and a.kind in ("move", "private")]
        assert logged == self.submissions
        refused = [a.text for a in actions if not a.accepted and not a.private and a.kind not in ("start", "command")]
        assert sorted(refused) == sorted(self.public_attempts)  # what the room itself saw typed
        record = await export_record(self.store, self.match_id)
        for seat, text in self.dm_moves:
            assert f"{seat} (dm): {text}" in record


async def run(
    store: Store,
    game: str,
    seed: int,
    options: dict[str, str],
    *,
    pictures: bool = False,
    steps: int = 4000,
    until_play: int | None = None,
) -> Scan:
    """Host one match and scan it to its end (or, for a final match, until play ``until_play`` opens)."""
    rng = random.Random(f"scan:{game}:{seed}")
    scan = Scan(store, pictures=pictures)
    await scan.start(game, seed, options)
    for _ in range(steps):
        if scan.game.is_over or (until_play is not None and scan.game.play_no >= until_play):
            break
        await scan.step(rng)
    if until_play is None:
        await scan.finish()
    return scan


def random_anomalies(task: str, rng: random.Random) -> str:
    names = TASK_ANOMALIES[task]
    return ",".join(rng.sample(names, rng.randint(1, 3)))


# ---- the tasks alone -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("task", ["tiles", "decks", "swabbing"])
async def test_a_task_hosted_alone_never_shows_the_room_a_hidden_value(sqlite_db_url, task):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        totals: Counter[str] = Counter()
        for seed in range(3 if task == "tiles" else 2):
            rng = random.Random(f"anomalies:{task}:{seed}")
            anomalies = random_anomalies(task, rng)
            if seed < 2:
                # Each task's secret-keeping anomaly, with others.
                kept = {"tiles": "landmine", "decks": "darkness", "swabbing": "snipe"}[task]
                anomalies = ",".join(sorted({kept, *anomalies.split(",")}))
            scan = await run(store, task, seed, {"anomalies": anomalies, "starter": rng.choice(["p1", "p2"])})
            totals.update(scan.counts)
        wanted = {
            "tiles": ["hidden grid", "mines", "sealed twin"],
            "decks": ["darkness", "sealed twin"],
            "swabbing": ["sealed twin"],
        }[task]
        assert all(totals[key] > 0 for key in wanted + ["public attempt"]), totals
    finally:
        await store.close()


# ---- the final match -------------------------------------------------------------------------

ITEMS = ["", "p1 all-in; p2 all-in", "p1 all-in override; p2 all-in override clock", "p1 override clock; p2 all-in"]


@pytest.mark.slow
async def test_a_whole_final_match_never_shows_the_room_a_hidden_value(sqlite_db_url):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        scan = await run(store, "allhands", 0, {"items": ITEMS[1], "first": "p2"})
        result = scan.game.view(None)["result"]
        assert result["reason"] in ("target", "resign")
        assert all(
            scan.counts[key] > 0
            for key in ("hidden grid", "mines", "darkness", "sealed twin", "public attempt", "timeout")
        ), scan.counts
        plays = scan.game.view(None)["plays"]
        assert any(p["bans"] for p in plays)
    finally:
        await store.close()


@pytest.mark.slow
async def test_the_pictures_of_a_final_match_are_the_public_view(sqlite_db_url):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        # The first four plays: a grid, cards, a swabbing, and a grid again after the bans.
        scan = await run(store, "allhands", 7, {"items": ITEMS[2], "first": "p2"}, pictures=True, until_play=5)
        assert scan.game.play_no == 5 and scan.counts["hidden grid"] > 0
        assert scan.counts["pictures"] > 20, scan.counts
    finally:
        await store.close()


# ---- the scan itself fails on a leak ----------------------------------------------------------


class Blabbing(RecordingTransport):
    """A transport that also posts every private message in the room (a broken host would)."""

    async def send_private(self, player: Player, text: str) -> int | None:
        await self.post(ROOM, text)
        return await super().send_private(player, text)


def forgetful(host: Host) -> Host:
    """A host that never deletes anything: its timed messages are posted, their deletions never kept."""

    async def post_timed(live, delete_at: float, send, **kwargs) -> int | None:
        return await send("forgotten")  # posted, its deletion never kept

    host.posted.post_timed = post_timed  # the part the announcer posts its timed messages through
    return host


def tidy(host: Host) -> Host:
    """A host that deletes every board it posts after 30 s."""
    show_board = host.announcer.show_board

    async def shown(live, now: float, **options) -> None:
        mark = len(host.transport.sent)
        await show_board(live, now, **options)
        for sent in host.transport.sent[mark:]:
            if sent.op in ("post", "picture") and sent.room == ROOM:
                intent = await host.store.add_message(ROOM, None, "timed", match_id=live.id, delete_at=utc(now + 30))
                await host.store.fill_message(intent.id, sent.message_id, timer_kind=DELETE_TIMER)

    host.announcer.show_board = shown
    return host


@pytest.mark.parametrize("broken", ["blabbing", "forgetful", "tidy"])
async def test_the_scan_fails_on_a_leak(sqlite_db_url, broken):
    store = await Store.open(sqlite_db_url, migrate=False)
    try:
        scan = Scan(store)
        if broken == "blabbing":
            scan.transport = Blabbing()
        breaking = {"forgetful": forgetful, "tidy": tidy}.get(broken, lambda host: host)
        scan.host = breaking(Host(store, scan.transport, now=scan.clock, pictures=False, heartbeat=0))
        rng = random.Random("leak")
        why = {
            "blabbing": "a private text reached the room",
            "forgetful": "showing the memory grid is still up",
            "tidy": "did not show the memory grid was deleted",
        }[broken]
        with pytest.raises(AssertionError, match=why):
            await scan.start("tiles", 3, {"anomalies": "landmine"})
            for _ in range(200):
                if scan.game.is_over:
                    break
                await scan.step(rng)
            await scan.finish()
    finally:
        await store.close()
