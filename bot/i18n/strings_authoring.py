"""Texts of quiz authoring in Telegram (/newquiz, uploads, /myquizzes, /share, /publish)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    # --- /newquiz ------------------------------------------------------------------------------
    "author_ask_title": {
        "bn": "✍️ নতুন কুইজ। প্রথমে কুইজের শিরোনাম লিখে পাঠান।",
        "en": "✍️ A new quiz. First send its title.",
    },
    "author_bad_title": {
        "bn": "শিরোনাম এক লাইনের লেখা হতে হবে, সর্বোচ্চ {limit} অক্ষর। আবার পাঠান।",
        "en": "The title must be one line of text, at most {limit} characters. Send it again.",
    },
    "author_send_questions": {
        "bn": "📝 “{title}”। এবার প্রশ্ন পাঠান: 📎 মেনু → Poll → Quiz mode, সঠিক উত্তরটি "
        "বেছে দিন। Aiken ধাঁচের লেখাও চলবে (প্রশ্ন, <code>A)</code>… লাইন, "
        "<code>ANSWER: B</code>)। শেষ হলে /done, বাদ দিতে /cancel।",
        "en": "📝 «{title}». Now send the questions: attach menu → Poll → Quiz mode, and mark the "
        "right answer. Text in the Aiken layout works too (question, <code>A)</code>… "
        "lines, <code>ANSWER: B</code>). /done when finished, /cancel to drop it.",
    },
    "author_draft_exists": {
        "bn": "আপনার একটি খসড়া চলছে: “{title}”, {count}টি প্রশ্ন। আরও প্রশ্ন পাঠান, "
        "সংরক্ষণ করতে /done, বাদ দিতে /cancel।",
        "en": "You already have a draft: «{title}», {count:question|questions}. "
        "Send more questions, /done to save it or /cancel to drop it.",
    },
    "author_no_draft": {
        "bn": "কোনো খসড়া নেই। নতুন কুইজ লিখতে /newquiz।",
        "en": "There is no draft. /newquiz starts a new quiz.",
    },
    "author_cancelled": {"bn": "🗑 খসড়াটি বাদ দেওয়া হলো।", "en": "🗑 The draft was dropped."},
    "author_empty": {
        "bn": "খসড়ায় এখনো কোনো প্রশ্ন নেই: অন্তত একটি কুইজ পোল পাঠান।",
        "en": "The draft has no questions yet: send at least one quiz poll.",
    },
    "author_invalid": {"bn": "কুইজটি সংরক্ষণ করা গেল না:", "en": "The quiz could not be saved:"},
    "author_question_refused": {
        "bn": "এই প্রশ্নটি নেওয়া গেল না:",
        "en": "This question was not added:",
    },
    "author_question_limit": {
        "bn": "একটি কুইজে সর্বোচ্চ {limit}টি প্রশ্ন থাকতে পারে। /done দিয়ে সংরক্ষণ করুন।",
        "en": "A quiz holds at most {limit:question|questions}. Save it with /done.",
    },
    "author_quiz_limit": {
        "bn": "আপনার ইতিমধ্যে {limit}টি কুইজ আছে, এর বেশি রাখা যায় না। "
        "/deletequiz দিয়ে পুরোনো একটি মুছে ফেলুন।",
        "en": "You already have {limit:quiz|quizzes}, the most one author can keep. "
        "Delete one with /deletequiz first.",
    },
    "author_poll_no_draft": {
        "bn": "পোল থেকে কুইজ বানাতে আগে /newquiz লিখুন এবং শিরোনাম দিন।",
        "en": "To make a quiz from polls, start with /newquiz and give it a title.",
    },
    "author_poll_not_quiz": {
        "bn": "এটি সাধারণ পোল। পোল তৈরির সময় Quiz mode চালু করে সঠিক উত্তরটি চিহ্নিত করুন।",
        "en": "This is a regular poll. Switch on Quiz mode when you create the poll and mark "
        "the right answer.",
    },
    "author_poll_many_right": {
        "bn": "এই পোলে একাধিক সঠিক উত্তর। প্রতিটি প্রশ্নে সঠিক উত্তর একটিই হতে হবে।",
        "en": "This poll has several right answers. Each question needs exactly one.",
    },
    "author_poll_forwarded": {
        "bn": "ফরোয়ার্ড করা কুইজের সঠিক উত্তর আমি দেখতে পাই না। এই চ্যাটেই পোলটি নতুন করে "
        "তৈরি করুন (📎 মেনু → Poll → Quiz mode), অথবা Aiken ধাঁচে লিখে পাঠান।",
        "en": "I can't see the right answer of a forwarded quiz. Create the poll again in this "
        "chat (attach menu → Poll → Quiz mode), or send it as Aiken text.",
    },
    "author_poll_hidden": {
        "bn": "এই পোলের সঠিক উত্তর আমি দেখতে পাচ্ছি না। এই চ্যাটেই Quiz mode-এ পোলটি তৈরি করুন।",
        "en": "I can't see this poll's right answer. Create it in this chat, in Quiz mode.",
    },
    "author_poll_options": {
        "bn": "একটি প্রশ্নে ২ থেকে ১০টি বিকল্প থাকতে পারে।",
        "en": "A question needs 2 to 10 options.",
    },
    "author_text_refused": {
        "bn": "এটি Aiken ধাঁচের প্রশ্ন হিসেবে পড়া গেল না, কিছুই যোগ হয়নি। উদাহরণ:\n"
        "<code>GPU কোন কাজে দ্রুত?\nA) সমান্তরাল গণনা\nB) ডিস্ক পড়া\nANSWER: A</code>",
        "en": "This could not be read as Aiken questions; nothing was added. For example:\n"
        "<code>What is a GPU fast at?\nA) Parallel arithmetic\nB) Reading disks\n"
        "ANSWER: A</code>",
    },
    "author_added": {
        "bn": "✅ প্রশ্ন {number} যোগ হলো। সঠিক উত্তর: {right}",
        "en": "✅ Question {number} added. Right answer: {right}",
    },
    "author_next": {
        "bn": "এখন পর্যন্ত {count}টি প্রশ্ন। পরেরটি পাঠান, অথবা /done।",
        "en": "{count:question|questions} so far. Send the next one, or /done.",
    },
    "author_undo_button": {"bn": "↩️ প্রশ্ন {number} বাদ দিন", "en": "↩️ Undo question {number}"},
    "author_undone": {
        "bn": "↩️ প্রশ্ন {number} বাদ দেওয়া হলো। খসড়ায় এখন {count}টি প্রশ্ন।",
        "en": "↩️ Question {number} was removed. The draft now has {count:question|questions}.",
    },
    "author_undo_stale": {
        "bn": "শুধু খসড়ার শেষ প্রশ্নটি বাদ দেওয়া যায়।",
        "en": "Only the draft's last question can be undone.",
    },
    "author_saved": {
        "bn": "💾 “{title}” সংরক্ষিত হলো, নাম <code>{name}</code>, {count}টি প্রশ্ন।\n"
        "যে গ্রুপে আপনি মডারেটর সেখানে: <code>/quiz {name}</code> · এখানে অনুশীলন: "
        "<code>/quiz {name}</code> · লিংক: <code>/share {name}</code>",
        "en": "💾 «{title}» saved as <code>{name}</code>, {count:question|questions}.\n"
        "In a group where you are an admin: <code>/quiz {name}</code> · practise here: "
        "<code>/quiz {name}</code> · link: <code>/share {name}</code>",
    },
    # --- uploads -------------------------------------------------------------------------------
    "upload_too_big": {
        "bn": "ফাইলটি খুব বড়: সর্বোচ্চ {limit} MB। কিছুই সংরক্ষণ হয়নি।",
        "en": "The file is too big: at most {limit} MB. Nothing was saved.",
    },
    "upload_failed": {
        "bn": "ফাইলটি ডাউনলোড করা গেল না। একটু পরে আবার পাঠান।",
        "en": "The file could not be downloaded. Please send it again in a moment.",
    },
    "upload_nothing": {
        "bn": "এই ফাইল থেকে কোনো প্রশ্ন নেওয়া গেল না, কিছুই সংরক্ষণ হয়নি।",
        "en": "No question could be imported from this file; nothing was saved.",
    },
    "upload_format": {"bn": "ফাইলের ধরন: {format}", "en": "File format: {format}"},
    "upload_problems": {
        "bn": "সমস্যা ({count}টি, এগুলো বাদ পড়েছে):",
        "en": "Problems ({count}, left out):",
    },
    # --- managing ------------------------------------------------------------------------------
    "my_none": {
        "bn": "আপনার কোনো কুইজ নেই। /newquiz দিয়ে লিখুন, অথবা প্রশ্নের একটি ফাইল পাঠান।",
        "en": "You have no quizzes. Write one with /newquiz, or send a file of questions.",
    },
    "my_head": {"bn": "📚 আপনার কুইজ ({count}/{limit}):", "en": "📚 Your quizzes ({count}/{limit}):"},
    "my_line": {
        "bn": "• <code>{name}</code> — {title} · {count}টি প্রশ্ন · {runs} বার চালানো",
        "en": "• <code>{name}</code> — {title} · {count:question|questions} · {runs:run|runs}",
    },
    "my_published": {"bn": "সব গ্রুপে প্রকাশিত", "en": "published to all groups"},
    "my_shared": {"bn": "লিংকে শেয়ার করা", "en": "shared by link"},
    "delete_confirm": {
        "bn": "“{title}” (<code>{name}</code>) মুছে ফেলবেন? আগের খেলার ফল ও লিডারবোর্ড থেকে যাবে।",
        "en": "Delete «{title}» (<code>{name}</code>)? Past results and leaderboards stay.",
    },
    "delete_yes": {"bn": "🗑 মুছুন", "en": "🗑 Delete"},
    "delete_no": {"bn": "রেখে দিন", "en": "Keep it"},
    "delete_done": {
        "bn": "🗑 <code>{name}</code> মুছে ফেলা হয়েছে।",
        "en": "🗑 <code>{name}</code> was deleted.",
    },
    "delete_kept": {
        "bn": "<code>{name}</code> রেখে দেওয়া হলো।",
        "en": "<code>{name}</code> was kept.",
    },
    "share_link": {
        "bn": "🔗 এই লিংক খুললে যে কেউ <code>{name}</code> প্রাইভেট চ্যাটে অনুশীলন করতে পারবেন:\n{url}",
        "en": "🔗 Anyone who opens this link can practise <code>{name}</code> privately:\n{url}",
    },
    "share_gone": {"bn": "এই লিংকটি আর কাজ করে না।", "en": "This link no longer works."},
    "publish_on": {
        "bn": "📣 <code>{name}</code> এখন সব গ্রুপে পাওয়া যাবে।",
        "en": "📣 <code>{name}</code> is now offered to every group.",
    },
    "publish_off": {
        "bn": "<code>{name}</code> আর সব গ্রুপে দেখানো হবে না।",
        "en": "<code>{name}</code> is no longer offered to every group.",
    },
    # --- command menu --------------------------------------------------------------------------
    "cmd_newquiz": {"bn": "নতুন কুইজ লিখুন (কুইজ পোল দিয়ে)", "en": "Write a quiz (with quiz polls)"},
    "cmd_done": {"bn": "খসড়া কুইজ সংরক্ষণ", "en": "Save the draft quiz"},
    "cmd_cancel": {"bn": "খসড়া কুইজ বাদ দিন", "en": "Drop the draft quiz"},
    "cmd_myquizzes": {"bn": "আপনার লেখা কুইজ", "en": "Your quizzes"},
    "cmd_share": {"bn": "অনুশীলনের লিংক নিন", "en": "A link to practise your quiz"},
    "cmd_deletequiz": {"bn": "আপনার একটি কুইজ মুছুন", "en": "Delete one of your quizzes"},
}
