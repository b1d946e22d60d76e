"""``/help``: a heading per kind of user and a line per command (see ``bot.registry``)."""

from __future__ import annotations

from bot.bank import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    "help_students": {"bn": "<b>শিক্ষার্থীদের কমান্ড</b>", "en": "<b>Commands for students</b>"},
    "help_moderators": {"bn": "<b>মডারেটরদের কমান্ড</b> (গ্রুপের অ্যাডমিন)",
                        "en": "<b>Commands for moderators</b> (the group's admins)"},
    "help_admins": {"bn": "<b>বট পরিচালকদের কমান্ড</b>",
                    "en": "<b>Commands for the bot's operators</b>"},
    "help_quiz": {"bn": "/quiz — কুইজের তালিকা; প্রাইভেট চ্যাটে <code>/quiz নাম</code> দিয়ে "
                        "অনুশীলন",
                  "en": "/quiz — the list of quizzes; in a private chat <code>/quiz NAME</code> "
                        "to practise"},
    "help_leaderboard": {"bn": "/leaderboard বা /top — গ্রুপের র‍্যাঙ্কিং "
                               "(<code>/leaderboard zero</code>, "
                               "<code>/leaderboard season 1</code>)",
                         "en": "/leaderboard or /top — the group's ranking "
                               "(<code>/leaderboard zero</code>, "
                               "<code>/leaderboard season 1</code>)"},
    "help_me": {"bn": "/me — আপনার পরিসংখ্যান", "en": "/me — your stats"},
    "help_review": {"bn": "/review — ভুল হওয়া বা বাদ পড়া প্রশ্ন ১, ৩, ৭, ১৪ ও ৩০ দিন পরপর "
                          "ঝালিয়ে নিন (প্রাইভেট চ্যাটে)",
                    "en": "/review — spaced review of the questions you missed, after 1, 3, 7, "
                          "14 and 30 days (in a private chat)"},
    "help_remind": {"bn": "<code>/remind 20:30</code> বা /remind off — রিভিউয়ের দৈনিক রিমাইন্ডার",
                    "en": "<code>/remind 20:30</code> or /remind off — a daily review reminder"},
    "help_recap": {"bn": "/recap on বা /recap off — প্রতিটি গ্রুপ কুইজের পরে প্রাইভেটে আপনার "
                         "স্কোর, র‍্যাঙ্ক আর ভুল প্রশ্নের ব্যাখ্যা",
                   "en": "/recap on or /recap off — after each group quiz, your score, rank and "
                         "the questions you missed with explanations, in private"},
    "help_lang": {"bn": "/lang bn বা /lang en — ভাষা (প্রাইভেট চ্যাটে)",
                  "en": "/lang bn or /lang en — language (in a private chat)"},
    "help_help": {"bn": "/help — এই তালিকা", "en": "/help — this list"},
    "help_quiz_mod": {"bn": "<code>/quiz নাম [সেকেন্ড]</code> — কুইজ শুরু (প্রতি প্রশ্নে ৫–৬০০ "
                            "সেকেন্ড)",
                      "en": "<code>/quiz NAME [SECONDS]</code> — start a quiz (5–600 seconds "
                            "per question)"},
    "help_next": {"bn": "/next — চলতি প্রশ্ন এখনই বন্ধ করে পরেরটি",
                  "en": "/next — close the current question now and go on"},
    "help_stop": {"bn": "/stop — কুইজ এখনই শেষ করে ফলাফল",
                  "en": "/stop — end the quiz now and post the results"},
    "help_reset": {"bn": "/resetleaderboard — নতুন সিজন শুরু (পুরোনোটা থেকে যায়)",
                   "en": "/resetleaderboard — start a new season (the old one is kept)"},
    "help_export": {"bn": "/export — গ্রুপের ফলাফল CSV ফাইলে",
                    "en": "/export — the group's results as a CSV file"},
    "help_lang_mod": {"bn": "/lang bn বা /lang en — গ্রুপের ভাষা",
                      "en": "/lang bn or /lang en — the group's language"},
    "not_admin": {"bn": "এটি শুধু বটের পরিচালকরা করতে পারেন।",
                  "en": "Only the bot's operators can do that."},
}
