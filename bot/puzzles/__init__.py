"""Puzzles from real play, checked by the engines: `/puzzle` (the command is `bot.puzzles.command`),
the shipped puzzles (`data/`, made by `bench.puzzles`) and how they are rated (`rating`)."""
