"""Strings of issue 21 (one quiz resolver, names in any script, the teacher's journey)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    "quiz_list_mods": {
        "bn": "ℹ️ গ্রুপে কুইজ শুরু করেন গ্রুপের মডারেটররা।",
        "en": "ℹ️ In a group, the group's moderators start quizzes.",
    },
    "pick_none": {
        "bn": "এখানে এখনো কোনো কুইজ নেই।",
        "en": "There is no quiz here yet.",
    },
    "pick_none_named": {
        "bn": "এই নামে এখানে কোনো কুইজ নেই।",
        "en": "There is no quiz by that name here.",
    },
    "pick_head": {
        "bn": "কোন কুইজ? একটি বেছে নিন:",
        "en": "Which quiz? Pick one:",
    },
    "pick_ambiguous": {
        "bn": "এই নামে একাধিক কুইজ আছে। কোনটি?",
        "en": "Several quizzes match. Which one?",
    },
    "pick_item": {
        "bn": "{n}. {title} — লিখুন <code>/{command} {name}</code>",
        "en": "{n}. {title} — <code>/{command} {name}</code>",
    },
    "pick_number": {
        "bn": "তালিকার নম্বরও চলবে, যেমন <code>/{command} 1</code>।",
        "en": "The list's number works too, e.g. <code>/{command} 1</code>.",
    },
    "held_private": {
        "bn": "✍ <b>{group}</b> গ্রুপে আপনার কমান্ডের উত্তর (গ্রুপে এখন আর উত্তর দেওয়া হলো না):",
        "en": "✍ The answer to your command in <b>{group}</b> (the group gets no more replies "
        "just now):",
    },
    "sent_privately": {
        "bn": "📬 আপনাকে প্রাইভেট চ্যাটে পাঠানো হয়েছে।",
        "en": "📬 Sent to you privately.",
    },
    "private_first": {
        "bn": "📬 এটি শুধু আপনার প্রাইভেট চ্যাটে যাবে। আগে নিচের বাটনে চেপে আমার সঙ্গে প্রাইভেট "
        "চ্যাট শুরু করুন, তারপর কমান্ডটি আবার দিন।",
        "en": "📬 This goes to your private chat only. Tap the button below to start a private "
        "chat with me, then send the command again.",
    },
    "open_private": {"bn": "💬 প্রাইভেট চ্যাট খুলুন", "en": "💬 Open a private chat"},
    "export_private": {
        "bn": "📊 <b>{group}</b> গ্রুপের ফলাফল (শুধু আপনার জন্য):",
        "en": "📊 Results of <b>{group}</b> (for you only):",
    },
    "regrade_preview_one": {
        "bn": "✏️ <b>{title}</b>: প্রশ্ন {n}-এর সঠিক উত্তর হবে {label}।",
        "en": "✏️ <b>{title}</b>: question {n}'s right answer becomes {label}.",
    },
    "regrade_preview_all": {
        "bn": "✏️ <b>{title}</b>: প্রশ্নব্যাংকের বর্তমান উত্তর দিয়ে আবার নম্বর দেওয়া হবে।",
        "en": "✏️ <b>{title}</b>: re-grade with the question bank's current answers.",
    },
    "regrade_preview_counts": {
        "bn": "এতে {answers}টি উত্তরের ফল বদলাবে, {students} জন শিক্ষার্থীর পয়েন্ট বদলাবে "
        "(মোট {points:+d} পয়েন্ট)। প্রয়োগ করবেন?",
        "en": "This changes the verdict of {answers:answer|answers} and the points of "
        "{students:student|students} ({points:+d} points in all). Apply it?",
    },
    "regrade_apply": {"bn": "✅ প্রয়োগ করুন", "en": "✅ Apply"},
    "regrade_cancel": {"bn": "✖️ বাতিল", "en": "✖️ Cancel"},
    "regrade_dropped": {
        "bn": "পুনর্মূল্যায়ন বাতিল হয়েছে; কিছুই বদলায়নি।",
        "en": "Re-grading cancelled; nothing changed.",
    },
    "report_to_teacher": {
        "bn": "📝 <b>{group}</b> গ্রুপের একজন শিক্ষার্থী <b>{title}</b>-এর প্রশ্ন {n} নিয়ে জানিয়েছেন: "
        "{reason}।\n❓ {question}\nএখনকার সঠিক উত্তর: {right}\nঅন্য কোনো বিকল্পকে সঠিক ধরে আবার "
        "নম্বর দিতে নিচের বাটনে চাপুন (আগে কী বদলাবে দেখাবে)।",
        "en": "📝 A student in <b>{group}</b> reports question {n} of <b>{title}</b>: "
        "{reason}.\n❓ {question}\nIts right answer now: {right}\nTo re-grade with another "
        "option as the right one, tap it below (you see what changes first).",
    },
    "report_regrade_to": {"bn": "✏️ সঠিক: {label} {text}", "en": "✏️ Right: {label} {text}"},
    "practice_again": {"bn": "🔁 আবার অনুশীলন করুন", "en": "🔁 Practise again"},
    "rename_usage": {
        "bn": "ব্যবহার: <code>/rename নাম নতুন-নাম</code>",
        "en": "Usage: <code>/rename NAME NEW-NAME</code>",
    },
    "rename_bad": {
        "bn": "“{name}” নাম হিসেবে চলবে না: শুধু অক্ষর, অঙ্ক আর “-” দিন, যেমন <code>কোষ-বিজ্ঞান</code>।",
        "en": "“{name}” cannot be a name: use letters, digits and “-” only, e.g. "
        "<code>cell-biology</code>.",
    },
    "rename_taken": {
        "bn": "<code>{name}</code> নামটি অন্য একটি কুইজের। আরেকটি নাম দিন।",
        "en": "<code>{name}</code> is another quiz's name. Choose another.",
    },
    "rename_done": {
        "bn": "✅ <code>{old}</code> এখন <code>{name}</code>। আগের ফলাফল সঙ্গেই থাকল।",
        "en": "✅ <code>{old}</code> is now <code>{name}</code>. Its results stay with it.",
    },
    "help_rename": {
        "bn": "/rename নাম নতুন-নাম — আপনার কুইজের নাম বদলান",
        "en": "/rename NAME NEW — rename one of your quizzes",
    },
    "cmd_rename": {"bn": "আপনার কুইজের নাম বদলান", "en": "Rename one of your quizzes"},
    "card_start_group": {"bn": "▶️ গ্রুপে শুরু করুন", "en": "▶️ Start in a group"},
    "card_homework": {"bn": "📝 হোমওয়ার্ক দিন (২৪ ঘণ্টা)", "en": "📝 Set as homework (24 h)"},
    "card_share": {"bn": "🔗 শেয়ার করুন", "en": "🔗 Share"},
    "card_practise": {"bn": "🎯 এখানে অনুশীলন করুন", "en": "🎯 Practise here"},
    "card_homework_how": {
        "bn": "📝 হোমওয়ার্ক দিতে আপনার গ্রুপে লিখুন: <code>/homework {name} 24h</code> "
        "(সময় যেমন 2m, 90m, 24h, 3d)।",
        "en": "📝 To set it as homework, write in your group: "
        "<code>/homework {name} 24h</code> (a duration like 2m, 90m, 24h, 3d).",
    },
    "share_intro": {
        "bn": "🎯 <b>{title}</b> — তৈরি করেছেন {author}, {count}টি প্রশ্ন। শুরু হচ্ছে…",
        "en": "🎯 <b>{title}</b> — by {author}, {count:question|questions}. Here it comes…",
    },
    "group_offer": {
        "bn": "▶️ <b>{title}</b> ({count}টি প্রশ্ন) শুরু করতে নিচের বাটনে চাপুন (শুধু গ্রুপের মডারেটররা)।",
        "en": "▶️ Tap below to start <b>{title}</b> ({count:question|questions}); only the "
        "group's moderators can.",
    },
    # --- question kinds the importers name (in "not a multiple-choice question (KIND)")
    "kind_description": {"bn": "বিবরণ, প্রশ্ন নয়", "en": "a description"},
    "kind_several answer blocks": {"bn": "একাধিক উত্তর-অংশ", "en": "several answer blocks"},
    "kind_essay": {"bn": "রচনামূলক", "en": "essay"},
    "kind_numerical": {"bn": "সংখ্যাভিত্তিক উত্তর", "en": "numerical"},
    "kind_matching": {"bn": "মিলকরণ", "en": "matching"},
    "kind_short answer": {"bn": "সংক্ষিপ্ত উত্তর", "en": "short answer"},
    "kind_partial credit": {"bn": "আংশিক নম্বর", "en": "partial credit"},
    "kind_multiple answers": {"bn": "একাধিক সঠিক উত্তর", "en": "multiple answers"},
    "kind_shortanswer": {"bn": "সংক্ষিপ্ত উত্তর", "en": "short answer"},
    "kind_multianswer": {"bn": "একাধিক ফাঁকা ঘর", "en": "embedded answers"},
    "kind_ddwtos": {"bn": "টেনে এনে বসানো", "en": "drag and drop"},
    "kind_truefalse": {"bn": "সত্য/মিথ্যা", "en": "true/false"},
    "kind_boolean": {"bn": "সত্য/মিথ্যা", "en": "true/false"},
}
