"""Every user-facing string, in Bengali and English.

Texts are ``str.format`` templates of Telegram HTML (they may hold tags). ``t()`` picks the
language, formats numbers with Bengali digits in Bengali, and escapes every value it fills in
unless the value is :class:`bot.markup.Safe` (rendered by ``bot.render``). Callers pass raw
text, never escaped text. Alerts (callback answers) are plain text: ``t_plain()``.
"""

from __future__ import annotations

from typing import Any

from bot.bank import LANGS, Lang
from bot.markup import Safe, check_value, escape

_BN_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
_ASCII_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")


def num(lang: Lang, value: int | float | str) -> str:
    """A number as a reader of ``lang`` writes it (Bengali digits in Bengali)."""
    text = str(value)
    return text.translate(_BN_DIGITS) if lang == "bn" else text


def ascii_digits(text: str) -> str:
    """Bengali digits a user typed (``৩০``) as ASCII digits (``30``)."""
    return text.translate(_ASCII_DIGITS)


def parse_lang(value: str | None) -> Lang | None:
    """'bn', 'en', 'bn-BD', 'English', 'বাংলা' ... → a supported language, or None."""
    if not value:
        return None
    v = value.strip().casefold()
    if v in ("bn", "বাংলা", "bangla", "bengali") or v.startswith("bn-") or v.startswith("bn_"):
        return "bn"
    if v in ("en", "english", "ইংরেজি") or v.startswith("en-") or v.startswith("en_"):
        return "en"
    return None


def t(lang: Lang, key: str, **values: Any) -> Safe:
    """The HTML text ``key`` in ``lang``, with ``values`` filled in: numbers localised, every
    other value escaped unless it is ``Safe``."""
    template = MESSAGES[key][lang]
    if not values:
        return Safe(template)
    for name, value in values.items():
        check_value(key, name, value)
    return Safe(template.format(**{k: escape(_localised(lang, v)) for k, v in values.items()}))


def t_plain(lang: Lang, key: str, **values: Any) -> str:
    """The plain text ``key`` in ``lang`` (a callback alert: no HTML), values as they are."""
    return MESSAGES[key][lang].format(**{k: _localised(lang, v) for k, v in values.items()})


def _localised(lang: Lang, value: Any) -> Any:
    return num(lang, value) if isinstance(value, int) and not isinstance(value, bool) else value


