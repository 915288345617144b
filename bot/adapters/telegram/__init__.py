"""The Telegram adapter (python-telegram-bot): see adapter.py."""

from bot.adapters.telegram.adapter import Telegram, TelegramOptions, build_application

__all__ = ["Telegram", "TelegramOptions", "build_application"]
