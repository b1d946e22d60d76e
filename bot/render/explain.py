"""The whole explanation a student sees after a tap in a group, in a message only they see.

A tap's alert holds at most 200 characters, no math and no picture. When the alert cannot say
everything a tap should teach (``need``: the option's feedback and the question's
explanation do not both fit it, one of them holds math, or the question has a picture), the
student also gets one ephemeral message (``explanation``): the verdict, their option and its
feedback, the explanation and the question's note, with formulas rendered (a rich message) and
the question's picture. Where the alert already says everything, nothing more is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.bank import Question, utf16_len
from bot.core.engine import Answer, Verdict
from bot.core.limits import MESSAGE_LIMIT
from bot.core.mathtext import has_math, readable
from bot.i18n import t
from bot.i18n.lang import Lang
from bot.i18n.markup import Safe, html, join
from bot.render.quiz import labels, note_left_out, option_text, own_feedback, verdict_prefix
from bot.render.rich import plain_fallback, rich_html
from bot.render.text import ALERT_LIMIT, plain_text

#: where the picture stands in a rich explanation (bot/tg/outbox.py names it in ``media``)
PICTURE_LINK = "tg://photo?id=picture"


@dataclass(frozen=True, slots=True)
class Explanation:
    """An explanation as it is sent: ``html`` (Telegram HTML, or with ``rich`` a rich
    message's HTML, showing the picture at ``PICTURE_LINK`` when ``picture``); ``plain``: the
    text message sent instead if Telegram refuses the rich one (with a note saying so)."""

    html: Safe
    rich: bool
    picture: bool
    plain: Safe


def _texts(question: Question, options: Sequence[int], lang: Lang) -> list[str]:
    """What a tap teaches beyond its verdict: the feedback of each option picked, the
    explanation, the note (raw bank text, in ``lang``)."""
    found: list[str] = []
    for option in options:
        feedback = own_feedback(question, option)
        if feedback is not None and feedback(lang) not in found:
            found.append(feedback(lang))
    for extra in (question.explanation, question.note):
        if extra is not None and extra(lang) not in found:
            found.append(extra(lang))
    return found


@dataclass(frozen=True, slots=True)
class Need:
    """What a pick of a question teaches beyond its verdict, against what an alert can say:
    worked out once per question and pick (``need``), then checked against each tap's alert
    (``left_out_of``), as a class's burst taps the same few picks a thousand times.
    ``always``: no alert can say it all; ``whole``: the one text (readable) an alert must
    show whole, else nothing is left out."""

    always: bool = False
    whole: str | None = None

    def left_out_of(self, alert: str) -> bool:
        """Whether ``alert`` leaves out part of what the pick teaches."""
        if self.always:
            return True
        if self.whole is None:
            return False
        return not (self.whole in alert and utf16_len(alert) < ALERT_LIMIT)


NOTHING = Need()
ALWAYS = Need(always=True)


def need(question: Question, answer: Answer, lang: Lang) -> Need:
    """What an accepted ``answer`` to ``question`` teaches that its alert may leave out: a
    second text (feedback and explanation), one cut or holding math, a question with a
    picture, or a note the group's reveal leaves out (a typed answer's alert says it all)."""
    return NOTHING if answer.typed is not None else _need(question, answer.options, lang)


#: what an alert keeps for its verdict line (points, streak), in UTF-16 units
VERDICT_ROOM = 60


def teaches_more(question: Question, options: Sequence[int], lang: Lang) -> bool:
    """``need`` without the alert at hand (the recap's question): a pick of
    ``options`` (bank indexes) whose text would not fit an alert beside its verdict."""
    found = _need(question, options, lang)
    if found.whole is None:
        return found.always
    return utf16_len(found.whole) > ALERT_LIMIT - VERDICT_ROOM


def _need(question: Question, options: Sequence[int], lang: Lang) -> Need:
    if note_left_out(question, lang):
        return ALWAYS  # the group's reveal leaves it out: the student reads it here
    note = question.note(lang) if question.note is not None else None
    texts = [x for x in _texts(question, options, lang) if x != note]
    if not texts:
        return NOTHING
    if len(texts) > 1 or question.image is not None or any(has_math(x) for x in texts):
        return ALWAYS
    return Need(whole=readable(texts[0]))


def explanation(
    lang: Lang,
    verdict: Verdict,
    question: Question,
    permutation: Sequence[int],
    *,
    picture: bool,
) -> Explanation:
    """The message of a tap whose alert could not say everything (``need``);
    ``picture``: the question's picture is on Telegram already and can be shown."""
    answer = verdict.answer
    assert answer is not None
    shown = [permutation.index(o) for o in answer.options if o in permutation]
    picked = [option_text(question, o, lang) for o in answer.options if o in permutation]
    parts: list[Safe] = [
        html("<b>{}</b>", verdict_prefix(lang, verdict, question, permutation, practice=False)),
        t(lang, "explain_your_answer", labels=labels(shown), options="; ".join(picked)),
    ]
    for option in answer.options:
        feedback = own_feedback(question, option)
        if feedback is not None:
            parts.append(html("💬 {}", feedback(lang)))
    if question.explanation is not None:
        parts.append(html("💡 {}", question.explanation(lang)))
    if question.note is not None:
        parts.append(html("📖 {}", question.note(lang)))
    body = join("\n\n", _unique(parts))
    math = any(has_math(x) for x in _texts(question, answer.options, lang))
    if not (picture or math or utf16_len(plain_text(body)) > MESSAGE_LIMIT):
        return Explanation(body, rich=False, picture=False, plain=body)
    shown_html = rich_html(body)
    if picture:
        shown_html = Safe(f'{shown_html}<img src="{PICTURE_LINK}"/>')
    return Explanation(shown_html, rich=True, picture=picture, plain=plain_fallback(body, lang))


def _unique(parts: list[Safe]) -> list[Safe]:
    seen: set[str] = set()
    kept = []
    for part in parts:
        if str(part) not in seen:
            seen.add(str(part))
            kept.append(part)
    return kept
