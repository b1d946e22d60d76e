"""Between the pure engine and the store: a run's progress and answers in both shapes.

Group quizzes, homework attempts and practice all persist the engine's state the same way;
this module is the one place that maps an engine to its stored progress and an answer from one
shape to the other.
"""

from __future__ import annotations

from bot.core.bank import Quiz
from bot.core.engine import TYPED_MIN_SECONDS, Answer, QuizEngine
from bot.core.scoring import from_letters, letters
from bot.services.runstore import ProgressStore
from bot.storage import HOMEWORK, StoredRun
from bot.storage import Answer as StoredAnswer


async def save_progress(
    store: ProgressStore, run_id: int, engine: QuizEngine, message_id: int | None
) -> None:
    """Persist where ``engine`` stands. While a question is being posted nothing of it is known
    yet (no message, no times); once open or closed, its message and times are kept."""
    posting = engine.phase == "posting"
    await store.save_progress(
        run_id,
        current=engine.current,
        phase=engine.phase,
        message_id=None if posting else message_id,
        posted_at=None if posting else engine.posted_at,
        deadline=None if posting else engine.deadline,
    )


async def restore_engine(store: ProgressStore, stored: StoredRun, quiz: Quiz) -> QuizEngine:
    """The engine of a run found unfinished at start-up: where it stood, with its answers.
    Raises ``PlanMismatch`` when ``quiz`` no longer fits the stored plan."""
    engine = QuizEngine(
        quiz,
        stored.plan,
        stored.seconds,
        current=stored.current,
        phase=stored.phase,
        posted_at=stored.posted_at,
        deadline=stored.deadline,
        typed_floor=TYPED_MIN_SECONDS if stored.mode == HOMEWORK else 0,
    )
    engine.restore(map(to_engine, await store.answers(stored.run_id)))
    return engine


def to_engine(stored: StoredAnswer) -> Answer:
    """A stored answer as the engine restores it."""
    typed = stored.given if stored.option < 0 else None
    picked = from_letters(stored.given) if stored.given and typed is None else ()
    return Answer(
        stored.q_index,
        stored.user_id,
        stored.option,
        stored.correct,
        stored.points,
        stored.answered_at,
        picked=picked,
        typed=typed,
        credit=stored.credit,
    )


def to_stored(
    run_id: int, question_id: str, answer: Answer, *, points: int | None = None
) -> StoredAnswer:
    """An accepted answer as the store records it (``points`` overrides, e.g. 0 in practice)."""
    return StoredAnswer(
        run_id=run_id,
        q_index=answer.q_index,
        question_id=question_id,
        user_id=answer.user_id,
        option=answer.option,
        correct=answer.correct,
        points=answer.points if points is None else points,
        answered_at=answer.at,
        given=answer.typed if answer.typed is not None else _given(answer),
        credit=answer.credit,
    )


def _given(answer: Answer) -> str | None:
    """What a tapped answer stores beyond its option: every option chosen, when several."""
    return letters(answer.picked) if answer.picked else None


async def ticked_of(
    store: ProgressStore, run_id: int, engine: QuizEngine
) -> dict[int, frozenset[int]]:
    """What each student had ticked (shown positions) on the open several-answers question of
    a run, as stored: a selection survives a restart."""
    if engine.phase != "open" or engine.question.kind != "multiple":
        return {}
    perm = engine.permutation
    return {
        user_id: frozenset(perm.index(o) for o in from_letters(picked) if o in perm)
        for user_id, picked in (await store.selections(run_id, engine.current)).items()
    }


async def save_ticks(
    store: ProgressStore, run_id: int, engine: QuizEngine, user_id: int, ticked: frozenset[int]
) -> None:
    """Keep what a student ticked (shown positions) on the open question."""
    picked = letters(tuple(engine.permutation[s] for s in ticked))
    await store.save_selection(run_id, engine.current, user_id, picked)
