"""The versioned schema: numbered migration steps, keyed by ``PRAGMA user_version``.

``MIGRATIONS[n]`` upgrades a database from version n to n + 1 and runs in its own transaction
together with the ``user_version`` bump, so a crash mid-upgrade leaves the previous version intact.
An old file is always upgraded in place, never recreated. To change the schema, append a step;
never edit a step that has shipped.

Everything here is synchronous and works on a plain :class:`sqlite3.Connection`, so scripts and
benchmarks can build a database with the exact production schema via :func:`create_schema`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from .models import StorageError

Step = Callable[[sqlite3.Connection], None]

V1_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        title TEXT,
        kind TEXT,
        language TEXT,
        season INTEGER NOT NULL DEFAULT 1,
        season_started_at REAL
    )
    """,
    """
    CREATE TABLE seasons (
        chat_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        started_at REAL NOT NULL,
        PRIMARY KEY (chat_id, season)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        updated_at REAL
    )
    """,
    """
    CREATE TABLE runs (
        run_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        mode TEXT NOT NULL CHECK (mode IN ('group', 'practice')),
        quiz_id TEXT NOT NULL,
        language TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        season INTEGER NOT NULL,
        plan TEXT NOT NULL,
        question_count INTEGER NOT NULL,
        current INTEGER NOT NULL DEFAULT 0,
        phase TEXT NOT NULL DEFAULT 'posting' CHECK (phase IN ('posting', 'open', 'closed')),
        message_id INTEGER,
        posted_at REAL,
        deadline REAL,
        status TEXT NOT NULL DEFAULT 'running'
            CHECK (status IN ('running', 'finished', 'stopped', 'aborted')),
        started_by INTEGER,
        started_at REAL NOT NULL,
        finished_at REAL
    )
    """,
    "CREATE INDEX runs_chat_season ON runs (chat_id, season, mode, status)",
    """
    CREATE UNIQUE INDEX runs_one_running_group ON runs (chat_id, thread_id, mode)
        WHERE status = 'running' AND mode = 'group'
    """,
    """
    CREATE TABLE answers (
        run_id INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        q_index INTEGER NOT NULL,
        question_id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        option INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        points INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (run_id, q_index, user_id)
    ) WITHOUT ROWID
    """,
)

V2_STATEMENTS: tuple[str, ...] = (
    # per-user statistics (user_overview, weakest questions) look answers up by user
    "CREATE INDEX answers_user ON answers (user_id)",
    # the private-chat language preference of a user
    "ALTER TABLE users ADD COLUMN language TEXT",
    # restart recovery lists running runs without scanning a year of history
    "CREATE INDEX runs_running ON runs (mode) WHERE status = 'running'",
)


V3_STATEMENTS: tuple[str, ...] = (
    # after the quiz: may the bot write first, recap and reminder choices
    # (bot.features.review.recaps, bot.features.review.sessions)
    """
    CREATE TABLE students (
        user_id INTEGER PRIMARY KEY,
        started INTEGER NOT NULL DEFAULT 0,
        recaps INTEGER NOT NULL DEFAULT 1,
        tz_minutes INTEGER,
        remind_minutes INTEGER
    )
    """,
    # spaced review of missed questions: Leitner box and when each comes back (NULL: learnt)
    """
    CREATE TABLE review_cards (
        card_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        box INTEGER NOT NULL,
        due REAL,
        UNIQUE (user_id, quiz_id, question_id)
    )
    """,
    "CREATE INDEX review_cards_due ON review_cards (user_id, due) WHERE due IS NOT NULL",
)


