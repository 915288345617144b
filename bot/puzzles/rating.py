"""A puzzle attempt as a rated game: the player against the puzzle, openskill's model as the ladders use it."""

from __future__ import annotations

from bot.rating_model import MODEL, Skill


def rate(player: Skill, puzzle: Skill, solved: bool) -> tuple[Skill, Skill]:
    """The player's and the puzzle's ratings after an attempt: solving it is a win against it."""
    ranks: list[float] = [1, 2] if solved else [2, 1]
    (p,), (q,) = MODEL.rate([[MODEL.create_rating([player.mu, player.sigma])],
                             [MODEL.create_rating([puzzle.mu, puzzle.sigma])]], ranks=ranks)
    return Skill(p.mu, p.sigma), Skill(q.mu, q.sigma)
