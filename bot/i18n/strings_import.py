"""Strings of the importers (problems found in teachers' files) and of /reload."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    # --- whole files --------------------------------------------------------------------------
    "imp_too_big": {
        "bn": "{where}: ফাইলটি {size} বাইট, সর্বোচ্চ {limit} বাইট চলে; কিছুই আনা হয়নি।",
        "en": "{where}: the file is {size} bytes, at most {limit} allowed; nothing imported.",
    },
    "imp_unknown_format": {
        "bn": "{where}: ফাইলের ধরন চেনা যায়নি; চেনা ধরন: {formats}।",
        "en": "{where}: unknown file format; known formats: {formats}.",
    },
    "imp_not_utf8": {
        "bn": "{where}: লাইন {line}-এ এমন বাইট আছে যা UTF-8 নয় (একাধিক এনকোডিং?); "
        "ফাইলটি UTF-8-এ সেভ করুন। কিছুই আনা হয়নি।",
        "en": "{where}: line {line} holds bytes that are not UTF-8 (mixed "
        "encodings?); save the file as UTF-8. Nothing imported.",
    },
    "imp_binary": {
        "bn": "{where}: এটি টেক্সট ফাইল নয়; কিছুই আনা হয়নি।",
        "en": "{where}: not a text file; nothing imported.",
    },
    "imp_nothing": {
        "bn": "{where}: আনার মতো কোনো প্রশ্ন পাওয়া যায়নি।",
        "en": "{where}: no question could be imported.",
    },
    "imp_bank_too_big": {
        "bn": "{where}: প্রশ্নব্যাংক {limit} বাইটের বেশি হয়ে যাচ্ছে; ফাইলটি ভাগ করুন।",
        "en": "{where}: the bank would be over {limit} bytes; split the file.",
    },
    "imp_invalid": {
        "bn": "{where}: প্রশ্নটি বাদ গেছে: {message}",
        "en": "{where}: question skipped: {message}",
    },
    "imp_yaml": {
        "bn": "{where}: প্রশ্নব্যাংকে সমস্যা: {message}",
        "en": "{where}: bank problem: {message}",
    },
    "imp_title_long": {
        "bn": "{where}: শিরোনাম {length} অক্ষরের, সর্বোচ্চ {limit}; ফাইলের নামই "
        "শিরোনাম হিসেবে নেওয়া হয়েছে।",
        "en": "{where}: the title is {length} characters, at most {limit}; the "
        "file name is used instead.",
    },
    "imp_too_many": {
        "bn": "{where}: একটি প্রশ্নব্যাংকে সর্বোচ্চ {limit}টি প্রশ্ন থাকে; এটি বাদ গেছে।",
        "en": "{where}: a bank holds at most {limit:question|questions}; skipped.",
    },
    # --- one question -------------------------------------------------------------------------
    "imp_empty_question": {
        "bn": "{where}: প্রশ্নের লেখা নেই; বাদ গেছে।",
        "en": "{where}: the question has no text; skipped.",
    },
    "imp_option_count": {
        "bn": "{where}: {count}টি বিকল্প, দরকার {low} থেকে {high}টি; বাদ গেছে।",
        "en": "{where}: {count:option|options}, {low} to {high} needed; skipped.",
    },
    "imp_empty_option": {
        "bn": "{where}: বিকল্প {n} ফাঁকা; বাদ গেছে।",
        "en": "{where}: option {n} is empty; skipped.",
    },
    "imp_option_too_long": {
        "bn": "{where}: বিকল্প {n} {length} অক্ষরের, সর্বোচ্চ {limit}; কেটে ছোট না করে বাদ দেওয়া হয়েছে।",
        "en": "{where}: option {n} is {length} characters, at most {limit}; "
        "skipped rather than cut.",
    },
    "imp_place_row": {"bn": "{file}, সারি {n}", "en": "{file} row {n}"},
    "imp_place_question": {"bn": "{file}, প্রশ্ন {n}", "en": "{file} question #{n}"},
    "imp_place_result": {"bn": "{file}, প্রশ্ন {n}", "en": "{file} result #{n}"},
    "imp_not_mcq": {
        "bn": "{where}: এক-উত্তরের বহুনির্বাচনী প্রশ্ন নয় ({kind}); বাদ গেছে।",
        "en": "{where}: not a single-answer multiple-choice question ({kind}); skipped.",
    },
    "imp_right_count": {
        "bn": "{where}: সঠিক উত্তর {count}টি, ঠিক একটি দরকার; বাদ গেছে।",
        "en": "{where}: {count:right answer|right answers}, exactly one needed; skipped.",
    },
    "imp_image_dropped": {
        "bn": "{where}: {count}টি ছবি বাদ দেওয়া হয়েছে (কেবল লেখা দেখানো যায়)।",
        "en": "{where}: {count:image|images} dropped (only text can be shown).",
    },
    # --- GIFT ---------------------------------------------------------------------------------
    "imp_gift_escape": {
        "bn": "{where}: শেষে একা একটি \\ আছে (ভুল এস্কেপ); বাদ গেছে।",
        "en": "{where}: a lone \\ at the end (bad escape); skipped.",
    },
    "imp_gift_title": {
        "bn": "{where}: ::শিরোনাম:: শেষ হয়নি; বাদ গেছে।",
        "en": "{where}: the ::title:: is not closed; skipped.",
    },
    "imp_gift_unterminated": {
        "bn": "{where}: {{ খোলা হয়েছে কিন্তু }} দিয়ে বন্ধ হয়নি; বাদ গেছে।",
        "en": "{where}: a {{ is never closed by }}; skipped.",
    },
    "imp_gift_stray": {
        "bn": '{where}: উত্তরের আগে = বা ~ নেই: "{text}"; বাদ গেছে।',
        "en": '{where}: answer text without = or ~: "{text}"; skipped.',
    },
    # --- Aiken --------------------------------------------------------------------------------
    "imp_aiken_no_answer": {
        "bn": "{where}: ANSWER: লাইন নেই; বাদ গেছে।",
        "en": "{where}: no ANSWER: line; skipped.",
    },
    "imp_aiken_no_options": {
        "bn": "{where}: কোনো বিকল্প (A. বা A)) নেই; বাদ গেছে।",
        "en": "{where}: no options (A. or A)); skipped.",
    },
    "imp_aiken_letter": {
        "bn": "{where}: ANSWER: {letter} কোনো বিকল্প নয় ({letters}); বাদ গেছে।",
        "en": "{where}: ANSWER: {letter} names no option ({letters}); skipped.",
    },
    "imp_aiken_order": {
        "bn": "{where}: বিকল্প {letter}, কিন্তু এখানে {expected} আসার কথা; বাদ গেছে।",
        "en": "{where}: option {letter} where {expected} was expected; skipped.",
    },
    # --- Moodle XML ---------------------------------------------------------------------------
    "imp_xml_forbidden": {
        "bn": "{where}: XML-এ DTD বা এনটিটি আছে, যা নিরাপত্তার কারণে গ্রহণ করা হয় না; কিছুই আনা হয়নি।",
        "en": "{where}: the XML declares a DTD or entities, refused for safety; nothing imported.",
    },
    "imp_xml_invalid": {
        "bn": "{where}: বৈধ XML নয়; কিছুই আনা হয়নি।",
        "en": "{where}: not valid XML; nothing imported.",
    },
    "imp_xml_not_moodle": {
        "bn": "{where}: Moodle XML নয় (মূল ট্যাগ {tag}); কিছুই আনা হয়নি।",
        "en": "{where}: not Moodle XML (root tag {tag}); nothing imported.",
    },
    # --- spreadsheets -------------------------------------------------------------------------
    "imp_csv_invalid": {
        "bn": "{where}: CSV পড়া যায়নি ({error}); কিছুই আনা হয়নি।",
        "en": "{where}: unreadable CSV ({error}); nothing imported.",
    },
    "imp_csv_header": {
        "bn": "{where}: শিরোনামের সারি পাওয়া যায়নি (যেমন question,A,B,C,D,answer); কিছুই আনা হয়নি।",
        "en": "{where}: no header row found (such as question,A,B,C,D,answer); nothing imported.",
    },
    "imp_csv_answer": {
        "bn": '{where}: সঠিক উত্তর "{answer}" কোনো বিকল্পের সঙ্গে মেলে না; বাদ গেছে।',
        "en": '{where}: the right answer "{answer}" matches no option; skipped.',
    },
    # --- Open Trivia DB -----------------------------------------------------------------------
    "imp_json_invalid": {
        "bn": "{where}: বৈধ JSON নয়; কিছুই আনা হয়নি।",
        "en": "{where}: not valid JSON; nothing imported.",
    },
    "imp_opentdb_shape": {
        "bn": '{where}: Open Trivia DB-এর "results" তালিকা নেই; কিছুই আনা হয়নি।',
        "en": '{where}: no Open Trivia DB "results" list; nothing imported.',
    },
    "imp_opentdb_shape_item": {
        "bn": "{where}: question, correct_answer বা incorrect_answers নেই; বাদ গেছে।",
        "en": "{where}: question, correct_answer or incorrect_answers missing; skipped.",
    },
    # --- /reload ------------------------------------------------------------------------------
    "cmd_reload": {
        "bn": "প্রশ্নের ফোল্ডার আবার পড়া (বট পরিচালক)",
        "en": "Re-read the questions folder (operators)",
    },
    "reload_head": {
        "bn": "🔄 প্রশ্নের ফোল্ডার আবার পড়া হয়েছে: {count}টি কুইজ চালু।",
        "en": "🔄 Questions folder re-read: {count:quiz|quizzes} served.",
    },
    "reload_added": {"bn": "➕ নতুন: {names}", "en": "➕ Added: {names}"},
    "reload_changed": {"bn": "✏️ বদলেছে: {names}", "en": "✏️ Changed: {names}"},
    "reload_removed": {"bn": "➖ সরানো হয়েছে: {names}", "en": "➖ Removed: {names}"},
    "reload_refused": {"bn": "⚠️ গ্রহণ করা হয়নি: {file}", "en": "⚠️ Refused: {file}"},
    "reload_kept": {
        "bn": "আগের সঠিক সংস্করণটিই চলছে ({id})।",
        "en": "its last good version stays served ({id}).",
    },
    "reload_same": {"bn": "কোনো পরিবর্তন নেই।", "en": "Nothing changed."},
    "reload_running": {
        "bn": "চলমান কুইজগুলো যে প্রশ্ন দিয়ে শুরু হয়েছিল সেগুলো দিয়েই শেষ হবে।",
        "en": "Running quizzes finish with the questions they started with.",
    },
}
