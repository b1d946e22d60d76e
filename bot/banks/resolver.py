"""One quiz resolver: what a user typed after a command → the quiz they mean.

Pure lookup over the :class:`~bot.banks.catalog.Catalog` and the stored quizzes
(:class:`~bot.banks.authored.AuthoredCatalog`); no Telegram, no SQL. A quiz is found by

- its name (a folder bank's id, a stored quiz's name; ``u.N`` too, for buttons and old links);
- its title in either language, ignoring case, spacing, ``-`` and ``_`` (so "Cell Biology
  Basics", "cellbiologybasics" and "cell-biology-basics" are one key), Bengali digits as ASCII;
- a number from the list the last reply showed this user in this chat (remembered, bounded).

What a caller may see is its own rule, one function per kind of caller (:meth:`startable`,
:meth:`known`, :meth:`own`, :meth:`live`), each a list of :class:`Choice`; :meth:`find` only
matches within the list it is given. The candidates come from two small methods of the
catalogs, so an indexed catalog can replace them without touching callers.

A stored quiz's :class:`Choice` is built from its indexed metadata (name, titles: the
listing's columns) and its questions are decoded only for the quiz :meth:`find` picks, so naming
one of many decodes that one.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from bot.banks.authored import AuthoredCatalog
from bot.banks.catalog import Catalog
from bot.core.bank import Quiz, Text
from bot.i18n import ascii_digits
from bot.storage import AuthoredQuiz

MEMORY = 2_000  # (chat, user) lists remembered, oldest forgotten first
LIST_SIZE = 8  # choices a "which one?" reply offers
LONGEST = 256  # no name or title is longer (titles: 200 characters): longer text names nothing
_DROP = re.compile(r"[\s\-_.,:;!?'\"“”‘’()«»]+")


@lru_cache(maxsize=8192)
def key(text: str) -> str:
    """The form names and titles are compared in: case, spacing and dashes ignored."""
    folded = unicodedata.normalize("NFC", ascii_digits(text)).casefold()
    return _DROP.sub("", folded)


@dataclass(frozen=True, slots=True)
class Choice:
    """A quiz a caller may name: its internal id (buttons only), the name users type, its
    titles; its questions (``quiz``) read when first used, not to name it (a stored quiz's are
    decoded on demand: naming one of a thousand decodes that one only)."""

    quiz_id: str
    name: str
    titles: Text
    loaded: Quiz | None = None
    loader: Callable[[str], Quiz | None] | None = field(default=None, compare=False, repr=False)
    mine: bool = False  # the caller's own stored quiz (named by :meth:`QuizResolver.startable`)

    def title(self, lang: str) -> str:
        return self.titles.bn if lang == "bn" else self.titles.en

    def load(self) -> Quiz | None:
        """The quiz with its questions (read and decoded now, if not yet); None if it cannot be
        served (a stored quiz that no longer decodes: logged)."""
        if self.loaded is not None or self.loader is None:
            return self.loaded
        return self.loader(self.quiz_id)

    @property
    def quiz(self) -> Quiz:
        """The quiz with its questions; for a choice :meth:`QuizResolver.find` gave (loaded)."""
        quiz = self.load()
        if quiz is None:
            raise LookupError(f"quiz {self.quiz_id} cannot be served")
        return quiz

    @classmethod
    def of(cls, quiz: Quiz) -> Choice:
        """A quiz already in memory (a folder bank or added quiz), named by its id."""
        return cls(quiz.id, quiz.id, quiz.title, quiz)


@dataclass(frozen=True, slots=True)
class Listed:
    """A quiz as ``/quiz`` lists it, its questions not read: its internal id (buttons only),
    the name users type, its title and how many questions a run asks (what
    :func:`bot.render.quiz_list` shows of a Quiz)."""

    id: str
    handle: str
    title: Text
    run_length: int

    @property
    def quiz_id(self) -> str:
        return self.id

    @classmethod
    def of(cls, quiz: Quiz) -> Listed:
        """A folder bank or added quiz (named by its id, as :meth:`QuizResolver.startable`)."""
        return cls(quiz.id, quiz.id, quiz.title, quiz.run_length)


@dataclass(frozen=True, slots=True)
class Found:
    """The outcome of :meth:`QuizResolver.find`: the one quiz meant, or the ones to choose from
    (several that match, or when nothing does, the caller's whole list, shortened).
    ``unknown``: a quiz was named, and nothing answers to it."""

    choice: Choice | None
    options: tuple[Choice, ...] = ()
    ambiguous: bool = False
    unknown: bool = False


class QuizResolver:
    """Finds quizzes by name, title or listed number; remembers each user's last list."""

    def __init__(self, catalog: Catalog, authored: AuthoredCatalog, memory: int = MEMORY) -> None:
        self._catalog, self._authored, self._memory = catalog, authored, memory
        self._lists: OrderedDict[tuple[int, int], tuple[str, ...]] = OrderedDict()

    # --- visibility: one rule per kind of caller ----------------------------------------------

    def startable(self, chat_id: int, user_id: int, *, own: bool) -> list[Choice]:
        """Quizzes a user may start (group) or practise (private) here: the chat's list, the
        published stored quizzes, and with ``own`` the user's own (/quiz, /homework, practice)."""
        out = {q.id: Choice.of(q) for q in self._catalog.for_chat(chat_id)}
        folder = self._catalog.folder()
        for row in self._authored.startable_rows(user_id, own=own):  # indexed: no scan
            out[row.quiz_id] = replace(self._stored(row, folder), mine=row.author_id == user_id)
        return list(out.values())

    def listing(self, chat_id: int, user_id: int, *, own: bool) -> list[Listed]:
        """What :meth:`startable` gives, as ``/quiz`` lists it: a stored quiz from its indexed
        metadata alone (its questions are read when it is started, not to list it)."""
        out = {q.id: Listed.of(q) for q in self._catalog.for_chat(chat_id)}
        folder = self._catalog.folder()
        for row in self._authored.startable_rows(user_id, own=own):  # indexed: no scan
            named = self._stored(row, folder)
            length = row.run_length if row.run_length is not None else row.question_count
            out[row.quiz_id] = Listed(row.quiz_id, named.name, named.titles, length)
        return list(out.values())

    def known(self, quiz_ids: Iterable[str] = ()) -> list[Choice]:
        """The quizzes ``quiz_ids`` (those played here; deleted stored ones included: results
        of runs stored here) first, then every folder bank and added quiz: /analysis, /regrade,
        /leaderboard (stored quizzes are served by id only: they come in through ``quiz_ids``)."""
        out: dict[str, Choice] = {}
        for quiz_id in [*quiz_ids, *self._catalog]:
            if quiz_id not in out and (choice := self.choice(quiz_id)) is not None:
                out[quiz_id] = choice
        return list(out.values())

    def own(self, user_id: int, *, admin: bool = False) -> list[Choice]:
        """The user's own stored quizzes (an operator: everyone's): /share, /deletequiz, /rename."""
        rows = self._authored.live() if admin else self._authored.of_author(user_id)
        folder = self._catalog.folder()
        return [self._stored(r, folder) for r in rows]

    def live(self) -> list[Choice]:
        """Every live stored quiz (/publish, operators only)."""
        return self.own(0, admin=True)

    # --- lookups ------------------------------------------------------------------------------

    def choice(self, quiz_id: str) -> Choice | None:
        """The quiz ``quiz_id`` under the name users type (a stored quiz's name, else its id)."""
        row = self._authored.row(quiz_id)
        if row is not None:
            quiz = self._authored.quiz(quiz_id)
            if quiz is None:
                return None
            name = self._name(row.name, quiz_id, self._catalog.folder())
            return Choice(quiz_id, name, quiz.title, quiz)
        found = self._catalog.get(quiz_id)
        return Choice.of(found) if found is not None else None

    def _stored(self, row: AuthoredQuiz, folder: Collection[str]) -> Choice:
        """A live stored quiz as a choice from its indexed metadata, its questions decoded when
        picked (a row not yet converted has only its title in its own language, as /quiz
        lists it, until converted)."""
        name = self._name(row.name, row.quiz_id, folder)
        return Choice(row.quiz_id, name, _titles(row), loader=self._authored.quiz)

    def _loaded(self, choice: Choice, choices: Sequence[Choice]) -> Found:
        """The one quiz found, its questions read now (once: the caller uses them); one that
        cannot be served names nothing."""
        quiz = choice.load()
        if quiz is None:
            rest = [c for c in choices if c.quiz_id != choice.quiz_id]
            return Found(None, tuple(rest[:LIST_SIZE]), unknown=True)
        return Found(replace(choice, loaded=quiz))

    def name(self, quiz_id: str) -> str:
        """The name a quiz is shown and typed under; never an internal id if it has a name."""
        found = self.choice(quiz_id)
        return found.name if found is not None else quiz_id

    def find(
        self, text: str, choices: Sequence[Choice], chat_id: int = 0, user_id: int = 0
    ) -> Found:
        """The quiz ``text`` names among ``choices``."""
        wanted = text.strip()
        if not wanted:
            return Found(None, tuple(choices[:LIST_SIZE]))
        if len(wanted) > LONGEST:
            return Found(None, tuple(choices[:LIST_SIZE]), unknown=True)
        by_id = {c.quiz_id: c for c in choices}
        number = ascii_digits(wanted)
        if number.isascii() and number.isdigit() and len(number) < 4:
            listed = self._lists.get((chat_id, user_id), ())
            n = int(number)
            if 1 <= n <= len(listed) and listed[n - 1] in by_id:
                return self._loaded(by_id[listed[n - 1]], choices)
        folded = wanted.casefold()
        exact = [c for c in choices if folded in (c.name.casefold(), c.quiz_id)]
        wanted_key = key(wanted)
        if len(exact) == 1:
            # another author's quiz of this name, and the caller's own of this title: the
            # caller chooses (their own first), rather than starting someone else's unasked
            rivals = (
                [c for c in choices if c.mine and c is not exact[0] and wanted_key in _keys(c)]
                if not exact[0].mine and folded != exact[0].quiz_id
                else []
            )
            if rivals:
                return Found(None, tuple([*rivals, exact[0]][:LIST_SIZE]), ambiguous=True)
            return self._loaded(exact[0], choices)
        matches = [c for c in choices if wanted_key in _keys(c)]
        if len(matches) == 1:
            return self._loaded(matches[0], choices)
        if matches:
            return Found(None, tuple(matches[:LIST_SIZE]), ambiguous=True)
        near = [c for c in choices if any(wanted_key in k for k in _keys(c))] if wanted_key else []
        return Found(None, tuple((near or list(choices))[:LIST_SIZE]), unknown=True)

    def remember(self, chat_id: int, user_id: int, shown: Sequence[Choice | Listed]) -> None:
        """The list just shown to this user here: "/analysis 2" means its second quiz."""
        lists = self._lists
        lists[(chat_id, user_id)] = tuple(c.quiz_id for c in shown)
        lists.move_to_end((chat_id, user_id))
        while len(lists) > self._memory:
            lists.popitem(last=False)

    @staticmethod
    def _name(name: str, quiz_id: str, folder: Collection[str]) -> str:
        """A stored quiz's name, unless a folder bank took it (then only its id is sure)."""
        return quiz_id if name in folder else name


def _titles(row: AuthoredQuiz) -> Text:
    """A stored quiz's titles from its listing columns (before it is converted: its one title)."""
    return Text(row.title_bn or row.title, row.title_en or row.title)


def _keys(choice: Choice) -> set[str]:
    title = choice.titles
    return {key(choice.name), key(title.bn), key(title.en)} - {""}


def split_trailing(args: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Ways to read ``args`` as a quiz (possibly several words) followed by other arguments:
    the longest quiz first. ``/quiz Cell Biology 30`` → ("Cell Biology 30", []),
    ("Cell Biology", ["30"]), ("Cell", ["Biology", "30"]). The whole always comes first; a
    longer reading than any name or title is skipped (so a 2,000-word message costs little)."""
    readings = [(" ".join(args), list(args[len(args) :]))]
    size = -1
    ends = []
    for n, arg in enumerate(args, start=1):
        size += len(arg) + 1
        if size > LONGEST:
            break
        ends.append(n)
    readings += [(" ".join(args[:n]), list(args[n:])) for n in reversed(ends) if n < len(args)]
    return readings


def named(args: Sequence[str], find: Callable[[str], Found]) -> tuple[Found, list[str]]:
    """The longest reading of ``args`` that names a quiz, with the arguments after it; when none
    does, what the whole text found (the list to offer) and no arguments."""
    first: Found | None = None
    for text, rest in split_trailing(args):
        found = find(text)
        first = first or found
        if found.choice is not None:
            return found, rest
    return first or Found(None), []
