"""Who reads which language: a channel has one for its public messages and pictures, and
each person one for what only they see (refusals, hints, their hidden hand).

A channel's language is the one `/lang` chose, else the one the first command in it came
with, else the host's (`--language`, English unless set). A person's language is the one
their latest event came with (Discord's interaction locale, Telegram's `language_code`),
else their channel's. Both are settings in the store, so a restart keeps them: the hand a
bot's move sends someone after a restart is still in their language.
"""

from __future__ import annotations

from bot.i18n import LANGUAGES, Translator, language_of, translator
from bot.model import Event
from bot.storage import Storage

CHANNEL_KEY = "language"  # a channel setting
PERSON_KEY = "person.language"  # a setting under a person's user id
# Names of the languages people type after /lang besides their codes.
NAMES = {"中文": "zh", "汉语": "zh", "简体": "zh", "chinese": "zh", "english": "en", "英文": "en", "英语": "en"}


def read_language(word: str) -> str | None:
    """The language a person means by `word` after /lang ("zh", "zh-CN", "中文", "English")."""
    return NAMES.get(word.strip().lower()) or language_of(word)


class Languages:
    def __init__(self, store: Storage, default: str) -> None:
        self.store = store
        self.default = translator(default)
        self._people: dict[str, str | None] = {}  # user id -> language, as last seen or stored

    def spoken(self, event: Event) -> Translator:
        """The translator of `event`'s locale if it names one of ours, else the default: no store."""
        spoken = language_of(event.locale)
        return translator(spoken) if spoken is not None else self.default

    async def channel(self, channel: str) -> Translator:
        """The translator of `channel`'s public messages."""
        saved = await self.store.setting(channel, CHANNEL_KEY)
        return translator(saved) if saved in LANGUAGES else self.default

    async def arrived(self, event: Event, saved: str | None) -> tuple[Translator, Translator]:
        """The translators of a command's channel and of the person who sent it, `saved` the
        channel's language setting (read with the channel's session: no read of its own). The
        first command that comes with a locale gives a channel without a language its language."""
        spoken = language_of(event.locale)
        if saved not in LANGUAGES:
            saved = spoken
            if spoken is not None:
                await self.store.set_setting(event.channel, CHANNEL_KEY, spoken)
        channel = translator(saved) if saved is not None else self.default
        if spoken is None:
            return channel, await self.person(event.user.id, channel)
        if self._people.get(event.user.id) != spoken:
            self._people[event.user.id] = spoken
            await self.store.set_setting(event.user.id, PERSON_KEY, spoken)
        return channel, translator(spoken)

    async def reader(self, user_id: str, locale: str | None, channel: str | None) -> Translator:
        """The translator of what only `user_id` sees: `locale`'s when it names one of ours, else
        the one they last came with, else `channel`'s (else the default)."""
        if (spoken := language_of(locale)) is not None:
            return translator(spoken)
        return await self.person(user_id, await self.channel(channel) if channel is not None else self.default)

    async def person(self, user_id: str | None, channel: Translator) -> Translator:
        """The translator of what only `user_id` sees; `channel`'s when their language is unknown."""
        if user_id is None:
            return channel
        if user_id not in self._people:
            saved = await self.store.setting(user_id, PERSON_KEY)
            self._people[user_id] = saved if saved in LANGUAGES else None
        language = self._people[user_id]
        return translator(language) if language is not None else channel

    async def choose(self, channel: str, language: str) -> Translator:
        """`/lang`: `channel`'s public messages and pictures in `language` from now on."""
        await self.store.set_setting(channel, CHANNEL_KEY, language)
        return translator(language)