# Running totals of every player in every group season, so rankings read one row per player
# instead of aggregating the season's answers. The invariant (checked by the tests): each row
# equals the aggregate of its answers in group runs (never practice) of that chat and season,
#   points = SUM(points), correct = SUM(correct), answered = COUNT(*),
#   runs = COUNT(DISTINCT run_id), last_at = MAX(answered_at)  (the "got there first" tie-break).
# The trigger keeps it in the transaction of every answer insert (including bulk loads); it fires
# only for rows really inserted, never for an INSERT ... ON CONFLICT DO NOTHING that was ignored.
# Answers are never deleted, and a run's mode and season never change; a run's chat_id changes only
# in Store.migrate_chat, which moves the totals with it. Since version 5, homework runs count like
# group runs, and an answer's points and correct flag may be updated by a re-grading: a second
# trigger adds the difference. Anything new that deletes answers or runs, or moves runs between
# chats or seasons, must maintain this table too.
GROUP_TOTALS_TABLE = """
    CREATE TABLE group_totals (
        chat_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        points INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        runs INTEGER NOT NULL,
        last_at REAL NOT NULL,
        PRIMARY KEY (chat_id, season, user_id)
    ) WITHOUT ROWID
"""

# the backfill of version 4, as shipped (group runs only: homework came with version 5)
_V4_AGGREGATE = """
    SELECT r.chat_id, r.season, a.user_id, SUM(a.points), SUM(a.correct), COUNT(*),
           COUNT(DISTINCT a.run_id), MAX(a.answered_at)
    FROM runs AS r CROSS JOIN answers AS a ON a.run_id = r.run_id
    WHERE r.mode = 'group'
    GROUP BY r.chat_id, r.season, a.user_id
"""

# "runs + NOT EXISTS (...)": the answer is the player's first in this run (found through
# answers_user, whose key ends with the primary key: user_id, run_id, q_index)
_V4_TRIGGER = """
    CREATE TRIGGER answers_group_totals AFTER INSERT ON answers
    BEGIN
        INSERT INTO group_totals (chat_id, season, user_id, points, correct, answered, runs,
                                  last_at)
        SELECT r.chat_id, r.season, NEW.user_id, NEW.points, NEW.correct, 1, 1, NEW.answered_at
        FROM runs AS r
        WHERE r.run_id = NEW.run_id AND r.mode = 'group'
        ON CONFLICT (chat_id, season, user_id) DO UPDATE SET
            points = points + excluded.points,
            correct = correct + excluded.correct,
            answered = answered + 1,
            runs = runs + NOT EXISTS (
                SELECT 1 FROM answers AS o
                WHERE o.user_id = NEW.user_id AND o.run_id = NEW.run_id
                  AND o.q_index <> NEW.q_index),
            last_at = MAX(last_at, excluded.last_at);
    END
"""

V4_STATEMENTS: tuple[str, ...] = (
    GROUP_TOTALS_TABLE,
    # a user's groups, for /me in private
    "CREATE INDEX group_totals_user ON group_totals (user_id)",
    "INSERT INTO group_totals (chat_id, season, user_id, points, correct, answered, runs, last_at)"
    + _V4_AGGREGATE,
    _V4_TRIGGER,
)

#: the modes whose answers count on a group's leaderboard (SQL list)
COUNTED_MODES_SQL = "('group', 'homework')"

#: recompute every row from the answers (used by tests to check the invariant)
GROUP_TOTALS_AGGREGATE = _V4_AGGREGATE.replace("r.mode = 'group'", f"r.mode IN {COUNTED_MODES_SQL}")
GROUP_TOTALS_TRIGGER = _V4_TRIGGER.replace("r.mode = 'group'", f"r.mode IN {COUNTED_MODES_SQL}")
# a re-grading updates an answer's points and correct flag: its totals row takes the difference
GROUP_TOTALS_REGRADE_TRIGGER = f"""
    CREATE TRIGGER answers_group_totals_regrade AFTER UPDATE OF points, correct ON answers
    WHEN NEW.points IS NOT OLD.points OR NEW.correct IS NOT OLD.correct
    BEGIN
        UPDATE group_totals SET
            points = points + NEW.points - OLD.points,
            correct = correct + NEW.correct - OLD.correct
        WHERE user_id = NEW.user_id
          AND (chat_id, season) = (SELECT r.chat_id, r.season FROM runs AS r
                                   WHERE r.run_id = NEW.run_id AND r.mode IN {COUNTED_MODES_SQL});
    END
"""

