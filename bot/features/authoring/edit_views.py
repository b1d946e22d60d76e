"""What users read while editing a stored quiz in Telegram: the quiz's edit menu, a question's,
what to send for each field, and the choice after a file with an existing quiz's title."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.bank import MAX_SECONDS, MIN_SECONDS, Quiz
from bot.features.authoring import buttons as authoring_buttons
from bot.i18n import t, t_plain
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render import callbacks
from bot.render.text import fit, label

PER_ROW = 5  # question buttons in a row
MAX_QUESTION_BUTTONS = 90  # Telegram shows up to 100 buttons; the rest by /myquizzes


def _button(text: str, quiz_no: int, number: int, field: str) -> InlineKeyboardButton:
    data = callbacks.encode(authoring_buttons.QuizEditData(quiz_no, number, field))
    return InlineKeyboardButton(text, callback_data=data)


def edit_button(lang: Lang, quiz_no: int) -> InlineKeyboardButton:
    """The quiz card's Edit button."""
    return _button(t_plain(lang, "edit_btn"), quiz_no, 0, "m")


def my_quizzes_keyboard(lang: Lang, quizzes: list[tuple[int, str]]) -> InlineKeyboardMarkup | None:
    """Under /myquizzes: an Edit button per quiz ((number, name)), two to a row."""
    buttons = [
        _button(t_plain(lang, "edit_btn_named", name=name), no, 0, "m") for no, name in quizzes
    ]
    rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    return InlineKeyboardMarkup(rows) if rows else None


def cancel_keyboard(lang: Lang, quiz_no: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[_button(t_plain(lang, "edit_btn_cancel"), quiz_no, 0, "c")]])


def quiz_menu(lang: Lang, quiz_no: int, name: str, quiz: Quiz) -> tuple[Safe, InlineKeyboardMarkup]:
    """What can be changed in the quiz: its title, the time per question, a question."""
    rows = [
        [
            _button(t_plain(lang, "edit_btn_title"), quiz_no, 0, "t"),
            _button(t_plain(lang, "edit_btn_seconds"), quiz_no, 0, "s"),
        ]
    ]
    numbers = range(1, min(len(quiz.questions), MAX_QUESTION_BUTTONS) + 1)
    buttons = [_button(t_plain(lang, "edit_btn_question", n=n), quiz_no, n, "q") for n in numbers]
    rows += [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]
    rows.append([_button(t_plain(lang, "edit_btn_cancel"), quiz_no, 0, "c")])
    text = t(lang, "edit_menu", title=quiz.title(lang), name=name)
    return text, InlineKeyboardMarkup(rows)


def question_menu(
    lang: Lang, quiz_no: int, quiz: Quiz, number: int
) -> tuple[Safe, InlineKeyboardMarkup]:
    """What can be changed in question ``number``."""
    question = quiz.questions[number - 1]
    fields = ["w", "e"] if question.typed else ["w", "o", "k", "f", "e"]
    keys = {
        "w": "edit_btn_text",
        "o": "edit_btn_options",
        "k": "edit_btn_key",
        "f": "edit_btn_feedback",
        "e": "edit_btn_explanation",
    }
    buttons = [_button(t_plain(lang, keys[f]), quiz_no, number, f) for f in fields]
    rows = [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    rows.append(
        [
            _button(t_plain(lang, "edit_btn_back"), quiz_no, 0, "m"),
            _button(t_plain(lang, "edit_btn_cancel"), quiz_no, 0, "c"),
        ]
    )
    text = t(
        lang,
        "edit_question",
        title=quiz.title(lang),
        n=number,
        text=fit(question.text(lang), 300),
    )
    return text, InlineKeyboardMarkup(rows)


def prompt(lang: Lang, quiz: Quiz, number: int, field: str) -> Safe:
    """What to send for ``field`` (of question ``number``), with what it is now."""
    if field == "t":
        return t(lang, "edit_ask_t", current=quiz.title(lang))
    if field == "s":
        now = str(quiz.seconds) if quiz.seconds is not None else t_plain(lang, "edit_default")
        return t(lang, "edit_ask_s", current=now, low=MIN_SECONDS, high=MAX_SECONDS)
    question = quiz.questions[number - 1]
    count = len(question.options)
    if field == "w":
        return t(lang, "edit_ask_w", n=number, current=fit(question.text(lang), 300))
    if field == "o":
        listed = "\n".join(o(lang) for o in question.options)
        return t(lang, "edit_ask_o", n=number, count=count, current=listed)
    if field == "k":
        letters = " ".join(label(i) for i in question.right_options)
        return t(lang, "edit_ask_k", n=number, current=letters)
    if field == "f":
        listed = "\n".join(o.feedback(lang) if o.feedback else "-" for o in question.options)
        return t(lang, "edit_ask_f", n=number, count=count, current=listed)
    now = question.explanation(lang) if question.explanation else "-"
    return t(lang, "edit_ask_e", n=number, current=fit(now, 300))


def saved(lang: Lang, quiz: Quiz, name: str, version: int) -> Safe:
    return t(lang, "edit_saved", title=quiz.title(lang), name=name, version=version)


def same_title(
    lang: Lang, quiz_no: int, title: str, name: str
) -> tuple[Safe, InlineKeyboardMarkup]:
    """After a file titled like one of the author's quizzes: replace it, or keep both."""
    markup = InlineKeyboardMarkup(
        [
            [_button(t_plain(lang, "upload_btn_replace", name=name), quiz_no, 0, "r")],
            [_button(t_plain(lang, "upload_btn_both"), quiz_no, 0, "n")],
        ]
    )
    return t(lang, "upload_same_title", title=title, name=name), markup


def problem(lang: Lang, text: str) -> Safe:
    return join("\n", [t(lang, "edit_invalid"), html("• {}", fit(text, 300))])
