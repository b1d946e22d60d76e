"""Question analysis and re-scoring, checked against values computed by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.analysis import Response, analyse, group_size
from bot.core.bank import Accepted, Option, Question, Text
from bot.core.regrade import Graded, rescore
from bot.features.homework import buttons as homework_buttons
from bot.features.teacher.buttons import RegradeData, RunRegradeData
from bot.render import callbacks


def r(user: int, qid: str, option: int, correct: bool, seconds: float | None = None) -> Response:
    return Response(1, user, qid, option, correct, seconds)


# Six students, one run. R = right, W(n) = wrong with bank option n, — = not answered.
#        a      b      c
#   u1   R      R      W(2)
#   u2   R      R      W(2)
#   u3   R      W(1)   R
#   u4   R      W(3)   R
#   u5   W(1)   W(1)   R
#   u6   R      —      R
FIXED = [
    r(1, "a", 0, True, 2),
    r(1, "b", 0, True),
    r(1, "c", 2, False),
    r(2, "a", 0, True, 4),
    r(2, "b", 0, True),
    r(2, "c", 2, False),
    r(3, "a", 0, True, 6),
    r(3, "b", 1, False),
    r(3, "c", 0, True),
    r(4, "a", 0, True, 8),
    r(4, "b", 3, False),
    r(4, "c", 0, True),
    r(5, "a", 1, False, 10),
    r(5, "b", 1, False),
    r(5, "c", 0, True),
    r(6, "a", 0, True),
    r(6, "c", 0, True),
    r(6, "gone", 0, True),  # a question no longer in the bank: ignored
]


def test_item_analysis_by_hand() -> None:
    result = analyse(["a", "b", "c"], FIXED)
    assert result.sittings == 6
    assert group_size(6) == 2  # round(0.27 × 6)
    a, b, c = result.items
    # a: 5 of 6 right. Rest scores (b + c) are all 1: ties keep the sitting order, so the
    # upper two are u1, u2 (both right), the lower two u5 (wrong), u6 (right): D = 1 − 0.5.
    assert (a.number, a.answered, a.right) == (1, 6, 5)
    assert a.share_right == pytest.approx(5 / 6)
    assert a.discrimination == pytest.approx(0.5)
    assert a.wrong_option == 1 and a.wrong_share == pytest.approx(1 / 6)
    assert a.median_seconds == 6  # of 2, 4, 6, 8, 10 (u6's time is unknown)
    assert a.flag is None
    # b: 2 of 5 right. Rest (a + c): u3, u4, u6 have 2, u1, u2, u5 have 1. Upper u3, u4: none
    # right; lower u2, u5: one right. D = 0 − 0.5 < 0: stronger students miss it.
    assert (b.answered, b.right) == (5, 2)
    assert b.discrimination == pytest.approx(-0.5)
    assert b.wrong_option == 1 and b.wrong_share == pytest.approx(2 / 5)
    assert b.median_seconds is None
    assert b.flag == "check_key"
    # c: 4 of 6 right. Rest (a + b): u1, u2 have 2 (both wrong here); the lowest, u6 (1) and
    # u5 (0), are both right: D = 0 − 1.
    assert (c.answered, c.right) == (6, 4)
    assert c.discrimination == pytest.approx(-1.0)
    assert c.wrong_option == 2 and c.wrong_share == pytest.approx(2 / 6)
    assert c.flag == "check_key"


def test_flags_too_easy_and_too_hard() -> None:
    # ten students: everyone gets x; only the first three get y
    responses = [r(u, "x", 0, True) for u in range(1, 11)]
    responses += [r(u, "y", 0, u <= 3) if u <= 3 else r(u, "y", 2, False) for u in range(1, 11)]
    x, y = analyse(["x", "y"], responses).items
    assert group_size(10) == 3
    assert (x.share_right, x.discrimination, x.flag) == (1.0, 0.0, "too_easy")
    assert (y.share_right, y.discrimination, y.flag) == (0.3, 1.0, "too_hard")
    assert analyse(["x"], [r(1, "x", 0, True)]).items[0].discrimination is None  # one sitting


def test_flags_need_five_students() -> None:
    # everyone right: too easy, but only once five different students answered
    def answers(users: range) -> list[Response]:
        return [r(u, q, 0, True) for u in users for q in ("x", "y")]

    few = analyse(["x", "y"], answers(range(1, 5))).items
    assert [(i.students, i.share_right, i.flag) for i in few] == [(4, 1.0, None)] * 2
    many = analyse(["x", "y"], answers(range(1, 6))).items
    assert [(i.students, i.flag) for i in many] == [(5, "too_easy")] * 2
    # one student answering five times (five runs) is still one student
    again = analyse(["x"], [Response(run, 1, "x", 0, True) for run in range(1, 6)]).items[0]
    assert (again.answered, again.students, again.flag) == (5, 1, None)


def g(
    q: int, option: int, correct: bool, points: int, after: float, posted: float | None = 100.0
) -> Graded:
    """An answer of user 7 in run 1 to question q (id "q<q>"), ``after`` seconds in."""
    return Graded(1, q, f"q{q}", 7, option, correct, points, (posted or 100.0) + after, posted, 30)


# One student, 30 s per question: right at once (1000), right after 6 s (900 + streak 100),
# wrong after 12 s, right after 15 s (750; the streak restarted).
SITTING = [
    g(0, 1, True, 1000, 0),
    g(1, 2, True, 1000, 6),
    g(2, 0, False, 0, 12),
    g(3, 3, True, 750, 15),
]


def keys(**options: int) -> dict[str, Question]:
    """Questions q0..q3 (four options) keyed as given: ``q2=0`` makes option 0 its key."""
    texts = tuple(Option(str(i), str(i)) for i in range(4))
    return {
        qid: Question(qid, int(qid[1:]) + 1, Text(qid, qid), texts, right, None)
        for qid, right in options.items()
    }


def test_rescoring_by_hand() -> None:
    # question 3's key becomes option 0: its answer is right (800 for 12 s) and the streak now
    # runs through: +200 on it, +300 on the next (750 + 300)
    changes = rescore(SITTING, keys(q2=0))
    assert [(c.q_index, c.correct, c.points) for c in changes] == [(2, True, 1000), (3, True, 1050)]
    # question 2's key becomes option 3: its answer is wrong (0); the streak bonus it carried
    # goes; question 4 keeps 750 (its streak was already broken by question 3)
    changes = rescore(SITTING, keys(q1=3))
    assert [(c.q_index, c.correct, c.points) for c in changes] == [(1, False, 0)]
    # the same key as stored: nothing changes
    assert rescore(SITTING, keys(q0=1, q1=2, q2=1)) == []


def test_rescoring_twice_changes_nothing_more() -> None:
    first = rescore(SITTING, keys(q2=0))
    updated = {(c.q_index): c for c in first}
    after = [
        Graded(
            a.run_id,
            a.q_index,
            a.question_id,
            a.user_id,
            a.option,
            updated[a.q_index].correct if a.q_index in updated else a.correct,
            updated[a.q_index].points if a.q_index in updated else a.points,
            a.answered_at,
            a.posted_at,
            a.seconds,
        )
        for a in SITTING
    ]
    assert rescore(after, keys(q2=0)) == []


def test_an_old_answer_without_its_question_time_gets_the_minimum() -> None:
    old = [g(0, 1, False, 0, 3, posted=None)]
    assert [(c.correct, c.points) for c in rescore(old, keys(q0=1))] == [(True, 500)]


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.builds(
            homework_buttons.HomeworkAnswerData,
            st.integers(1, 2**53 - 1),
            st.integers(0, 999),
            st.integers(0, 9),
        ),
        st.builds(homework_buttons.HomeworkStopData, st.integers(1, 2**53 - 1)),
        st.builds(
            callbacks.ReportData,
            st.integers(1, 2**53 - 1),
            st.integers(0, 999),
            st.sampled_from([None, "key", "unclear", "typo"]),
        ),
        st.builds(callbacks.CardReportData, st.integers(1, 2**53 - 1)),
        st.builds(
            RunRegradeData,
            st.integers(1, 2**53 - 1),
            st.integers(1, 999),
            st.one_of(
                st.integers(0, 9).map(str),
                st.sampled_from(["#3.14:0.02", "#-2:0", "#1e-05:0.5"]),
                st.from_regex(r"\+[0-9a-f]{10}", fullmatch=True),
            ),
            st.sampled_from("pyn"),
        ),
        st.builds(
            RegradeData,
            st.from_regex(r"[a-z0-9][a-z0-9_-]{0,31}|u\.[1-9][0-9]{0,15}", fullmatch=True),
            st.integers(0, 999),
            st.one_of(
                st.sets(st.integers(0, 9), min_size=1).map(lambda s: "".join(map(str, sorted(s)))),
                st.sampled_from(["#3.14:0.01", "#-2:0", "#3:2", "#1e-05:0"]),
                st.from_regex(r"\+[0-9a-f]{10}", fullmatch=True),
            ),
            st.booleans(),
        ),
        st.builds(
            callbacks.PickData,
            st.sampled_from(["quiz", "homework", "regrade", "analysis", "deletequiz"]),
            st.from_regex(r"[a-z0-9][a-z0-9_-]{0,31}|u\.[1-9][0-9]{0,15}", fullmatch=True),
        ),
    )
)
def test_teacher_callbacks_round_trip(data: callbacks.CallbackData) -> None:
    raw = callbacks.encode(data)
    assert len(raw.encode()) <= callbacks.MAX_BYTES
    assert callbacks.parse(raw) == data


@pytest.mark.parametrize(
    "raw",
    [
        "h:0:1:1",
        "h:1:1000:1",
        "h:1:1:10",
        "hs:0",
        "hs:x",
        "p:1:1:z",
        "p:1:01",
        "p:1:1:k:k",
        "pc:",
        "pc:-3",
        "rr:0:1:1:p",
        "rr:1:0:1:p",
        "rr:1:1:1:x",
        "rr:1:1:10:y",
        "rr:1:1:+abc:p",
        "rr:1:1:+0123456789a:p",
        "rr:9007199254740993:1:0:y",
        "rg:../x:1:1:y",
        "k:quiz:",
        "k:QUIZ:zero",
        "p:9007199254740993:0",
    ],
)
def test_forged_teacher_callbacks_are_refused(raw: str) -> None:
    assert callbacks.parse(raw) is None


# --- every question type ---------------------------------------------------------------------


def test_partial_credit_pick_rates_and_common_wrong_typed_answers() -> None:
    """Share right and D are on the credit scored; a several-answers question gets each
    option's pick rate, a typed one its most common wrong answers, normalised."""
    several = Question(
        "m", 1, Text("?", "?"), tuple(Option(x, x) for x in "WXYZ"), 0, None,
        kind="multiple", rights=(0, 2),
    )  # fmt: skip
    typed = Question(
        "s", 2, Text("?", "?"), (), 0, None, kind="short", accepted=(Accepted("Skin"),)
    )
    answers = [
        Response(1, 1, "m", 0, True, given="AC"),
        Response(1, 2, "m", 0, False, given="A", credit=0.5),
        Response(1, 3, "m", 1, False, given="BD"),
        Response(1, 4, "m", 0, False, given="AB", credit=0.0),
        Response(1, 1, "s", -1, True, given="skin"),
        Response(1, 2, "s", -1, False, given="Liver"),
        Response(1, 3, "s", -1, False, given="  LIVER "),
        Response(1, 4, "s", -1, False, given="heart"),
    ]
    result = analyse(["m", "s"], answers, {"m": several, "s": typed})
    m, s = result.items
    assert m.share_right == pytest.approx(1.5 / 4)  # 1 + 0.5 + 0 + 0
    assert m.right == 1
    assert m.pick_rates == (0.75, 0.5, 0.25, 0.25)
    assert m.wrong_option is None  # several options: pick rates say it, not one option
    assert s.share_right == 0.25
    assert s.wrong_typed == (("liver", 2), ("heart", 1))
    # D on credit: u1 (rest 1) is the top sitting (n = 1), u4 (rest 0, highest id) the bottom
    assert m.discrimination == pytest.approx(1.0 - 0.0)
    assert s.discrimination == pytest.approx(1.0 - 0.0)