MESSAGES: dict[str, dict[Lang, str]] = {
    # --- greeting and help -------------------------------------------------------------------
    "start": {
        "bn": "👋 স্বাগতম! আমি <b>quizbot</b>, গ্রুপে MCQ কুইজ চালাই।\n\n"
              "গ্রুপে মডারেটর <code>/quiz zero</code> লিখলে প্রশ্ন একে একে আসবে; "
              "উত্তরের বোতামে চাপ দিলেই আপনি একান্তে জানবেন ঠিক হলো কি না, আর কেন।\n\n"
              "এখানে একা অনুশীলনও করতে পারেন: <code>/quiz</code> লিখুন। সব কমান্ড: /help",
        "en": "👋 Hello! I'm <b>quizbot</b>: I run multiple-choice quizzes in groups.\n\n"
              "When a moderator types <code>/quiz zero</code> in a group, questions come one at "
              "a time; tap an answer button and you privately see whether you were right, "
              "and why.\n\nYou can also practise here on your own: type <code>/quiz</code>. "
              "All commands: /help",
    },
    # --- command list shown by Telegram (plain text, at most 256 characters each) -----------
    "cmd_quiz": {"bn": "কুইজের তালিকা বা অনুশীলন", "en": "List quizzes or practise one"},
    "cmd_quiz_mod": {"bn": "কুইজ শুরু: /quiz নাম [সেকেন্ড]", "en": "Start a quiz: /quiz NAME [SECONDS]"},
    "cmd_top": {"bn": "গ্রুপের লিডারবোর্ড", "en": "The group's leaderboard"},
    "cmd_me": {"bn": "আপনার পরিসংখ্যান", "en": "Your stats"},
    "cmd_lang": {"bn": "ভাষা বদলান: bn বা en", "en": "Change language: bn or en"},
    "cmd_help": {"bn": "সাহায্য ও কমান্ডের তালিকা", "en": "Help and the list of commands"},
    "cmd_start": {"bn": "শুরু করুন", "en": "Get started"},
    "cmd_next": {"bn": "চলতি প্রশ্ন বন্ধ করে পরেরটি", "en": "Close this question, go on"},
    "cmd_stop": {"bn": "কুইজ শেষ করে ফলাফল", "en": "End the quiz, post results"},
    "cmd_reset": {"bn": "নতুন লিডারবোর্ড সিজন", "en": "Start a new leaderboard season"},
    "cmd_export": {"bn": "ফলাফল CSV ফাইলে", "en": "Results as a CSV file"},
    # --- starting a quiz ---------------------------------------------------------------------
    "quiz_list": {"bn": "📚 <b>কুইজসমূহ</b> — শুরু করতে একটি বেছে নিন:",
                  "en": "📚 <b>Quizzes</b> — pick one to start:"},
    "quiz_list_item": {"bn": "• <code>{id}</code> — {title} ({count}টি প্রশ্ন)",
                       "en": "• <code>{id}</code> — {title} ({count} questions)"},
    "quiz_none": {"bn": "এখনো কোনো কুইজ নেই।", "en": "There are no quizzes yet."},
    "quiz_usage": {
        "bn": "ব্যবহার: <code>/quiz নাম [সেকেন্ড]</code>, সেকেন্ড {low} থেকে {high}-এর মধ্যে "
              "একটি পূর্ণসংখ্যা। যেমন: <code>/quiz zero 30</code>",
        "en": "Usage: <code>/quiz NAME [SECONDS]</code>, SECONDS a whole number from {low} to "
              "{high}. For example: <code>/quiz zero 30</code>",
    },
    "quiz_unknown": {"bn": "এই নামে কোনো কুইজ নেই। আছে: {names}",
                     "en": "There is no quiz by that name. Available: {names}"},
    "quiz_running": {"bn": "এখানে একটি কুইজ চলছে। আগে /stop দিয়ে সেটি শেষ করুন।",
                     "en": "A quiz is already running here. End it with /stop first."},
    "quiz_not_running": {"bn": "এখানে এখন কোনো কুইজ চলছে না।",
                         "en": "No quiz is running here."},
    "not_moderator": {"bn": "এটি শুধু গ্রুপের অ্যাডমিনরা করতে পারেন।",
                      "en": "Only the group's admins can do that."},
    "announce": {
        "bn": "📝 <b>{title}</b>\n{count}টি প্রশ্ন · প্রতিটিতে {seconds} সেকেন্ড\n\n"
              "বোতামে চাপ দিয়ে উত্তর দিন; শুধু প্রথম চাপটিই গোনা হবে। "
              "যত দ্রুত সঠিক উত্তর, তত বেশি পয়েন্ট (৫০০–১০০০); টানা সঠিক উত্তরে বোনাস "
              "(প্রতিটিতে +১০০, সর্বোচ্চ +৫০০)।",
        "en": "📝 <b>{title}</b>\n{count} questions · {seconds} seconds each\n\n"
              "Tap a button to answer; only your first tap counts. "
              "The faster a right answer, the more points (500–1000); right answers in a row "
              "earn a streak bonus (+100 each, up to +500).",
    },
    # --- a question and its reveal -----------------------------------------------------------
    "question_head": {"bn": "❓ <b>প্রশ্ন {n}/{total}</b>", "en": "❓ <b>Question {n}/{total}</b>"},
    "question_timer": {"bn": "⏱ {seconds} সেকেন্ড · উত্তর দিয়েছেন {answered} জন",
                       "en": "⏱ {seconds} seconds · {answered} answered"},
    "question_untimed": {"bn": "উত্তর বেছে নিন:", "en": "Pick an answer:"},
    "reveal_head": {
        "bn": "🔒 <b>প্রশ্ন {n}/{total}</b> — বন্ধ",
        "en": "🔒 <b>Question {n}/{total}</b> — closed"},
    "reveal_answer": {
        "bn": "✅ সঠিক উত্তর: <b>{label}</b>",
        "en": "✅ Right answer: <b>{label}</b>"},
    "reveal_stats": {"bn": "👥 {answered} জন উত্তর দিয়েছেন, {right} জন সঠিক",
                     "en": "👥 {answered} answered, {right} right"},
    # --- tap alerts (plain text, at most 200 characters) -------------------------------------
    "alert_right": {"bn": "✅ সঠিক! +{points} পয়েন্ট", "en": "✅ Right! +{points} points"},
    "alert_wrong": {"bn": "❌ ভুল। ০ পয়েন্ট", "en": "❌ Wrong. 0 points"},
    "alert_right_practice": {"bn": "✅ সঠিক!", "en": "✅ Right!"},
    "alert_wrong_practice": {
        "bn": "❌ ভুল। সঠিক উত্তর {label}",
        "en": "❌ Wrong. The answer is {label}"},
    "alert_again": {"bn": "আপনি আগেই {label} বেছে নিয়েছেন; শুধু প্রথম চাপটিই গোনা হয়।",
                    "en": "You already chose {label}; only your first tap counts."},
    "alert_closed": {"bn": "⌛ এই প্রশ্নের সময় শেষ।", "en": "⌛ This question is closed."},
    "alert_over": {"bn": "এই কুইজ শেষ হয়ে গেছে।", "en": "This quiz is over."},
    "alert_invalid": {"bn": "এই বোতামটি আর কাজ করে না।", "en": "This button is no longer valid."},
    "alert_error": {"bn": "দুঃখিত, উত্তরটি রাখা গেল না। আবার চাপ দিন।",
                    "en": "Sorry, your answer could not be saved. Please tap again."},
    "alert_mod_only": {"bn": "শুধু গ্রুপের অ্যাডমিনরা কুইজ শুরু করতে পারেন।",
                       "en": "Only the group's admins can start a quiz."},
    # --- results -------------------------------------------------------------------------------
    "results_head": {"bn": "🏁 <b>{title}</b> — ফলাফল", "en": "🏁 <b>{title}</b> — results"},
    "results_stopped": {"bn": "(মডারেটর কুইজটি আগেই শেষ করেছেন)",
                        "en": "(a moderator ended the quiz early)"},
    "results_line": {"bn": "{rank}. {name} — {points} পয়েন্ট, {correct}/{total} সঠিক",
                     "en": "{rank}. {name} — {points} points, {correct}/{total} right"},
    "results_nobody": {"bn": "কেউ উত্তর দেননি।", "en": "Nobody answered."},
    "results_footer": {"bn": "সবাইকে ধন্যবাদ! গ্রুপের র‍্যাঙ্কিং: /leaderboard",
                       "en": "Thanks, everyone! The group's ranking: /leaderboard"},
    # --- private practice ------------------------------------------------------------------------
    "practice_pick": {"bn": "📚 অনুশীলনের জন্য একটি কুইজ বেছে নিন:",
                      "en": "📚 Pick a quiz to practise:"},
    "practice_score": {"bn": "🏁 অনুশীলন শেষ। স্কোর: {right}/{total}",
                       "en": "🏁 Practice finished. Score: {right}/{total}"},
    "practice_restart": {"bn": "আবার খেলতে: <code>/quiz {id}</code>",
                         "en": "To play again: <code>/quiz {id}</code>"},
    "quiz_usage_play": {"bn": "এর মধ্যে একটি লিখুন: {labels}", "en": "Type one of: {labels}"},
    # --- leaderboards and stats ---------------------------------------------------------------
    "lb_head": {"bn": "🏆 <b>লিডারবোর্ড</b> — সিজন {season}",
                "en": "🏆 <b>Leaderboard</b> — season {season}"},
    "lb_quiz": {"bn": "কুইজ: <code>{quiz}</code>", "en": "Quiz: <code>{quiz}</code>"},
    "lb_line": {"bn": "{rank}. {name} — {points} পয়েন্ট · {correct}টি সঠিক · {runs}টি কুইজ",
                "en": "{rank}. {name} — {points} points · {correct} right · {runs} quizzes"},
    "lb_empty": {"bn": "এই সিজনে এখনো কেউ পয়েন্ট পাননি। একটি কুইজ চালান: /quiz",
                 "en": "Nobody has scored this season yet. Run a quiz: /quiz"},
    "lb_players": {"bn": "মোট খেলোয়াড়: {count} জন", "en": "Players: {count}"},
    "lb_usage": {"bn": "ব্যবহার: <code>/leaderboard</code>, <code>/leaderboard কুইজ</code> বা "
                       "<code>/leaderboard season N</code>",
                 "en": "Usage: <code>/leaderboard</code>, <code>/leaderboard QUIZ</code> or "
                       "<code>/leaderboard season N</code>"},
    "lb_private": {"bn": "🏆 <b>আপনার গ্রুপগুলো</b>", "en": "🏆 <b>Your groups</b>"},
    "lb_private_line": {"bn": "• {title}: {rank} নম্বরে, {points} পয়েন্ট",
                        "en": "• {title}: rank {rank}, {points} points"},
    "lb_private_none": {"bn": "আপনি এখনো কোনো গ্রুপ কুইজে খেলেননি। লিডারবোর্ড দেখতে গ্রুপে "
                              "<code>/leaderboard</code> লিখুন।",
                        "en": "You haven't played a group quiz yet. Use <code>/leaderboard</code> "
                              "in a group to see its ranking."},
    "me_group": {"bn": "📊 <b>{name}</b>\nর‍্যাঙ্ক: {rank} · {points} পয়েন্ট\n"
                       "সঠিক: {correct}/{answered} ({accuracy}%) · {runs}টি কুইজ",
                 "en": "📊 <b>{name}</b>\nRank: {rank} · {points} points\n"
                       "Right: {correct}/{answered} ({accuracy}%) · {runs} quizzes"},
    "me_none": {"bn": "এই গ্রুপে আপনি এখনো কোনো প্রশ্নের উত্তর দেননি।",
                "en": "You haven't answered a question in this group yet."},
    "me_private_head": {"bn": "📊 <b>আপনার পরিসংখ্যান</b>", "en": "📊 <b>Your stats</b>"},
    "me_practice": {"bn": "অনুশীলন: {answered}টি প্রশ্নে {correct}টি সঠিক",
                    "en": "Practice: {correct} right of {answered}"},
    "me_weak_head": {"bn": "সবচেয়ে বেশি ভুল হওয়া প্রশ্ন:", "en": "Questions you miss most:"},
    "me_weak_line": {"bn": "• {quiz} / {question}: {tries} বারে {wrong} বার ভুল",
                     "en": "• {quiz} / {question}: wrong {wrong} of {tries} times"},
    "reset_confirm": {"bn": "সিজন {season} শেষ করে নতুন সিজন শুরু করবেন? পুরোনো ফলাফল মুছবে না; "
                            "<code>/leaderboard season {season}</code> দিয়ে দেখা যাবে।",
                      "en": "End season {season} and start a new one? Old results are kept; "
                            "<code>/leaderboard season {season}</code> still shows them."},
    "reset_yes": {"bn": "হ্যাঁ, নতুন সিজন", "en": "Yes, new season"},
    "reset_no": {"bn": "বাতিল", "en": "Cancel"},
    "reset_done": {"bn": "✅ সিজন {season} শুরু হলো। শুভকামনা!",
                   "en": "✅ Season {season} has started. Good luck!"},
    "reset_cancelled": {"bn": "বাতিল করা হয়েছে; লিডারবোর্ড যেমন ছিল তেমনই আছে।",
                        "en": "Cancelled; the leaderboard is unchanged."},
    "reset_stale": {"bn": "এই বোতামটি পুরোনো।", "en": "This button is out of date."},
    "export_caption": {"bn": "📄 গ্রুপের সব ফলাফল (প্রতি কুইজে প্রতি শিক্ষার্থীর এক সারি)",
                       "en": "📄 The group's results (one row per student per quiz)"},
    "export_empty": {"bn": "এই গ্রুপে এখনো কোনো কুইজ হয়নি।",
                     "en": "No quiz has been run in this group yet."},
    # --- language ------------------------------------------------------------------------------
    "lang_set": {
        "bn": "ঠিক আছে, এখন থেকে বাংলায় লিখব।",
        "en": "OK, I'll write in English from now on."},
    "lang_usage": {"bn": "ব্যবহার: <code>/lang bn</code> বা <code>/lang en</code>",
                   "en": "Usage: <code>/lang bn</code> or <code>/lang en</code>"},
    # --- after the quiz: streaks, private recaps, spaced review, reminders -------------------
    "alert_streak": {"bn": " · 🔥 টানা {streak}টি সঠিক (+{bonus})",
                     "en": " · 🔥 streak {streak} (+{bonus})"},
    "results_streak": {"bn": "🔥 সবচেয়ে লম্বা স্ট্রিক: {name}, টানা {streak}টি সঠিক",
                       "en": "🔥 Longest streak: {name}, {streak} right in a row"},
    "recap_button": {"bn": "📬 আমার সারসংক্ষেপ (প্রাইভেটে)", "en": "📬 My recap (in private)"},
    "recap_head": {"bn": "📬 <b>{title}</b> — আপনার সারসংক্ষেপ",
                   "en": "📬 <b>{title}</b> — your recap"},
    "recap_score": {"bn": "{points} পয়েন্ট · {correct}/{total} সঠিক · {players} জনের মধ্যে "
                          "{rank} নম্বরে",
                    "en": "{points} points · {correct}/{total} right · rank {rank} of {players}"},
    "recap_streak": {"bn": "🔥 আপনার সবচেয়ে লম্বা স্ট্রিক: টানা {streak}টি সঠিক",
                     "en": "🔥 Your longest streak: {streak} right in a row"},
    "recap_perfect": {"bn": "🎯 একটি প্রশ্নও বাদ যায়নি, ভুলও হয়নি। দারুণ!",
                      "en": "🎯 Not one question missed. Well done!"},
    "recap_missed_head": {"bn": "<b>যে প্রশ্নগুলো আবার দেখে নেওয়া দরকার ({count}টি):</b>",
                          "en": "<b>Questions to go over ({count}):</b>"},
    "recap_wrong": {"bn": "❌ <b>প্রশ্ন {n}</b> — আপনি বেছেছিলেন {label}",
                    "en": "❌ <b>Question {n}</b> — you chose {label}"},
    "recap_skipped": {"bn": "⏭ <b>প্রশ্ন {n}</b> — উত্তর দেননি",
                      "en": "⏭ <b>Question {n}</b> — not answered"},
    "recap_right": {"bn": "✅ সঠিক উত্তর: {label}) {answer}",
                    "en": "✅ Right answer: {label}) {answer}"},
    "recap_review": {"bn": "এই প্রশ্নগুলো আগামীকাল থেকে /review-এ আবার আসবে।",
                     "en": "These questions come back in /review, starting tomorrow."},
    "recap_footer": {"bn": "সারসংক্ষেপ চাই না? /recap off",
                     "en": "Don't want recaps? /recap off"},
    "recap_none": {"bn": "ওই কুইজে আপনার কোনো উত্তর নেই, তাই সারসংক্ষেপও নেই।",
                   "en": "You didn't answer in that quiz, so there is no recap for you."},
    "recap_on": {"bn": "✅ প্রতিটি গ্রুপ কুইজের পরে আপনাকে প্রাইভেটে সারসংক্ষেপ পাঠাব।",
                 "en": "✅ You'll get a private recap after each group quiz."},
    "recap_off": {"bn": "🔕 আর সারসংক্ষেপ পাঠাব না। আবার চালু করতে: /recap on",
                  "en": "🔕 No more recaps. To turn them back on: /recap on"},
    "recap_usage": {"bn": "ব্যবহার: <code>/recap on</code> বা <code>/recap off</code> — গ্রুপ কুইজের "
                          "পরে প্রাইভেট সারসংক্ষেপ চালু বা বন্ধ।",
                    "en": "Usage: <code>/recap on</code> or <code>/recap off</code> — private "
                          "recaps after group quizzes, on or off."},
    "private_only": {"bn": "এই কমান্ডটি আমার সঙ্গে প্রাইভেট চ্যাটে ব্যবহার করুন।",
                     "en": "Use this command in a private chat with me."},
    "review_head": {"bn": "🔁 <b>রিভিউ</b> · {quiz} · বাক্স {box}/{boxes} · এখন বাকি {due}টি",
                    "en": "🔁 <b>Review</b> · {quiz} · box {box}/{boxes} · {due} due now"},
    "review_empty": {"bn": "রিভিউ করার মতো কিছু এখনো নেই। কুইজ বা অনুশীলনে যে প্রশ্ন ভুল হয় বা বাদ "
                           "যায়, সেগুলো ১, ৩, ৭, ১৪ ও ৩০ দিন পরপর এখানে ফিরে আসে।",
                     "en": "Nothing to review yet. Questions you miss in quizzes and practice come "
                           "back here after 1, 3, 7, 14 and 30 days."},
    "review_nothing_due": {"bn": "🎉 এখন রিভিউ করার কিছু নেই। পরের প্রশ্ন আসবে {when}।",
                           "en": "🎉 Nothing to review right now. The next question is due "
                                 "{when}."},
    "review_up": {"bn": "বাক্স {box}/{boxes}: আবার আসবে {days} দিন পরে।",
                  "en": "Box {box}/{boxes}: back in {days} days."},
    "review_learnt": {"bn": "🎓 শেখা হয়ে গেছে! এটি আর ফিরবে না।",
                      "en": "🎓 Learnt! This one won't come back."},
    "review_reset": {"bn": "বাক্স ১-এ ফিরল: আবার আসবে আগামীকাল।",
                     "en": "Back to box 1: it comes back tomorrow."},
    "review_done": {"bn": "🏁 রিভিউ শেষ: {answered}টির মধ্যে {right}টি সঠিক।",
                    "en": "🏁 Review finished: {right} of {answered} right."},
    "review_more": {"bn": "এখনো বাকি {due}টি: আবার /review",
                    "en": "{due} more due now: /review again"},
    "review_next": {"bn": "এখন আর কিছু বাকি নেই। পরের প্রশ্ন আসবে {when}।",
                    "en": "None left due now. The next question is due {when}."},
    "review_all_learnt": {"bn": "এখন আর কিছু বাকি নেই, পরেও কিছু নির্ধারিত নেই।",
                          "en": "None left due now, and none scheduled."},
    "review_stale": {"bn": "এই প্রশ্নের উত্তর আগেই দেওয়া হয়েছে। চালিয়ে যেতে: /review",
                     "en": "This question was already answered. To go on: /review"},
    "when_soon": {"bn": "এক ঘণ্টার মধ্যে", "en": "within an hour"},
    "when_hours": {"bn": "প্রায় {n} ঘণ্টা পরে", "en": "in about {n} hours"},
    "when_day": {"bn": "এক দিন পরে", "en": "in a day"},
    "when_days": {"bn": "{n} দিন পরে", "en": "in {n} days"},
    "remind_usage": {"bn": "ব্যবহার: <code>/remind ঘণ্টা:মিনিট</code> "
                           "(যেমন <code>/remind 20:30</code>) "
                           "— যেদিন রিভিউয়ের প্রশ্ন থাকবে সেদিন ওই সময়ে একটি ছোট বার্তা; "
                           "<code>/remind off</code> — বন্ধ। সময় অঞ্চল বদলাতে: "
                           "<code>/remind 20:30 +6</code>",
                     "en": "Usage: <code>/remind HH:MM</code> (e.g. <code>/remind 20:30</code>) — "
                           "one short message at that time on days with questions to review; "
                           "<code>/remind off</code> — stop. To change your time zone: "
                           "<code>/remind 20:30 +6</code>"},
    "remind_ask_tz": {"bn": "আপনি কোন সময় অঞ্চলে আছেন? একটি বেছে নিন, অথবা UTC থেকে পার্থক্য লিখে "
                            "পাঠান: <code>/remind {time} +5:45</code>",
                      "en": "Which time zone are you in? Pick one, or send your offset from UTC: "
                            "<code>/remind {time} +5:45</code>"},
    "tz_bd": {"bn": "বাংলাদেশ (UTC+৬)", "en": "Bangladesh (UTC+6)"},
    "tz_in": {"bn": "ভারত (UTC+৫:৩০)", "en": "India (UTC+5:30)"},
    "tz_utc": {"bn": "UTC", "en": "UTC"},
    "remind_set": {"bn": "⏰ ঠিক আছে: যেদিন রিভিউয়ের প্রশ্ন থাকবে, সেদিন {time}-এ (UTC{offset}) "
                         "মনে করিয়ে দেব।",
                   "en": "⏰ Done: on days with questions to review I'll remind you at {time} "
                         "(UTC{offset})."},
    "remind_off": {"bn": "🔕 রিমাইন্ডার বন্ধ।", "en": "🔕 Reminder off."},
    "remind_message": {"bn": "📚 আজ রিভিউয়ের জন্য প্রশ্ন অপেক্ষা করছে: {due}টি। /review",
                       "en": "📚 Questions due for review today: {due}. /review"},
    "cmd_review": {"bn": "ভুল হওয়া প্রশ্নগুলো রিভিউ", "en": "Review the questions you missed"},
    "cmd_recap": {"bn": "কুইজের পরের সারসংক্ষেপ: on বা off", "en": "Recaps after quizzes: on or off"},
    "cmd_remind": {"bn": "রিভিউয়ের রিমাইন্ডার: /remind ঘণ্টা:মিনিট",
                   "en": "Review reminder: /remind HH:MM"},
    # --- errors --------------------------------------------------------------------------------
    "apology": {"bn": "দুঃখিত, কিছু একটা ভুল হয়েছে। একটু পরে আবার চেষ্টা করুন।",
                "en": "Sorry, something went wrong. Please try again in a moment."},
    "group_only": {"bn": "এই কমান্ডটি গ্রুপে ব্যবহার করুন।", "en": "Use this command in a group."},
}


def check_catalog() -> list[str]:
    """Problems in the catalog: a missing language or placeholders that differ."""
    import string

    problems = []
    for key, texts in MESSAGES.items():
        if set(texts) != set(LANGS):
            problems.append(f"{key}: languages {sorted(texts)}")
            continue
        fields = [
            {f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f}
            for lang in LANGS
        ]
        if any(f != fields[0] for f in fields):
            problems.append(f"{key}: placeholders differ {fields}")
    return problems


from bot import strings_help  # noqa: E402  (feature strings join the catalog last)

MESSAGES.update(strings_help.MESSAGES)
