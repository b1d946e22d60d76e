"""The moderator cache (bot.tg.moderators): one administrator lookup per burst, a quick recheck
for someone not found, a refetch when the cache is old, and a cache that survives a failure."""

from __future__ import annotations

from typing import cast

from clockkit import ManualClock
from telegram import Bot, Chat, ChatMemberAdministrator, ChatMemberOwner, User
from telegram.constants import ChatID
from telegram.error import NetworkError

from bot.tg.moderators import Moderators

GROUP = Chat(-100, Chat.SUPERGROUP)
OWNER, ADMIN, STUDENT, NEWCOMER, OPERATOR = 1, 2, 3, 4, 99


def user(uid: int) -> User:
    return User(uid, f"u{uid}", is_bot=False)


def admin(uid: int) -> ChatMemberAdministrator:
    return ChatMemberAdministrator(
        user(uid),
        can_be_edited=False,
        is_anonymous=False,
        can_manage_chat=True,
        can_delete_messages=False,
        can_manage_video_chats=False,
        can_restrict_members=False,
        can_promote_members=False,
        can_change_info=False,
        can_invite_users=False,
        can_post_stories=False,
        can_edit_stories=False,
        can_delete_stories=False,
    )


class Lookups:
    """Stands in for the Bot: answers getChatAdministrators and counts the calls."""

    def __init__(self) -> None:
        self.admins = [OWNER, ADMIN]
        self.calls = 0
        self.fail = False

    async def get_chat_administrators(self, chat_id: int) -> tuple[object, ...]:
        assert chat_id == GROUP.id
        self.calls += 1
        if self.fail:
            raise NetworkError("down")
        return tuple(
            ChatMemberOwner(user(uid), is_anonymous=False) if uid == OWNER else admin(uid)
            for uid in self.admins
        )


def moderators() -> tuple[Moderators, Lookups, ManualClock]:
    lookups, clock = Lookups(), ManualClock(0.0)
    mods = Moderators(
        cast(Bot, lookups), frozenset({OPERATOR}), ttl=600.0, recheck=60.0, clock=clock
    )
    return mods, lookups, clock


async def test_a_burst_costs_one_lookup() -> None:
    mods, lookups, clock = moderators()
    for _ in range(5):
        assert await mods.may_moderate(GROUP, OWNER)
        assert await mods.may_moderate(GROUP, ADMIN)
    assert lookups.calls == 1
    clock.advance(599)
    assert await mods.may_moderate(GROUP, ADMIN)
    assert lookups.calls == 1
    clock.advance(1)  # older than ttl: looked up again
    assert await mods.may_moderate(GROUP, ADMIN)
    assert lookups.calls == 2


async def test_someone_not_found_is_rechecked_only_after_a_while() -> None:
    mods, lookups, clock = moderators()
    assert not await mods.may_moderate(GROUP, STUDENT)
    assert lookups.calls == 1
    assert not await mods.may_moderate(GROUP, NEWCOMER)  # fresh: no new lookup
    assert lookups.calls == 1
    lookups.admins.append(NEWCOMER)  # promoted
    clock.advance(60)
    assert await mods.may_moderate(GROUP, NEWCOMER)  # recognised at the recheck
    assert lookups.calls == 2
    assert await mods.may_moderate(GROUP, NEWCOMER)
    assert lookups.calls == 2


async def test_forget_drops_the_cache() -> None:
    mods, lookups, _ = moderators()
    assert await mods.may_moderate(GROUP, ADMIN)
    lookups.admins.remove(ADMIN)
    mods.forget(GROUP.id)
    assert not await mods.may_moderate(GROUP, ADMIN)
    assert lookups.calls == 2


async def test_a_failed_lookup_keeps_the_old_list() -> None:
    mods, lookups, clock = moderators()
    assert await mods.may_moderate(GROUP, ADMIN)
    lookups.fail = True
    clock.advance(700)
    assert await mods.may_moderate(GROUP, ADMIN)  # stale, but better than nobody
    assert not await mods.may_moderate(GROUP, STUDENT)
    assert lookups.calls == 3


async def test_who_needs_no_lookup() -> None:
    mods, lookups, _ = moderators()
    assert await mods.may_moderate(GROUP, OPERATOR)  # QUIZBOT_ADMIN_IDS
    assert await mods.may_moderate(Chat(STUDENT, Chat.PRIVATE), STUDENT)
    assert await mods.may_moderate(GROUP, None, sender_chat_id=GROUP.id)  # anonymous admin
    assert not await mods.may_moderate(GROUP, ChatID.ANONYMOUS_ADMIN)
    assert not await mods.may_moderate(GROUP, None)
    assert lookups.calls == 0
