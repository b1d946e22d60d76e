"""Strings of homework, /timezone, question analysis, reports and re-grading (issue 15)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    # --- help and the command menu ----------------------------------------------------------
    "cmd_homework": {
        "bn": "হোমওয়ার্ক: /homework নাম [সময়]",
        "en": "Homework: /homework NAME [DURATION]",
    },
    "cmd_homework_list": {"bn": "খোলা হোমওয়ার্ক", "en": "Open homework"},
    "cmd_timezone": {"bn": "সময় অঞ্চল, যেমন /timezone +6", "en": "Time zone, e.g. /timezone +6"},
    "cmd_analysis": {"bn": "প্রশ্নের বিশ্লেষণ (প্রাইভেটে)", "en": "Question analysis (in private)"},
    "cmd_regrade": {"bn": "আবার নম্বর দিন: /regrade কুইজ N X", "en": "Re-grade: /regrade QUIZ N X"},
    # --- homework: the card and the list ---------------------------------------------------
    "hw_card_head": {"bn": "📚 <b>হোমওয়ার্ক: {title}</b>", "en": "📚 <b>Homework: {title}</b>"},
    "hw_card_quiz": {
        "bn": "<code>{quiz}</code> · {count}টি প্রশ্ন · প্রতিটিতে {seconds} সেকেন্ড",
        "en": "<code>{quiz}</code> · {count:question|questions} · {seconds} seconds each",
    },
    "hw_card_deadline": {"bn": "⏰ জমার শেষ সময়: {when}", "en": "⏰ Deadline: {when}"},
    "hw_card_finished": {"bn": "✅ জমা দিয়েছেন: {count} জন", "en": "✅ Finished: {count}"},
    "hw_card_how": {
        "bn": "নিচের বাটনে চাপুন: আমার সঙ্গে প্রাইভেট চ্যাটে একবারই করতে পারবেন। "
        "ফলাফল আসবে জমার শেষ সময়ের পরে, এখানে।",
        "en": "Tap Start: you take it once, in a private chat with me. The results "
        "come here after the deadline.",
    },
    "hw_card_ended": {"bn": "🔒 বন্ধ হয়েছে: {when}", "en": "🔒 Closed: {when}"},
    "hw_start_button": {"bn": "▶️ শুরু করুন", "en": "▶️ Start"},
    "hw_none_open": {
        "bn": "এখন কোনো হোমওয়ার্ক খোলা নেই। মডারেটর দিতে পারেন: <code>/homework নাম 24h</code>",
        "en": "No homework is open. A moderator sets one with <code>/homework NAME 24h</code>",
    },
    "hw_list_head": {"bn": "📚 <b>খোলা হোমওয়ার্ক</b>", "en": "📚 <b>Open homework</b>"},
    "hw_list_line": {
        "bn": "{n}. {title} — জমার শেষ সময় {when} · জমা দিয়েছেন {count} জন",
        "en": "{n}. {title} — until {when} · {count} finished",
    },
    "hw_stop_pick": {
        "bn": "কোনটি এখনই শেষ করবেন? বাটনে চাপুন, বা <code>/homework stop N</code> লিখুন।",
        "en": "Which one ends now? Tap it, or type <code>/homework stop N</code>.",
    },
    "hw_stop_button": {"bn": "⏹ {n}. {title} — শেষ করুন", "en": "⏹ {n}. {title} — end now"},
    "hw_stopped": {"bn": "⏹ হোমওয়ার্ক শেষ করা হলো: {title}", "en": "⏹ Homework ended: {title}"},
    "hw_stop_gone": {
        "bn": "এই হোমওয়ার্ক আগেই শেষ হয়ে গেছে।",
        "en": "This homework has already ended.",
    },
    "hw_usage": {
        "bn": "ব্যবহার: <code>/homework নাম [সময়]</code>; সময় যেমন <code>2m</code>, "
        "<code>90m</code>, <code>24h</code>, <code>3d</code> (১ মিনিট থেকে ১৪ দিন; "
        "না দিলে ২৪ ঘণ্টা)। কুইজ: {names}",
        "en": "Usage: <code>/homework NAME [DURATION]</code>, the duration like "
        "<code>2m</code>, <code>90m</code>, <code>24h</code>, <code>3d</code> "
        "(1 minute to 14 days; 24 hours if left out). Quiz: {names}",
    },
    "hw_stop_usage": {
        "bn": "ব্যবহার: <code>/homework stop</code> বা <code>/homework stop N</code> "
        "(N হলো <code>/homework</code> তালিকার ক্রমিক নম্বর)",
        "en": "Usage: <code>/homework stop</code> or <code>/homework stop N</code> "
        "(N as numbered by <code>/homework</code>)",
    },
    # --- homework: results ------------------------------------------------------------------
    "hw_results_head": {
        "bn": "🏁 <b>হোমওয়ার্কের ফলাফল: {title}</b>",
        "en": "🏁 <b>Homework results: {title}</b>",
    },
    "hw_results_stopped": {
        "bn": "(মডারেটর শেষ সময়ের আগেই বন্ধ করেছেন)",
        "en": "(ended early by a moderator)",
    },
    "hw_results_nobody": {"bn": "কেউ হোমওয়ার্কটি জমা দেননি।", "en": "Nobody took this homework."},
    "hw_results_took": {"bn": "👥 জমা দিয়েছেন {count} জন", "en": "👥 {count} took it"},
    "hw_results_average": {
        "bn": "📈 গড়: {points} পয়েন্ট, {right}/{total} সঠিক",
        "en": "📈 Average: {points:point|points}, {right}/{total} right",
    },
    "hw_results_hardest": {
        "bn": "🧩 সবচেয়ে কঠিন: প্রশ্ন {n} ({share}% সঠিক) — {text}",
        "en": "🧩 Hardest: question {n} ({share}% right) — {text}",
    },
    # --- homework: the attempt in private ---------------------------------------------------
    "hw_intro": {
        "bn": "📚 <b>হোমওয়ার্ক: {title}</b>\n{count}টি প্রশ্ন, প্রতিটিতে {seconds} "
        "সেকেন্ড। একবারই জমা দেওয়া যায়; দ্রুত সঠিক উত্তরে বেশি পয়েন্ট।",
        "en": "📚 <b>Homework: {title}</b>\n{count:question|questions}, "
        "{seconds} seconds each. "
        "One attempt only; the faster a right answer, the more points.",
    },
    "hw_question_timer": {"bn": "⏱ {seconds} সেকেন্ড", "en": "⏱ {seconds} seconds"},
    "hw_time_up": {"bn": "⌛ সময় শেষ, উত্তর দেওয়া হয়নি।", "en": "⌛ Time's up: not answered."},
    "hw_done": {
        "bn": "🏁 হোমওয়ার্ক শেষ! {points} পয়েন্ট, {right}/{total} সঠিক। "
        "গ্রুপে ফলাফল আসবে শেষ সময়ে: {when}",
        "en": "🏁 Homework done! {points:point|points}, {right}/{total} right. The group's "
        "results come at the deadline: {when}",
    },
    "hw_ended_midway": {
        "bn": "🔒 হোমওয়ার্কের সময় শেষ। আপনার দেওয়া উত্তরগুলো গোনা হয়েছে।",
        "en": "🔒 The homework is closed. The answers you gave count.",
    },
    "hw_missing": {"bn": "এই হোমওয়ার্কটি খুঁজে পাওয়া গেল না।", "en": "This homework could not be found."},
    "hw_not_member": {
        "bn": "এই হোমওয়ার্ক শুধু সেই গ্রুপের সদস্যদের জন্য।",
        "en": "This homework is for the members of its group only.",
    },
    "hw_refused_missing": {"bn": "এই হোমওয়ার্কটি খুঁজে পাওয়া গেল না।", "en": "There is no such homework."},
    "hw_refused_taken": {
        "bn": "আপনি এই হোমওয়ার্কটি আগেই জমা দিয়েছেন; একবারই জমা দেওয়া যায়।",
        "en": "You have already taken this homework: one attempt each.",
    },
    "hw_refused_closed": {
        "bn": "এই হোমওয়ার্কের শেষ সময় পেরিয়ে গেছে; এখন আর জমা দেওয়া যাবে না।",
        "en": "This homework is closed: its deadline has passed.",
    },
    "hw_alert_over": {"bn": "এই হোমওয়ার্ক আর চলছে না।", "en": "This homework is no longer running."},
    # --- time zones -------------------------------------------------------------------------
    "tz_group_set": {
        "bn": "🕰 গ্রুপের সময় অঞ্চল এখন UTC{offset}। হোমওয়ার্কের শেষ সময় এতে দেখানো হবে।",
        "en": "🕰 The group's time zone is now UTC{offset}. Homework deadlines are shown in it.",
    },
    "tz_group_show": {
        "bn": "🕰 গ্রুপের সময় অঞ্চল: UTC{offset}। বদলাতে (মডারেটর): <code>/timezone +5:30</code>",
        "en": "🕰 The group's time zone: UTC{offset}. To change it (moderators): "
        "<code>/timezone +5:30</code>",
    },
    "tz_private_set": {
        "bn": "🕰 আপনার সময় অঞ্চল এখন UTC{offset} (রিভিউ রিমাইন্ডারের জন্য)।",
        "en": "🕰 Your time zone is now UTC{offset} (for your review reminder).",
    },
    "tz_private_show": {
        "bn": "🕰 আপনার সময় অঞ্চল: UTC{offset}। বদলাতে: <code>/timezone +6</code>",
        "en": "🕰 Your time zone: UTC{offset}. To change it: <code>/timezone +6</code>",
    },
    "tz_private_none": {
        "bn": "আপনার সময় অঞ্চল এখনো ঠিক করা হয়নি। যেমন: <code>/timezone +6</code>",
        "en": "Your time zone is not set yet. For example: <code>/timezone +6</code>",
    },
    "tz_usage": {
        "bn": "ব্যবহার: <code>/timezone +6</code>, <code>/timezone +5:30</code> বা "
        "<code>/timezone -3</code> (UTC থেকে পার্থক্য, −১২ থেকে +১৪)",
        "en": "Usage: <code>/timezone +6</code>, <code>/timezone +5:30</code> or "
        "<code>/timezone -3</code> (the offset from UTC, −12 to +14)",
    },
    # --- question analysis ------------------------------------------------------------------
    "an_head": {
        "bn": "📊 <b>প্রশ্ন বিশ্লেষণ: {title}</b> (<code>{quiz}</code>)",
        "en": "📊 <b>Question analysis: {title}</b> (<code>{quiz}</code>)",
    },
    "an_scope": {
        "bn": "গ্রুপ: {group} · সিজন {season} · {sittings} বার অংশগ্রহণ (লাইভ কুইজ ও হোমওয়ার্ক; "
        "কেউ দুবার নিলে দুবার গোনা হয়)",
        "en": "Group: {group} · season {season} · taken {sittings:time|times} (live quizzes and "
        "homework; a student who took it twice counts twice)",
    },
    "an_legend": {
        "bn": "প্রতিটি প্রশ্নে: কতজন উত্তর দিয়েছেন, কতজন সঠিক করেছেন, আর প্রশ্নটি ভালো ও দুর্বল "
        "শিক্ষার্থীদের কতটা আলাদা করে (ভালো-দুর্বল বাকি প্রশ্নগুলোর ফল দেখে)। বিকল্পগুলো তাদের "
        "লেখা দিয়েই দেখানো হলো, শিক্ষার্থীরা যেমন দেখেছেন।",
        "en": "For each question: how many answered, how many got it right, and whether "
        "stronger students (by the rest of the quiz) get it right more often than weaker ones. "
        "Options are named by their text, as the class saw them.",
    },
    "an_item_head": {"bn": "<b>প্রশ্ন {n}.</b> {text}", "en": "<b>Q{n}.</b> {text}"},
    "an_item_stats": {
        "bn": "👥 {answered} জন উত্তর দিয়েছেন · ✅ {right} জন সঠিক ({percent})",
        "en": "👥 {answered} answered · ✅ {right} got it right ({percent})",
    },
    "an_spread_well": {
        "bn": "↕️ ভালো শিক্ষার্থীরা দুর্বলদের চেয়ে অনেক বেশি সঠিক করেছেন: প্রশ্নটি তাদের ভালোভাবে আলাদা করে",
        "en": "↕️ stronger students got it right much more often than weaker ones: it tells "
        "them apart well",
    },
    "an_spread_some": {
        "bn": "↕️ ভালো শিক্ষার্থীরা দুর্বলদের চেয়ে কিছুটা বেশি সঠিক করেছেন",
        "en": "↕️ stronger students got it right a little more often than weaker ones",
    },
    "an_spread_none": {
        "bn": "↕️ ভালো ও দুর্বল শিক্ষার্থীরা প্রায় একই রকম করেছেন: প্রশ্নটি তাদের আলাদা করে না",
        "en": "↕️ stronger and weaker students did about the same: it does not tell them apart",
    },
    "an_spread_reversed": {
        "bn": "↕️ দুর্বল শিক্ষার্থীরাই ভালোদের চেয়ে বেশি সঠিক করেছেন",
        "en": "↕️ weaker students got it right more often than stronger ones",
    },
    "an_item_wrong": {
        "bn": "❌ সবচেয়ে বেশি বেছে নেওয়া ভুল বিকল্প: “{option}” ({share})",
        "en": "❌ most chosen wrong answer: “{option}” ({share})",
    },
    "an_item_time": {
        "bn": "⏱ অর্ধেক উত্তর এসেছে {median} সেকেন্ডের মধ্যে (মধ্যক)",
        "en": "⏱ half the answers came within {median} s (the median)",
    },
    "an_flag_key": {
        "bn": "⚠️ <b>সঠিক উত্তরটি যাচাই করুন</b>: ভালো শিক্ষার্থীরাই বেশি ভুল করছেন ({students} জনের উত্তরে)",
        "en": "⚠️ <b>check the key</b>: stronger students miss it more than weaker ones "
        "({students:student|students} answered)",
    },
    "an_flag_hard": {
        "bn": "🔴 খুব কঠিন: ৩০% বা কম সঠিক ({students} জনের উত্তরে)",
        "en": "🔴 too hard: 30% or fewer right ({students:student|students} answered)",
    },
    "an_flag_easy": {
        "bn": "🟢 খুব সহজ: ৯০% বা বেশি সঠিক ({students} জনের উত্তরে)",
        "en": "🟢 too easy: 90% or more right ({students:student|students} answered)",
    },
    "an_item_none": {"bn": "এই সিজনে এখনো কেউ উত্তর দেননি।", "en": "No answers this season yet."},
    "an_item_reports": {
        "bn": "📝 শিক্ষার্থীদের রিপোর্ট: {reports}",
        "en": "📝 students' reports: {reports}",
    },
    "an_nothing": {
        "bn": "এই সিজনে এই গ্রুপে এখনো কোনো কুইজের উত্তর নেই।",
        "en": "No quiz has been answered in this group this season yet.",
    },
    "an_open_private": {"bn": "📊 প্রাইভেটে বিশ্লেষণ দেখুন", "en": "📊 Get the analysis in private"},
    "an_link": {
        "bn": "বিশ্লেষণটি প্রাইভেটে পাঠাতে পারিনি: আগে আমার সঙ্গে প্রাইভেট চ্যাট চালু করুন।",
        "en": "I could not send you the analysis privately: start a private chat with me first.",
    },
    "export_analysis_caption": {
        "bn": "📊 প্রশ্ন বিশ্লেষণ, এই সিজন (প্রতি প্রশ্নে এক সারি)",
        "en": "📊 Question analysis, this season (one row per question)",
    },
    # --- reports ----------------------------------------------------------------------------
    "report_button": {"bn": "⚠️ সমস্যা জানান", "en": "⚠️ Report a problem"},
    "report_button_n": {"bn": "⚠️ প্রশ্ন {n}: সমস্যা জানান", "en": "⚠️ Report a problem: Q{n}"},
    "report_ask": {
        "bn": "⚠️ {title}, প্রশ্ন {n}: কী সমস্যা?",
        "en": "⚠️ {title}, question {n}: what is wrong?",
    },
    "report_reason_key": {"bn": "দেওয়া সঠিক উত্তরটি ভুল", "en": "Wrong answer key"},
    "report_reason_unclear": {"bn": "প্রশ্ন অস্পষ্ট", "en": "Unclear"},
    "report_reason_typo": {"bn": "বানান ভুল", "en": "Typo"},
    "report_thanks": {
        "bn": "🙏 ধন্যবাদ! প্রশ্ন {n} নিয়ে আপনার রিপোর্ট ({reason}) মডারেটররা দেখবেন।",
        "en": "🙏 Thank you! The moderators will see your report on question {n} ({reason}).",
    },
    "report_again": {"bn": "এটি আপনি আগেই জানিয়েছেন।", "en": "You have reported this already."},
    # --- re-grading -------------------------------------------------------------------------
    "regrade_usage": {
        "bn": "ব্যবহার: <code>/regrade কুইজ N X</code> (প্রশ্ন N প্রশ্নব্যাংকের মূল ক্রমে, X তার "
        "সঠিক বিকল্পের অক্ষর, প্রশ্নব্যাংকের মূল ক্রমে) বা <code>/regrade কুইজ</code> "
        "(ব্যাংকের বর্তমান উত্তর)",
        "en": "Usage: <code>/regrade QUIZ N X</code> (question N in the bank's "
        "order, X its right option's letter in the bank's order) or "
        "<code>/regrade QUIZ</code> (the bank's current answers)",
    },
    "regrade_bad_number": {
        "bn": "এই কুইজে প্রশ্ন ১ থেকে {count} পর্যন্ত।",
        "en": "This quiz has questions 1 to {count}.",
    },
    "regrade_bad_letter": {
        "bn": "প্রশ্ন {n}-এর বিকল্প: {letters}",
        "en": "Question {n} has options {letters}.",
    },
    "regrade_busy": {
        "bn": "এই কুইজ এখন এই গ্রুপে চলছে (লাইভ বা হোমওয়ার্ক)। শেষ হলে আবার নম্বর দিন।",
        "en": "This quiz is running in this group now (live or as homework). "
        "Re-grade it once it has ended.",
    },
    "regrade_nothing": {
        "bn": "কিছু বদলানোর নেই: জমা উত্তরগুলো এই উত্তর অনুযায়ীই নম্বর পেয়েছে।",
        "en": "Nothing to change: the stored answers are already scored this way.",
    },
    "regrade_one": {
        "bn": "✏️ <b>{title}</b>: প্রশ্ন {n}-এর সঠিক উত্তর এখন {label}। "
        "{answers}টি উত্তরের ফল বদলেছে, {students} জনের পয়েন্ট বদলেছে। "
        "/leaderboard",
        "en": "✏️ <b>{title}</b>: question {n} is re-graded, its right answer is now "
        "{label}. {answers:answer|answers} scored differently, points of "
        "{students:student|students} changed. /leaderboard",
    },
    "regrade_all": {
        "bn": "✏️ <b>{title}</b>: প্রশ্নব্যাংকের বর্তমান উত্তর দিয়ে আবার নম্বর দেওয়া হলো। "
        "{answers}টি উত্তরের ফল বদলেছে, {students} জনের পয়েন্ট বদলেছে। "
        "/leaderboard",
        "en": "✏️ <b>{title}</b> is re-graded with the question bank's current answers. "
        "{answers:answer|answers} scored differently, points of "
        "{students:student|students} changed. /leaderboard",
    },
}
