"""A bank of every kind of question, and the steps of answering its typed ones."""

from __future__ import annotations

from functools import partial

from fakebot import FakeTelegram, StoredMessage, User

BUTTONS = """\
  - id: primes
    question: {bn: কোনগুলো মৌলিক?, en: Which are prime?}
    options:
      - {bn: "২", en: "2"}
      - {bn: "৪", en: "4"}
      - {bn: "৩", en: "3"}
      - {bn: "৬", en: "6"}
    correct: [1, 3]
  - id: sky
    type: truefalse
    question: {bn: আকাশ সবুজ।, en: The sky is green.}
    correct: false
"""
"""The two questions answered with buttons: several right answers, then true/false."""

TYPED = """\
  - id: pi
    type: numeric
    question: {bn: পাই কত?, en: Pi to two places?}
    answers:
      - {answer: 3.14, tolerance: 0.01, feedback: {bn: ঠিক, en: "Yes, that is pi."}}
    wrong_feedback: {bn: পাই প্রায় ৩.১৪।, en: Pi is about 3.14.}
  - id: gravity
    type: numeric
    question: {bn: g কত?, en: g in m/s²?}
    answers: [{answer: 9.8, tolerance: 0.1}]
    units: [m/s²]
    wrong_feedback: {bn: g প্রায় ৯.৮।, en: g is about 9.8.}
  - id: organ
    type: short
    question: {bn: বৃহত্তম অঙ্গ?, en: The largest organ?}
    answers:
      - {answer: Skin, feedback: {bn: ঠিক, en: The skin it is.}}
  - id: year
    type: short
    question: {bn: স্বাধীনতার বছর?, en: The year of independence?}
    answers: ["1971"]
"""
"""Four typed questions: two numbers (one with a unit), two short answers."""


# eight numeric questions, in order: what is i + i? (a private chat's typed answers, one by one)
NUMBERS = """\
title: {bn: সংখ্যা, en: Numbers}
language: en
settings: {shuffle: false, seconds: 300}
questions:
""" + "".join(
    f"""  - id: n{i}
    type: numeric
    question: {{bn: "{i} + {i}?", en: "What is {i} + {i}?"}}
    answers: [{{answer: {2 * i}}}]
"""
    for i in range(1, 9)
)


def bank(seconds: int = 300) -> str:
    """The bank "kinds": the button questions, then the typed ones; ``seconds`` a question."""
    head = "title:\n  bn: ধরন\n  en: Kinds\nlanguage: en\n"
    settings = f"settings:\n  shuffle: false\n  seconds: {seconds}\n"
    return head + settings + "questions:\n" + BUTTONS + TYPED


BANK = bank()


async def asked(tg: FakeTelegram, user: User, head: str) -> StoredMessage:
    """The bot's message in the private chat that starts with ``head``."""
    return await tg.wait_for(
        lambda: next((m for m in tg.messages(user.id) if m.text.startswith(head)), None),
        what=head,
    )


async def types(tg: FakeTelegram, user: User, text: str, question: StoredMessage) -> str:
    """``user`` types ``text`` while ``question`` waits; its text once answered (edited)."""
    tg.user_says(tg.private_chat(user), user, text)
    done = await tg.wait_for(
        partial(answered, tg, user.id, question.message_id), what=f"the answer {text!r}"
    )
    return done.text


def answered(tg: FakeTelegram, chat_id: int, message_id: int) -> StoredMessage | None:
    """The question's message once a typed answer closed it."""
    message = tg.stored_message(chat_id, message_id)
    return message if message is not None and "Your answer" in message.text else None