# Version 5 (homework, question analysis, reports, re-grading):
# - runs get a third mode, 'homework' (one student's private attempt at a group's homework, stored
#   under the group's chat id so it counts there): SQLite cannot alter a CHECK constraint, so the
#   table is rebuilt (the triggers that read it are dropped first and recreated after);
# - homework and homework_attempts (one attempt per student: the primary key);
# - run_questions: when each question of a run was posted, so answer times can be measured
#   (median answer time) and newly right answers of a re-grading get their time points;
# - reports: "report a problem" from recaps and reviews;
# - chats.tz_minutes: a group's time zone (deadlines are shown in it; NULL = UTC+6).
V5_STATEMENTS: tuple[str, ...] = (
    "DROP TRIGGER answers_group_totals",
    """
    CREATE TABLE runs_v5 (
        run_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        mode TEXT NOT NULL CHECK (mode IN ('group', 'practice', 'homework')),
        quiz_id TEXT NOT NULL,
        language TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        season INTEGER NOT NULL,
        plan TEXT NOT NULL,
        question_count INTEGER NOT NULL,
        current INTEGER NOT NULL DEFAULT 0,
        phase TEXT NOT NULL DEFAULT 'posting' CHECK (phase IN ('posting', 'open', 'closed')),
        message_id INTEGER,
        posted_at REAL,
        deadline REAL,
        status TEXT NOT NULL DEFAULT 'running'
            CHECK (status IN ('running', 'finished', 'stopped', 'aborted')),
        started_by INTEGER,
        started_at REAL NOT NULL,
        finished_at REAL
    )
    """,
    "INSERT INTO runs_v5 SELECT * FROM runs",
    "DROP TABLE runs",
    "ALTER TABLE runs_v5 RENAME TO runs",
    "CREATE INDEX runs_chat_season ON runs (chat_id, season, mode, status)",
    """
    CREATE UNIQUE INDEX runs_one_running_group ON runs (chat_id, thread_id, mode)
        WHERE status = 'running' AND mode = 'group'
    """,
    "CREATE INDEX runs_running ON runs (mode) WHERE status = 'running'",
    GROUP_TOTALS_TRIGGER,
    GROUP_TOTALS_REGRADE_TRIGGER,
    """
    CREATE TABLE homework (
        homework_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        quiz_id TEXT NOT NULL,
        language TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        set_by INTEGER,
        created_at REAL NOT NULL,
        deadline REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
        ended_at REAL,
        card_message_id INTEGER,
        results_posted INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE INDEX homework_chat ON homework (chat_id, status)",
    "CREATE INDEX homework_pending ON homework (status) WHERE results_posted = 0",
    """
    CREATE TABLE homework_attempts (
        homework_id INTEGER NOT NULL REFERENCES homework (homework_id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        run_id INTEGER NOT NULL UNIQUE REFERENCES runs (run_id) ON DELETE CASCADE,
        PRIMARY KEY (homework_id, user_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE run_questions (
        run_id INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        q_index INTEGER NOT NULL,
        posted_at REAL NOT NULL,
        PRIMARY KEY (run_id, q_index)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE reports (
        report_id INTEGER PRIMARY KEY,
        chat_id INTEGER,
        run_id INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('key', 'unclear', 'typo')),
        created_at REAL NOT NULL,
        UNIQUE (user_id, run_id, question_id, reason)
    )
    """,
    "CREATE INDEX reports_chat ON reports (chat_id, quiz_id)",
    "ALTER TABLE chats ADD COLUMN tz_minutes INTEGER",
)


# Quizzes written in Telegram (bot.authoring): each keeps the validated bank YAML text, so a
# backup of this file holds them whole. ``quiz_no`` is never reused (AUTOINCREMENT): the quiz's
# internal id ``u.<quiz_no>`` (in runs, review cards, buttons) always means this one quiz, even
# after it is deleted (``deleted_at`` set; the row stays for the history of its runs). Live names
# are unique across all authors. ``quiz_drafts`` holds one unfinished /newquiz per user.
AUTHORED_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE authored_quizzes (
        quiz_no INTEGER PRIMARY KEY AUTOINCREMENT,
        author_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        title TEXT NOT NULL,
        language TEXT NOT NULL,
        bank_yaml TEXT NOT NULL,
        question_count INTEGER NOT NULL,
        origin TEXT NOT NULL,
        share_token TEXT UNIQUE,
        published INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        deleted_at REAL
    )
    """,
    "CREATE UNIQUE INDEX authored_live_name ON authored_quizzes (name) WHERE deleted_at IS NULL",
    "CREATE INDEX authored_author ON authored_quizzes (author_id) WHERE deleted_at IS NULL",
    """
    CREATE TABLE quiz_drafts (
        user_id INTEGER PRIMARY KEY,
        stage TEXT NOT NULL CHECK (stage IN ('title', 'questions')),
        title TEXT,
        language TEXT NOT NULL,
        questions TEXT NOT NULL DEFAULT '[]',
        updated_at REAL NOT NULL
    )
    """,
    # /myquizzes counts each quiz's runs
    "CREATE INDEX runs_quiz ON runs (quiz_id)",
)

#: updates already handled (a redelivered one is dropped; one left unfinished by a
#: crash is answered after the restart), and each user's uploads, for the daily limits
GUARD_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE deliveries (
        update_id INTEGER PRIMARY KEY,
        chat_id INTEGER,
        kind TEXT NOT NULL,
        seen_at REAL NOT NULL,
        done INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE INDEX deliveries_seen ON deliveries (seen_at)",
    "CREATE INDEX deliveries_open ON deliveries (done) WHERE done = 0",
    """
    CREATE TABLE uploads (
        user_id INTEGER NOT NULL,
        at REAL NOT NULL,
        bytes INTEGER NOT NULL
    )
    """,
    "CREATE INDEX uploads_user ON uploads (user_id, at)",
)


# Spaced review scheduled by FSRS (bot.core.spacing) instead of Leitner boxes: each card keeps
# its memory state. A card scheduled by the boxes keeps its due date; its stability is the
# interval of its box (1, 3, 7, 14, 30 days: at FSRS's 90 % retention the next interval equals
# the stability), its difficulty the middle of the scale, and its last review one interval
# before it comes due.
FSRS_STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE review_cards ADD COLUMN stability REAL",
    "ALTER TABLE review_cards ADD COLUMN difficulty REAL",
    "ALTER TABLE review_cards ADD COLUMN last_review REAL",
    """
    UPDATE review_cards SET
        stability = CASE box WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 7 WHEN 4 THEN 14 ELSE 30 END,
        difficulty = 5.0
    """,
    "UPDATE review_cards SET last_review = due - stability * 86400 WHERE due IS NOT NULL",
    "UPDATE review_cards SET last_review = 0 WHERE due IS NULL",
    "ALTER TABLE review_cards DROP COLUMN box",
)


# Stored quizzes loaded on demand: the validated model as JSON beside the bank text (filled at
# save, and for older rows in batches after start-up: bot/banks/authored.py), and what listing
# needs of every live quiz in one covering index, so start-up never reads a bank text.
AUTHORED_BODIES_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE authored_bodies (
        quiz_no INTEGER PRIMARY KEY REFERENCES authored_quizzes (quiz_no),
        bank_json TEXT NOT NULL
    )
    """,
    "CREATE INDEX authored_live_meta ON authored_quizzes (quiz_no, author_id, name, title,"
    " language, question_count, origin, share_token, published, created_at, deleted_at)"
    " WHERE deleted_at IS NULL",
)


# Pictures of questions, by the SHA-256 of their content: a stored quiz's bytes, and Telegram's
# file_id once uploaded (bot/storage/images.py).
IMAGES_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE images (
        sha256 TEXT PRIMARY KEY,
        mime TEXT NOT NULL,
        data BLOB,
        file_id TEXT
    )
    """,
)


# the listing columns of every stored quiz from its model JSON (``Quiz.to_dict``: a title is text,
# or {bn, en} when the quiz is bilingual; ``settings.pick`` questions a run, else all); one
# quiz's at save (``bot/storage/authored.py``: this and `` AND b.quiz_no = ?``)
LISTING_FROM_JSON = """
    UPDATE authored_quizzes SET
        title_bn = CASE json_type(b.bank_json, '$.title') WHEN 'object'
            THEN json_extract(b.bank_json, '$.title.bn') ELSE json_extract(b.bank_json, '$.title')
            END,
        title_en = CASE json_type(b.bank_json, '$.title') WHEN 'object'
            THEN json_extract(b.bank_json, '$.title.en') ELSE json_extract(b.bank_json, '$.title')
            END,
        run_length = COALESCE(json_extract(b.bank_json, '$.settings.pick'),
            json_array_length(b.bank_json, '$.questions'))
    FROM authored_bodies b WHERE b.quiz_no = authored_quizzes.quiz_no
    """
# What /quiz lists of a stored quiz without reading its questions: its title in both languages
# and how many questions a run asks (NULL until its model JSON exists; filled here from the JSON
# already stored, at save and conversion after: bot/storage/authored.py), in the listing index.
LISTING_STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE authored_quizzes ADD COLUMN title_bn TEXT",
    "ALTER TABLE authored_quizzes ADD COLUMN title_en TEXT",
    "ALTER TABLE authored_quizzes ADD COLUMN run_length INTEGER",
    LISTING_FROM_JSON,
    "DROP INDEX authored_live_meta",
    "CREATE INDEX authored_live_meta ON authored_quizzes (quiz_no, author_id, name, title,"
    " language, question_count, origin, share_token, published, created_at, deleted_at,"
    " title_bn, title_en, run_length) WHERE deleted_at IS NULL",
)


