"""The Discord adapter: slash commands and buttons in, the host's replies out (see bot.py)."""

from bot.adapters.discord.bot import DiscordBot, use_endpoints

__all__ = ["DiscordBot", "use_endpoints"]
