"""Ratings: openskill's Weng-Lin Plackett-Luce model, per game, fair to unequal sides and
guarded against farming. Pure: games in, ratings out; the store keeps them (`bot.rating_store`).

- Every game is a ranking of seats (equal ranks tie; all equal is a draw): 1 vs 1 (Nim,
  Gomoku) and free-for-all by finishing place (Chinese Checkers, 2 to 6 seats) alike.
- Games whose seats play unequal parts (`Game.roles`: Dou Dizhu's landlord against two
  farmers) are rated side against side. Openskill adds the means of a team's members, so
  two farmers would count double against one landlord; here each side is its members'
  average, and each role is a rated player of its own on its side (`role:landlord`,
  `role:farmer`), which learns from every game how much easier one part is than the
  other. Equally strong players then keep equal ratings whatever parts they are dealt
  (`tests/bot/test_ddz_fairness.py` simulates it). A side whose members did not share a
  rank (a farmer resigned: only they lose) is rated seat by seat instead.
- Each AI level is a player (`ai:<level>`); a player who fills several seats (five `easy`
  bots) is rated once, by the mean of what each of its seats would have got.
- Farming: a game whose winner was already at least a `FAVOURITE` to beat everyone else
  changes nobody's rating (a foregone result says nothing, an upset counts in full), so
  beating a much weaker player (`easy`) forever cannot lift a rating past the point where
  it predicts those wins; and the n-th game within `WINDOW` between the same people counts
  1/n, so the same pair cannot pump each other up in an evening.
- Help: ratings measure unaided play. A player who asked for a hint or took a move back
  (`Entry.aided`) keeps their rating. The others' results count where they were not made by
  help: between two sides (a seat, or Dou Dizhu's landlord and farmers), the result counts
  only if the side that finished ahead played unaided. So beating a helped player counts (it
  was a stronger opponent than their rating says), losing to one does not, a draw with one
  does not, and a farmer whose partner had help counts a loss but not a win. Each side is
  rated as in the game of itself and the sides its result counts against (nothing if none);
  the roles do not move in such a game (the help says nothing about the parts).
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
FAVOURITE = 0.95  # a win predicted this surely changes nothing
WINDOW = 24 * 3600.0  # seconds in which repeated games between the same people count less
AI, ROLE = "ai:", "role:"
ROLE_SIGMA = 2.0  # a role's edge is believed modest at first: it should not soak up the players' share
Z = 3.0  # the conservative rating is mu - Z sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative rating: the skill is 99.7 % likely to be above it (0 for a newcomer)."""
        return self.mu - Z * self.sigma


def fresh(player: str) -> Skill:
    return Skill(0.0, ROLE_SIGMA) if player.startswith(ROLE) else Skill()


@dataclass(frozen=True)
class Entry:
    """One seat of a finished game: who played it (an identity, or `ai:<level>`), their rank."""

    player: str
    rank: int
    role: str | None = None
    aided: bool = False  # the player had help in this game (a hint, a move taken back)


@dataclass(frozen=True)
class Played:
    session: int
    game: str
    at: float
    entries: tuple[Entry, ...]

    @property
    def key(self) -> str:
        """Who played, whatever the seats: the same key means the same people again."""
        return " ".join(sorted({e.player for e in self.entries}))

    @property
    def players(self) -> list[str]:
        """The players whose ratings this game may change: the seats' players and the roles."""
        found = dict.fromkeys(e.player for e in self.entries)
        if _sides(self.entries):
            found.update(dict.fromkeys(ROLE + (e.role or "") for e in self.entries))
        return list(found)


@dataclass(frozen=True)
class Rated:
    weight: float  # 0: the game changed nothing (foregone, or one player alone)
    before: dict[str, Skill]
    after: dict[str, Skill]


def rate(played: Played, skills: Mapping[str, Skill], recent: int = 0) -> Rated:
    """The ratings after `played`, from `skills` before it (missing players are new); `recent`:
    how many rated games the same people played in the `WINDOW` before this one."""
    before = {p: skills.get(p) or fresh(p) for p in played.players}
    entries = played.entries
    helped = {e.player for e in entries if e.aided}
    found = _unaided(entries, before, helped) if helped else _outcome(entries, before)
    if not found:
        return Rated(0.0, before, dict(before))
    weight = 1.0 / (1 + recent)
    moved: dict[str, list[Skill]] = defaultdict(list)
    for who, skill in found:
        moved[who if isinstance(who, str) else entries[who].player].append(skill)
    after = dict(before)
    for player, results in moved.items():
        old = before[player]
        mu = sum(s.mu for s in results) / len(results)
        sigma = sum(s.sigma for s in results) / len(results)
        after[player] = Skill(old.mu + weight * (mu - old.mu), old.sigma + weight * (sigma - old.sigma))
    return Rated(weight, before, after)


Seated = list[tuple[int | str, Skill]]  # (a seat: its entry's index, or a role's player; where the model moved it)