def _statements(statements: Sequence[str]) -> Step:
    def step(conn: sqlite3.Connection) -> None:
        for sql in statements:
            conn.execute(sql)

    return step


# More question kinds: an answer keeps what was given (the options chosen as their
# letters in the bank's order, "AC", or the text typed) and the credit it earned (0..1; NULL:
# 1 if correct, else 0, as every answer before). A group student's options ticked but not yet
# submitted on a several-answers question are kept too, so a restart does not lose them.
KINDS_STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE answers ADD COLUMN given TEXT",
    "ALTER TABLE answers ADD COLUMN credit REAL",
    """
    CREATE TABLE selections (
        run_id INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        q_index INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        picked TEXT NOT NULL,
        PRIMARY KEY (run_id, q_index, user_id)
    ) WITHOUT ROWID
    """,
)

# A /review question still open: a typed one waiting for the student's text, or the
# options ticked so far on a several-answers one, so that neither is lost by a restart. One row
# per student (one review question is open at a time), gone with its card.
REVIEW_OPEN_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE review_open (
        user_id INTEGER PRIMARY KEY,
        card_id INTEGER NOT NULL REFERENCES review_cards (card_id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        right_count INTEGER NOT NULL,
        message_id INTEGER,
        picked TEXT NOT NULL DEFAULT ''
    )
    """,
    "CREATE INDEX review_open_card ON review_open (card_id)",
)

# What each user keeps stored, counted as stored: a stored quiz's bytes (its bank text and its
# pictures' bytes), and which pictures each stored quiz names, so a picture no live quiz or draft
# names any more is dropped (bot/storage/images.py). Existing quizzes are counted from the text
# and the kept pictures it names.
STORAGE_STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE authored_quizzes ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0",
    """
    CREATE TABLE quiz_pictures (
        quiz_no INTEGER NOT NULL REFERENCES authored_quizzes (quiz_no),
        sha256 TEXT NOT NULL,
        PRIMARY KEY (quiz_no, sha256)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX quiz_pictures_sha ON quiz_pictures (sha256)",
    """
    INSERT INTO quiz_pictures (quiz_no, sha256)
    SELECT a.quiz_no, i.sha256 FROM authored_quizzes a JOIN images i
    ON i.data IS NOT NULL AND instr(a.bank_yaml, i.sha256) > 0
    """,
    """
    UPDATE authored_quizzes SET stored_bytes = length(CAST(bank_yaml AS BLOB)) + COALESCE((
        SELECT SUM(length(i.data)) FROM quiz_pictures p JOIN images i ON i.sha256 = p.sha256
        WHERE p.quiz_no = authored_quizzes.quiz_no), 0)
    """,
)

# Buttons acted on once (exactly once under redelivery): a state-changing button's effect and
# its key are written in one transaction, so a tap Telegram delivers again after a crash (or a
# double tap) finds its key and does nothing more. ``result``: what the first tap made (the
# homework's id), for the one that comes again. An upload's delivery keeps the quiz it saved,
# written with the quiz, so an upload saved before a crash is named after the restart.
ACTIONS_STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE deliveries ADD COLUMN quiz_no INTEGER",
    """
    CREATE TABLE actions_done (
        key TEXT PRIMARY KEY,
        done_at REAL NOT NULL,
        result INTEGER
    ) WITHOUT ROWID
    """,
)

