"""Inline keyboards: their labels and their callback data (``bot.render.callbacks``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.helpers import create_deep_linked_url

from bot.banks.resolver import Choice, Listed
from bot.core.bank import Question, Quiz
from bot.i18n import t_plain
from bot.i18n.lang import Lang
from bot.render import callbacks
from bot.render.text import fit, isolated, label

BUTTON_LABEL = 60  # characters of a quiz title on a start button


def answer_keyboard(
    run_id: int,
    q_index: int,
    options: int,
    *,
    submit: str | None = None,
    names: Sequence[str] | None = None,
) -> InlineKeyboardMarkup:
    """One button per label (or per name in ``names``: true/false); up to five in a row; with
    ``submit``, a last row with that Submit button (several right answers)."""
    buttons = [
        InlineKeyboardButton(
            names[i] if names is not None else label(i),
            callback_data=callbacks.encode(callbacks.AnswerData(run_id, q_index, i)),
        )
        for i in range(options)
    ]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    if submit is not None:
        data = callbacks.encode(callbacks.AnswerData(run_id, q_index, callbacks.SUBMIT))
        rows.append([InlineKeyboardButton(submit, callback_data=data)])
    return InlineKeyboardMarkup(rows)


def question_keyboard(
    run_id: int, q_index: int, question: Question, lang: Lang
) -> InlineKeyboardMarkup:
    """A question's answer buttons by its kind: a label per option (and ✔ Submit when several
    are right), or true/false in the chat's language."""
    count = len(question.options)
    if question.kind == "truefalse":
        return answer_keyboard(run_id, q_index, count, names=tf_names(lang))
    if question.kind == "multiple":
        return answer_keyboard(run_id, q_index, count, submit=t_plain(lang, "submit_button"))
    return answer_keyboard(run_id, q_index, count)


def own_keyboard(
    question: Question,
    lang: Lang,
    data: Callable[[int], callbacks.CallbackData],
    ticked: Collection[int] = (),
) -> InlineKeyboardMarkup | None:
    """A question's buttons in a private chat, where the keyboard is the student's own:
    ``data(shown)`` for each button (``callbacks.SUBMIT`` for Submit). None for a typed
    question (the student types the answer); true/false in the chat's language; ☐/☑ per option
    (``ticked``: shown positions) and ✔ Submit when several are right."""
    if question.typed:
        return None
    count = len(question.options)
    if question.kind == "truefalse":
        names = tf_names(lang)
    elif question.kind == "multiple":
        names = [f"{'☑' if i in ticked else '☐'} {label(i)}" for i in range(count)]
    else:
        names = [label(i) for i in range(count)]
    buttons = [
        InlineKeyboardButton(names[i], callback_data=callbacks.encode(data(i)))
        for i in range(count)
    ]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    if question.kind == "multiple":
        submit = callbacks.encode(data(callbacks.SUBMIT))
        rows.append([InlineKeyboardButton(t_plain(lang, "submit_button"), callback_data=submit)])
    return InlineKeyboardMarkup(rows)


def start_keyboard(quizzes: Sequence[Quiz | Listed], lang: Lang) -> InlineKeyboardMarkup:
    """One start button per quiz."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    fit(f"▶️ {isolated(q.title(lang))}", BUTTON_LABEL),
                    callback_data=callbacks.encode(callbacks.StartData(q.id)),
                )
            ]
            for q in quizzes
        ]
    )


def again_keyboard(lang: Lang, quiz_id: str, token: str = "") -> InlineKeyboardMarkup:
    """The end of a practice: practise the same quiz again (``token``: a shared quiz's)."""
    data = callbacks.encode(callbacks.StartData(quiz_id, token))
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t_plain(lang, "practice_again"), callback_data=data)]]
    )


def pick_keyboard(command: str, choices: Sequence[Choice], lang: Lang) -> InlineKeyboardMarkup:
    """One button per quiz of a "which quiz?" list: tapping runs ``/command`` with it."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    fit(f"{n}. {isolated(c.title(lang))}", BUTTON_LABEL),
                    callback_data=callbacks.encode(callbacks.PickData(command, c.quiz_id)),
                )
            ]
            for n, c in enumerate(choices, start=1)
        ]
    )


def open_private_keyboard(lang: Lang, bot_username: str | None) -> InlineKeyboardMarkup | None:
    """A button that opens the private chat with the bot (``/start``), so that it may write."""
    if not bot_username:
        return None
    link = create_deep_linked_url(bot_username, "hello")
    return InlineKeyboardMarkup([[InlineKeyboardButton(t_plain(lang, "open_private"), url=link)]])


def recap_keyboard(
    lang: Lang, bot_username: str | None, run_id: int, homework: str | None = None
) -> InlineKeyboardMarkup | None:
    """The results' button that opens the private chat and delivers the student's recap; with
    ``homework`` (a quiz whose typed questions the run left out), one that sets that quiz as
    homework (run as ``/homework NAME``: its moderators only)."""
    rows = []
    if bot_username:
        link = create_deep_linked_url(bot_username, callbacks.recap_payload(run_id))
        rows.append([InlineKeyboardButton(t_plain(lang, "recap_button"), url=link)])
    if homework is not None and len(homework.encode()) <= callbacks.MAX_BYTES - 11:
        data = callbacks.encode(callbacks.PickData("homework", homework))
        rows.append([InlineKeyboardButton(t_plain(lang, "results_homework"), callback_data=data)])
    return InlineKeyboardMarkup(rows) if rows else None


def confirm_keyboard(
    lang: Lang, yes: str, no: str, data: Callable[[bool], callbacks.CallbackData]
) -> InlineKeyboardMarkup:
    """One row: the ``yes`` button (callback ``data(True)``), then ``no`` (``data(False)``);
    ``yes`` and ``no`` are catalog keys."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t_plain(lang, yes), callback_data=callbacks.encode(data(True))
                ),
                InlineKeyboardButton(
                    t_plain(lang, no), callback_data=callbacks.encode(data(False))
                ),
            ]
        ]
    )


def tf_names(lang: Lang) -> list[str]:
    """A true/false question's two buttons, true first, in the chat's language."""
    return [t_plain(lang, "tf_true"), t_plain(lang, "tf_false")]