def _outcome(entries: Sequence[Entry], before: Mapping[str, Skill]) -> Seated:
    """Where the model moves each seat (and each role) after a game of `entries`, in the model's
    order; nothing when the game teaches nothing (one player alone, or a foregone result)."""
    if len({e.player for e in entries}) < 2:
        return []
    teams, ranks, members = _teams(entries, before, _sides(entries))
    if _foregone(teams, ranks):
        return []
    rated = MODEL.rate([[MODEL.rating(s.mu, s.sigma) for s in team] for team in teams], ranks=ranks)
    found: Seated = []
    for team, new_team, who in zip(teams, rated, members, strict=True):
        for old, new, member in zip(team, new_team, who, strict=True):
            if isinstance(member, tuple):  # a side's average: each member moves as it did
                for i in member:
                    own = before[entries[i].player]
                    found.append((i, Skill(own.mu + new.mu - old.mu, own.sigma * new.sigma / old.sigma)))
            else:
                found.append((member, Skill(new.mu, new.sigma)))
    return found


def _unaided(entries: Sequence[Entry], before: Mapping[str, Skill], helped: set[str]) -> Seated:
    """A game in which the `helped` players had help: they do not move; each other side moves as
    in the game of the sides its result against counts (see the module's docstring), the roles not at all."""
    sides = _sides(entries)
    groups = list(sides.values()) if sides else [[i] for i in range(len(entries))]
    ranks = [entries[g[0]].rank for g in groups]
    aided = [any(entries[i].player in helped for i in g) for g in groups]
    found: Seated = []
    for n, group in enumerate(groups):
        ahead = [n if ranks[n] < rank else m for m, rank in enumerate(ranks)]  # of each pair with n
        fair = [m for m, rank in enumerate(ranks) if m == n or (rank != ranks[n] and not aided[ahead[m]])]
        seats = [i for m in fair for i in groups[m]]
        for who, skill in _outcome([entries[i] for i in seats], before) if len(fair) > 1 else []:
            if isinstance(who, int) and seats[who] in group and entries[seats[who]].player not in helped:
                found.append((seats[who], skill))
    return found


def _sides(entries: Sequence[Entry]) -> dict[str, list[int]] | None:
    """The seats (entries' indices) by role, when the game gave roles and each side shares its
    rank; else None."""
    if any(e.role is None for e in entries):
        return None
    sides: dict[str, list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        sides[e.role or ""].append(i)
    if len(sides) < 2 or any(len({entries[i].rank for i in side}) > 1 for side in sides.values()):
        return None
    return sides


Member = int | str | tuple[int, ...]  # a seat, a role's player, or a side's seats rated as their average


Teams = tuple[list[list[Skill]], list[float], list[list[Member]]]


def _teams(entries: Sequence[Entry], skills: Mapping[str, Skill], sides: dict[str, list[int]] | None) -> Teams:
    """openskill's teams, their ranks, and who each team member stands for."""
    if sides is None:
        return [[skills[e.player]] for e in entries], [e.rank for e in entries], [[i] for i in range(len(entries))]
    teams: list[list[Skill]] = []
    ranks: list[float] = []
    members: list[list[Member]] = []
    for role, side in sides.items():
        names = [entries[i].player for i in side]
        mu = sum(skills[p].mu for p in names) / len(names)
        sigma = math.sqrt(sum(skills[p].sigma ** 2 for p in names) / len(names))
        teams.append([Skill(mu, sigma), skills[ROLE + role]])
        ranks.append(entries[side[0]].rank)
        members.append([tuple(side), ROLE + role])
    return teams, ranks, members


def _foregone(teams: list[list[Skill]], ranks: list[float]) -> bool:
    """Whether the winners were at least `FAVOURITE`s to beat each of the others (a draw never is)."""
    best = min(ranks)
    if all(r == best for r in ranks):
        return False
    winners = [t for t, r in zip(teams, ranks, strict=True) if r == best]
    others = [t for t, r in zip(teams, ranks, strict=True) if r != best]
    return all(chance(w, o) >= FAVOURITE for w in winners for o in others)


def chance(team: Sequence[Skill], other: Sequence[Skill]) -> float:
    """The probability that `team` beats `other`, as the model predicts it."""
    a = [MODEL.rating(s.mu, s.sigma) for s in team]
    b = [MODEL.rating(s.mu, s.sigma) for s in other]
    return MODEL.predict_win([a, b])[0]


@dataclass
class Ladder:
    """Every game's ratings, built by rating games one after another (a rebuild from the results)."""

    skills: dict[tuple[str, str], Skill] = field(default_factory=dict)  # (game, player) -> skill
    _recent: dict[tuple[str, str], deque[float]] = field(default_factory=lambda: defaultdict(deque))

    def play(self, played: Played) -> Rated:
        times = self._recent[(played.game, played.key)]
        while times and times[0] <= played.at - WINDOW:
            times.popleft()
        mine = {p: s for p in played.players if (s := self.skills.get((played.game, p))) is not None}
        rated = rate(played, mine, len(times))
        if rated.weight > 0:
            times.append(played.at)
            for player, skill in rated.after.items():
                self.skills[(played.game, player)] = skill
        return rated

    def replay(self, games: Iterable[Played]) -> list[tuple[Played, Rated]]:
        return [(g, self.play(g)) for g in games]