# Explanations sent after a tap, each to its student alone (an ephemeral message): one row
# per (run, student, question) once Telegram took it, so the recap carries the full text of
# every other one and nothing is sent twice.
EXPLAINED_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE explained (
        run_id   INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        q_index  INTEGER NOT NULL,
        PRIMARY KEY (run_id, user_id, q_index)
    ) WITHOUT ROWID
    """,
)

# A key fixed by a re-grade stays the quiz's key: each fix is
# kept with who made it, in which group and when, and the key before it (so undoing it is named
# as such). A stored quiz's own text is changed too; a folder bank's file is not, the fixes are
# laid over it when it is loaded (``quizbot validate`` lists them). A student's report of a
# wrong key is resolved by the fix it led to.
KEY_FIXES_STATEMENTS: tuple[str, ...] = (
    """
    CREATE TABLE key_fixes (
        fix_id INTEGER PRIMARY KEY,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        key TEXT NOT NULL,
        old_key TEXT NOT NULL,
        chat_id INTEGER,
        user_id INTEGER NOT NULL,
        fixed_at REAL NOT NULL
    )
    """,
    "CREATE INDEX key_fixes_quiz ON key_fixes (quiz_id, fix_id)",
    "ALTER TABLE reports ADD COLUMN resolved_by INTEGER REFERENCES key_fixes (fix_id)",
)

# Stored quizzes changed in place (edited in Telegram, or replaced by a file of the same title):
# same number, name and links, a new version; each earlier version's model is kept, so the runs
# planned with it still find their questions. One pending change per user (a field being
# edited, or an uploaded file waiting for "replace or keep both"), one step at a time.
VERSIONS_STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE authored_quizzes ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
    """
    CREATE TABLE authored_versions (
        quiz_no INTEGER NOT NULL REFERENCES authored_quizzes (quiz_no),
        version INTEGER NOT NULL,
        bank_json TEXT NOT NULL,
        replaced_at REAL NOT NULL,
        PRIMARY KEY (quiz_no, version)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE run_versions (
        run_id INTEGER PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE,
        version INTEGER NOT NULL
    )
    """,
    # every run of a stored quiz notes the version it was planned (and is judged) with
    """
    CREATE TRIGGER runs_quiz_version AFTER INSERT ON runs WHEN NEW.quiz_id LIKE 'u.%'
    BEGIN
        INSERT INTO run_versions (run_id, version)
        SELECT NEW.run_id, version FROM authored_quizzes
        WHERE quiz_no = CAST(substr(NEW.quiz_id, 3) AS INTEGER);
    END
    """,
    """
    CREATE TABLE quiz_edits (
        user_id INTEGER PRIMARY KEY,
        quiz_no INTEGER NOT NULL,
        number INTEGER NOT NULL,
        field TEXT NOT NULL,
        payload TEXT,
        updated_at REAL NOT NULL
    )
    """,
)

MIGRATIONS: tuple[Step, ...] = (
    _statements(V1_STATEMENTS),  # 0 -> 1
    _statements(V2_STATEMENTS),  # 1 -> 2
    _statements(V3_STATEMENTS),  # 2 -> 3
    _statements(V4_STATEMENTS),  # 3 -> 4
    _statements(V5_STATEMENTS),  # 4 -> 5: homework, reports, re-grading
    _statements(AUTHORED_STATEMENTS),  # 5 -> 6: quizzes written in chat
    _statements(FSRS_STATEMENTS),  # 6 -> 7: spaced review by FSRS
    _statements(GUARD_STATEMENTS),  # 7 -> 8: updates handled once, daily upload limits
    _statements(AUTHORED_BODIES_STATEMENTS),  # 8 -> 9: stored quizzes as JSON, listing index
    _statements(KINDS_STATEMENTS),  # 9 -> 10: answers given and their credit; selections
    _statements(IMAGES_STATEMENTS),  # 10 -> 11: pictures of questions
    _statements(REVIEW_OPEN_STATEMENTS),  # 11 -> 12: the open /review question of each student
    _statements(LISTING_STATEMENTS),  # 12 -> 13: /quiz lists stored quizzes without decoding
    _statements(STORAGE_STATEMENTS),  # 13 -> 14: bytes stored per quiz, pictures per quiz
    _statements(ACTIONS_STATEMENTS),  # 14 -> 15: buttons acted on once, uploads' quizzes
    _statements(KEY_FIXES_STATEMENTS),  # 15 -> 16: key fixes kept, reports resolved by them
    _statements(VERSIONS_STATEMENTS),  # 16 -> 17: stored quizzes' versions, pending edits
    _statements(EXPLAINED_STATEMENTS),  # 17 -> 18: explanations each student saw after a tap
)
SCHEMA_VERSION = len(MIGRATIONS)


def user_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(conn: sqlite3.Connection, *, target: int = SCHEMA_VERSION) -> int:
    """Bring the database behind ``conn`` up to version ``target``; return the version reached.

    Each step runs in its own ``BEGIN IMMEDIATE`` transaction that re-reads ``user_version``, so
    two processes opening the same file at once cannot both apply a step. Foreign key enforcement
    is switched off while migrating (table rebuilds need that) and checked before every commit.
    """
    if not 0 <= target <= SCHEMA_VERSION:
        raise ValueError(f"no schema version {target}")
    if conn.in_transaction:
        conn.commit()
    saved_isolation = conn.isolation_level
    conn.isolation_level = None
    fk_on = bool(conn.execute("PRAGMA foreign_keys").fetchone()[0])
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        while True:
            conn.execute("BEGIN IMMEDIATE")
            try:
                version = user_version(conn)
                if version > SCHEMA_VERSION:
                    raise StorageError(
                        f"database schema version {version} is newer than this code "
                        f"({SCHEMA_VERSION}); refusing to touch it"
                    )
                if version >= target:
                    conn.execute("ROLLBACK")
                    return version
                MIGRATIONS[version](conn)
                if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                    raise StorageError(f"migration to version {version + 1} broke foreign keys")
                conn.execute(f"PRAGMA user_version = {version + 1:d}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
    finally:
        if fk_on:
            conn.execute("PRAGMA foreign_keys = ON")
        conn.isolation_level = saved_isolation


def create_schema(conn: sqlite3.Connection) -> None:
    """Create (or upgrade to) the current schema on a plain sqlite3 connection.

    Meant for benchmarks and scripts that bulk-load a file with ``executemany``. The trigger
    that keeps ``group_totals`` current fires on every inserted answer, bulk ones included, and
    finds the answer's chat and season in its run: insert each run before its answers (with
    foreign keys off, as on a plain connection, an answer of a missing run would go uncounted).
    """
    migrate(conn)


def create_file(path: Path) -> None:
    """Create an empty database file readable by its owner only, unless it exists already."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def prepare_file(path: Path, *, busy_timeout_ms: int = 30_000) -> int:
    """Create the file if needed (mode 0600), switch it to WAL and migrate it; return version."""
    create_file(path)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms:d}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StorageError(f"could not switch {path} to WAL (journal_mode={mode})")
        conn.execute("PRAGMA synchronous = FULL")
        return migrate(conn)
    finally:
        conn.close()
