"""Who may use a command or press a button, and where: the one check the registry runs, from
each entry's ``who`` and ``where``, before any handler.

Run ids and homework ids are small sequential numbers shown in every button, so an id alone
is never enough: a button's data names what it belongs to (``belongs_to``, see
``bot.tg.callbackdata``) and the rule of its entry says who may press it there. A private chat
is one user's: a button pressed there by anyone else is refused whatever its rule. Refusals are
message keys: a command's is replied, a button's is its polite alert.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from telegram import Chat, Message, Update

from bot.routing.routes import Where, Who
from bot.services.container import Caller, Services
from bot.tg.callbackdata import CallbackData

INVALID = "alert_invalid"  # the alert of a button this user may not press here
#: the kinds of user a command may be limited to (the others need a button's data)
COMMAND_WHO: frozenset[Who] = frozenset({"anyone", "moderator", "admin"})
#: what a button must belong to for each kind of user (no entry: any button)
NEEDS: dict[Who, frozenset[str]] = {
    "participant": frozenset({"chat", "run", "attempt", "answers", "card"}),
    "moderator": frozenset({"chat", "run_group"}),
    "author": frozenset({"quiz"}),
    "setter": frozenset({"link"}),
}


@runtime_checkable
class _OfRun(Protocol):
    run_id: int


@runtime_checkable
class _OfCard(Protocol):
    card_id: int


@runtime_checkable
class _OfQuiz(Protocol):
    quiz_id: str


@runtime_checkable
class _OfUser(Protocol):
    user_id: int


def place_refusal(
    where: Where, caller: Caller, message: Message | None, *, tap: bool
) -> str | None:
    """Why this chat is not the place (a key), or None. ``tap``: a button, whose refusal is
    the "no longer valid" alert, and whose private chat must be the tapping user's own."""
    private = caller.private
    if tap and private and caller.chat.id != caller.user.id:
        return INVALID
    topic = message is not None and message.is_topic_message is True
    wrong = (
        (where == "group" and private)
        or (where == "private" and not private)
        or (where == "topic" and not topic)
    )
    if not wrong:
        return None
    if tap:
        return INVALID
    return "group_only" if private else "private_only" if where == "private" else "topic_only"


async def command_refusal(update: Update, svc: Services, caller: Caller, who: Who) -> str | None:
    """Why this sender may not use a command (``who``) in this chat, as a key, or None. A
    moderator's command in private is anyone's (their own chat); an anonymous administrator
    writing as the group is a moderator."""
    if who == "moderator" and not caller.private:
        message = update.effective_message
        sender = message.sender_chat.id if message is not None and message.sender_chat else None
        if not await svc.moderators.may_moderate(caller.chat, caller.user.id, sender):
            return "not_moderator"
    if who == "admin" and caller.user.id not in svc.settings.admin_ids:
        return "not_admin"
    return None


async def button_refusal(
    svc: Services, caller: Caller, who: tuple[Who, ...], data: CallbackData
) -> str | None:
    """Why this user may not press this button here (a key), or None: allowed when any of the
    kinds ``who`` admits them; else the first kind's refusal."""
    first: str | None = None
    for kind in who:
        refused = await _refusal(svc, caller, kind, data)
        if refused is None:
            return None
        first = first or refused
    return first


async def _refusal(svc: Services, caller: Caller, who: Who, data: CallbackData) -> str | None:
    chat, user_id = caller.chat, caller.user.id
    if who == "anyone":
        return None
    if who == "admin":
        return None if user_id in svc.settings.admin_ids else "not_admin"
    if who == "moderator":
        return await _moderator(svc, caller, data)
    if who == "participant":
        return await _participant(svc, caller, data)
    if who == "author":
        row = svc.authored.row(data.quiz_id) if isinstance(data, _OfQuiz) else None
        return None if row is not None and row.author_id == user_id else INVALID
    # the homework setter: the moderator the link's button was made for, a moderator here
    if not isinstance(data, _OfUser) or data.user_id != user_id:
        return "hw_duration_not_yours"
    return None if await svc.moderators.may_moderate(chat, user_id) else "alert_mod_only"


async def _moderator(svc: Services, caller: Caller, data: CallbackData) -> str | None:
    """A moderator of the group the button belongs to: the chat it is in, or the group of the
    run it names (a teacher's private chat). A private chat has no group: its own user's."""
    group = caller.chat
    if data.belongs_to == "run_group":
        run = await svc.store.get_run(data.run_id) if isinstance(data, _OfRun) else None
        if run is None or run.chat_id >= 0:
            return INVALID
        group = Chat(run.chat_id, Chat.SUPERGROUP)
    elif caller.private:
        return None
    if not await svc.moderators.may_moderate(group, caller.user.id):
        return "alert_mod_only"
    return None


async def _participant(svc: Services, caller: Caller, data: CallbackData) -> str | None:
    """A student of what the button belongs to. A run played here: in a group, the live run
    of this group (read in memory: the answers' hot path), in private this chat's practice;
    the tapping student's own attempt or review card; a run they answered in. A button of the
    chat itself: anyone in it (a group's members see its messages)."""
    belongs, user_id = data.belongs_to, caller.user.id
    if belongs == "card":
        card = await svc.store.card(data.card_id) if isinstance(data, _OfCard) else None
        return None if card is None or card.user_id == user_id else INVALID
    # the run's id read as an attribute, not by a Protocol isinstance check: this is every
    # group tap's path, and a runtime Protocol check costs tens of microseconds a tap
    run_id = getattr(data, "run_id", None)
    if belongs == "chat" or not isinstance(run_id, int):
        return None if belongs == "chat" else INVALID
    if belongs == "attempt":
        attempt = svc.attempts.get(run_id)
        return None if attempt is None or attempt.user_id == user_id else INVALID
    if belongs == "answers":
        return None if await svc.store.took_part(run_id, user_id) else INVALID
    if not caller.private:
        live = svc.groups.by_id(run_id)
        return None if live is None or live.chat_id == caller.chat.id else INVALID
    run = await svc.store.get_run(run_id)
    ours = run is None or (run.mode == "practice" and run.chat_id == caller.chat.id)
    return None if ours else INVALID
