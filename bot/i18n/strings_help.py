"""``/help``: a heading per kind of user and a line per command (see ``bot.handlers.registry``)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    "help_students": {"bn": "<b>শিক্ষার্থীদের কমান্ড</b>", "en": "<b>Commands for students</b>"},
    "help_moderators": {
        "bn": "<b>গ্রুপের মডারেটরদের কমান্ড</b> (গ্রুপের অ্যাডমিনরাই মডারেটর)",
        "en": "<b>Commands for moderators</b> (the group's admins)",
    },
    "help_teachers": {
        "bn": "<b>শিক্ষকদের কমান্ড</b> (কুইজ লেখা, শেয়ার, হোমওয়ার্ক, বিশ্লেষণ)",
        "en": "<b>Commands for teachers</b> (write, share, homework, analysis)",
    },
    "help_teacher_flow": {
        "bn": "আমার সঙ্গে প্রাইভেট চ্যাটে /newquiz দিয়ে কুইজ লিখুন বা প্রশ্নের ফাইল পাঠান; "
        "সংরক্ষণের পর বাটন দিয়ে গ্রুপে শুরু করুন, হোমওয়ার্ক দিন বা শেয়ার করুন। "
        "কুইজের নাম, শিরোনাম বা তালিকার নম্বর—যেকোনোটি দিয়ে কমান্ড চলে।",
        "en": "Write a quiz with /newquiz in a private chat with me, or send a file of "
        "questions; once saved, its buttons start it in a group, set it as homework or share "
        "it. Every command takes the quiz's name, its title or its number in a list.",
    },
    "help_admins": {
        "bn": "<b>বট পরিচালকদের কমান্ড</b> (প্রাইভেট চ্যাটে)",
        "en": "<b>Commands for the bot's administrators</b> (in a private chat)",
    },
    "help_quiz": {
        "bn": "/quiz — কুইজের তালিকা; প্রাইভেট চ্যাটে <code>/quiz নাম</code> দিয়ে অনুশীলন",
        "en": "/quiz — the list of quizzes; in a private chat <code>/quiz NAME</code> to practise",
    },
    "help_leaderboard": {
        "bn": "/leaderboard বা /top — গ্রুপের র‍্যাঙ্কিং "
        "(<code>/leaderboard zero</code>, "
        "<code>/leaderboard season 1</code>)",
        "en": "/leaderboard or /top — the group's ranking "
        "(<code>/leaderboard zero</code>, "
        "<code>/leaderboard season 1</code>)",
    },
    "help_me": {"bn": "/me — আপনার পরিসংখ্যান", "en": "/me — your stats"},
    "help_review": {
        "bn": "/review — ভুল হওয়া বা বাদ পড়া প্রশ্ন ১, ৩, ৭, ১৪ ও ৩০ দিন পরে ঝালিয়ে নিন (প্রাইভেট চ্যাটে)",
        "en": "/review — spaced review of the questions you missed, after 1, 3, 7, "
        "14 and 30 days (in a private chat)",
    },
    "help_remind": {
        "bn": "<code>/remind 20:30</code> বা /remind off — রিভিউয়ের দৈনিক রিমাইন্ডার",
        "en": "<code>/remind 20:30</code> or /remind off — a daily review reminder",
    },
    "help_recap": {
        "bn": "/recap on বা /recap off — প্রতিটি গ্রুপ কুইজের পরে প্রাইভেটে আপনার "
        "স্কোর, র‍্যাঙ্ক আর ভুল প্রশ্নের ব্যাখ্যা",
        "en": "/recap on or /recap off — after each group quiz, your score, rank and "
        "the questions you missed with explanations, in private",
    },
    "help_lang": {
        "bn": "/lang bn বা /lang en — ভাষা (প্রাইভেট চ্যাটে)",
        "en": "/lang bn or /lang en — language (in a private chat)",
    },
    "help_help": {"bn": "/help — এই তালিকা", "en": "/help — this list"},
    "help_quiz_mod": {
        "bn": "<code>/quiz নাম [সেকেন্ড]</code> — কুইজ শুরু করুন (প্রতি প্রশ্নে ৫–৬০০ সেকেন্ড)",
        "en": "<code>/quiz NAME [SECONDS]</code> — start a quiz (5–600 seconds per question)",
    },
    "help_next": {
        "bn": "/next — চলতি প্রশ্ন এখনই বন্ধ করে পরেরটিতে যান",
        "en": "/next — close the current question now and go on",
    },
    "help_stop": {
        "bn": "/stop — কুইজ এখনই শেষ করে ফলাফল দেখান",
        "en": "/stop — end the quiz now and post the results",
    },
    "help_reset": {
        "bn": "/resetleaderboard — লিডারবোর্ডের নতুন সিজন শুরু করুন (পুরোনোটা থেকে যায়)",
        "en": "/resetleaderboard — start a new season (the old one is kept)",
    },
    "help_export": {
        "bn": "/export — গ্রুপের ফলাফল CSV ফাইলে, আপনার প্রাইভেট চ্যাটে",
        "en": "/export — the group's results as CSV files, in your private chat",
    },
    "help_lang_mod": {
        "bn": "/lang bn বা /lang en — গ্রুপের ভাষা",
        "en": "/lang bn or /lang en — the group's language",
    },
    "not_admin": {
        "bn": "এটি শুধু বট পরিচালকরা করতে পারেন।",
        "en": "Only the bot's administrators can do that.",
    },
    # --- homework and the teacher's view (issue 15) -------------------------------------------
    "help_homework": {
        "bn": "/homework — খোলা হোমওয়ার্কের তালিকা",
        "en": "/homework — the open homework",
    },
    "help_homework_mod": {
        "bn": "<code>/homework নাম [সময়]</code> — হোমওয়ার্ক দিন, যেমন "
        "<code>24h</code>, <code>90m</code>, <code>3d</code>; "
        "<code>/homework stop</code> — একটি হোমওয়ার্ক এখনই শেষ করুন",
        "en": "<code>/homework NAME [DURATION]</code> — set homework, e.g. "
        "<code>24h</code>, <code>90m</code>, <code>3d</code>; "
        "<code>/homework stop</code> — end a homework now",
    },
    "help_timezone": {
        "bn": "<code>/timezone +6</code> — আপনার সময় অঞ্চল (প্রাইভেট চ্যাটে)",
        "en": "<code>/timezone +6</code> — your time zone (in a private chat)",
    },
    "help_timezone_mod": {
        "bn": "<code>/timezone +6</code> — গ্রুপের সময় অঞ্চল",
        "en": "<code>/timezone +6</code> — the group's time zone",
    },
    "help_analysis": {
        "bn": "<code>/analysis [কুইজ]</code> — প্রশ্নগুলোর বিশ্লেষণ, প্রাইভেটে",
        "en": "<code>/analysis [QUIZ]</code> — how each question works, in private",
    },
    "help_regrade": {
        "bn": "<code>/regrade কুইজ N X</code> — প্রশ্ন N-এর সঠিক উত্তর X (A–D বা ক–ঘ) ধরে আবার "
        "নম্বর দিন; <code>/regrade কুইজ</code> — প্রশ্নব্যাংকের বর্তমান উত্তর দিয়ে; আগে কী "
        "বদলাবে দেখাবে, বাটনে চাপলে প্রয়োগ হবে",
        "en": "<code>/regrade QUIZ N X</code> — re-score question N with X as its "
        "right answer; <code>/regrade QUIZ</code> — with the question bank's current "
        "answers; shows what changes first, a button applies it",
    },
    # --- writing quizzes in the chat (issue 16) ------------------------------------------------
    "help_newquiz": {
        "bn": "/newquiz — নিজের কুইজ লিখুন (প্রাইভেট চ্যাটে): শিরোনাম, তারপর কুইজ "
        "পোল বা Aiken লেখা; অথবা প্রশ্নের ফাইল পাঠান (YAML, GIFT, Aiken, "
        "Moodle XML, CSV, Open Trivia DB; ১ MB পর্যন্ত)",
        "en": "/newquiz — write your own quiz (in a private chat): a title, then "
        "quiz polls or Aiken text; or send a file of questions (YAML, GIFT, "
        "Aiken, Moodle XML, CSV, Open Trivia DB; up to 1 MB)",
    },
    "help_done": {
        "bn": "/done — খসড়া কুইজটি সংরক্ষণ করুন",
        "en": "/done — save the quiz you are writing",
    },
    "help_cancel": {
        "bn": "/cancel — খসড়া কুইজটি বাদ দিন",
        "en": "/cancel — drop the quiz you are writing",
    },
    "help_myquizzes": {
        "bn": "/myquizzes — আপনার তৈরি কুইজগুলো",
        "en": "/myquizzes — your quizzes",
    },
    "help_share": {
        "bn": "<code>/share নাম</code> — অনুশীলনের লিংক নিন",
        "en": "<code>/share NAME</code> — a practice link",
    },
    "help_deletequiz": {
        "bn": "<code>/deletequiz নাম</code> — আপনার একটি কুইজ মুছুন",
        "en": "<code>/deletequiz NAME</code> — delete one of your quizzes",
    },
    "help_publish": {
        "bn": "<code>/publish নাম [off]</code> — টেলিগ্রামে তৈরি কুইজ সব গ্রুপের জন্য চালু (বা বন্ধ) করুন",
        "en": "<code>/publish NAME [off]</code> — offer a quiz written in Telegram "
        "to every group (or withdraw it)",
    },
    # --- the bot's administrators (issue 14) ---------------------------------------------------
    "cmd_reload": {"bn": "প্রশ্নের ফোল্ডার আবার পড়ুন", "en": "Re-read the questions folder"},
    "help_reload": {
        "bn": "/reload — প্রশ্নের ফোল্ডার আবার পড়ে জানায় কী যোগ হলো, কী বদলাল, কী সরানো হলো, কী নেওয়া হলো না",
        "en": "/reload — re-read the questions folder and report what was added, "
        "changed, removed or refused",
    },
}
