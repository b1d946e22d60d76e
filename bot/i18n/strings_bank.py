"""Strings of the question-bank validator (bot/core/bank.py): each problem it reports, and the place
in a bank it names (plain text, rendered by ``bank.Problem.text``; the English is also the log's
and ``str(problem)``'s). YAML keys, key paths such as ``options[2].en`` and quiz ids stay as the
author wrote them; a value shown in quotes (``'title'``) comes quoted. The templates are valid
Telegram HTML: the marks ``&``, ``*`` and ``<<`` come as values (escaped by ``t()``)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    # --- where in the bank --------------------------------------------------------------------
    "bank_where_question": {"bn": "প্রশ্ন {n}", "en": "question {n}"},
    "bank_where_question_id": {"bn": "প্রশ্ন {n} (id {id})", "en": "question {n} (id {id})"},
    # --- the file -----------------------------------------------------------------------------
    "bank_file_too_big": {
        "bn": "ফাইলটি {size} বাইটের, সর্বোচ্চ {limit} বাইট চলে",
        "en": "file is {size} bytes, at most {limit} allowed",
    },
    "bank_over": {
        "bn": "প্রশ্নব্যাংকটি {limit} বাইটের বেশি",
        "en": "bank is over {limit} bytes",
    },
    "bank_not_utf8": {"bn": "ফাইলটি UTF-8 টেক্সট নয়", "en": "file is not UTF-8 text"},
    "bank_unreadable": {"bn": "ফাইলটি পড়া যাচ্ছে না: {reason}", "en": "cannot read: {reason}"},
    "bank_file_empty": {"bn": "ফাইলটি খালি", "en": "file is empty"},
    "bank_missing_path": {
        "bn": "এই নামে কোনো ফাইল বা ফোল্ডার নেই",
        "en": "no such file or folder",
    },
    "bank_bad_name": {
        "bn": "ফাইলের নামই কুইজের id, তাই নামে শুধু ছোট হাতের ইংরেজি অক্ষর, অঙ্ক, - আর _ "
        "ব্যবহার করুন (সর্বোচ্চ {limit} অক্ষর)",
        "en": "file name must be a quiz id: lowercase letters, digits, - and _, "
        "at most {limit} characters",
    },
    "bank_id_taken": {
        "bn": "কুইজের id {quiz} আগে থেকেই {other} ফাইলে ব্যবহার হচ্ছে",
        "en": "quiz id {quiz} is also used by {other}",
    },
    # --- YAML itself --------------------------------------------------------------------------
    "bank_yaml": {"bn": "বৈধ YAML নয়: {problem}", "en": "not valid YAML: {problem}"},
    "bank_too_deep": {
        "bn": "বৈধ YAML নয়: নেস্টিং অনেক বেশি গভীর",
        "en": "not valid YAML: nested too deeply",
    },
    "bank_alias": {
        "bn": "অ্যাঙ্কর ও অ্যালিয়াস ({marks}) ব্যবহার করা যাবে না",
        "en": "anchors and aliases ({marks}) are not allowed",
    },
    "bank_tag": {
        "bn": "ট্যাগ {tag} ব্যবহার করা যাবে না",
        "en": "tag {tag} is not allowed",
    },
    "bank_merge_key": {
        "bn": "মার্জ কী ({marks}) ব্যবহার করা যাবে না",
        "en": "merge keys ({marks}) are not allowed",
    },
    # --- keys and values ----------------------------------------------------------------------
    "bank_not_mapping": {
        "bn": "এখানে key: value আকারে লিখতে হবে",
        "en": "must be a mapping (key: value)",
    },
    "bank_unknown_key": {
        "bn": "অজানা কী {name} (যেগুলো চলে: {allowed})",
        "en": "unknown key {name} (allowed: {allowed})",
    },
    "bank_key_twice": {"bn": "কী {name} দুবার আছে", "en": "key {name} appears twice"},
    "bank_missing_key": {"bn": "কী {name} দেওয়া হয়নি", "en": "missing key {name}"},
    "bank_not_text": {"bn": "এখানে লেখা দিতে হবে", "en": "must be text"},
    "bank_empty": {"bn": "খালি রাখা যাবে না", "en": "must not be empty"},
    "bank_not_list": {"bn": "এখানে একটি তালিকা দিতে হবে", "en": "must be a list"},
    "bank_empty_list": {
        "bn": "এখানে একটি তালিকা দিতে হবে, খালি নয়",
        "en": "must be a non-empty list",
    },
    "bank_too_long": {
        "bn": "{length} অক্ষর, সর্বোচ্চ {limit} অক্ষর চলে",
        "en": "{length} characters, at most {limit} allowed",
    },
    "bank_not_whole": {
        "bn": "{low} থেকে {high}-এর মধ্যে একটি পূর্ণসংখ্যা দিন",
        "en": "must be a whole number from {low} to {high}",
    },
    "bank_out_of_range": {
        "bn": "{value} সীমার বাইরে ({low} থেকে {high})",
        "en": "{value} is out of range ({low} to {high})",
    },
    "bank_not_bool": {"bn": "true অথবা false দিন", "en": "must be true or false"},
    "bank_bad_language": {
        "bn": "{value} চলবে না; এগুলোর একটি দিন: {langs}",
        "en": "{value} is not one of {langs}",
    },
    # --- one language or two ------------------------------------------------------------------
    "bank_one_language": {
        "bn": "শুধু সাধারণ লেখা দিন: এই প্রশ্নব্যাংকটি এক ভাষার (এর title সাধারণ লেখা)",
        "en": "must be plain text: this bank is in one language (its title is plain text)",
    },
    "bank_bilingual": {
        "bn": "bn ও en দুটিই দিন: এই প্রশ্নব্যাংকটি দ্বিভাষিক (এর title-এ bn ও en আছে)",
        "en": "must have both bn and en: this bank is bilingual (its title has bn and en)",
    },
    # --- questions ----------------------------------------------------------------------------
    "bank_too_many": {
        "bn": "{count}টি প্রশ্ন, সর্বোচ্চ {limit}টি চলে",
        "en": "{count:question|questions}, at most {limit}",
    },
    "bank_pick_over": {
        "bn": "{pick}টি বেছে নেওয়া যাবে না: প্রশ্নব্যাংকে প্রশ্ন আছে মোট {count}টি",
        "en": "{pick} is more than the {count:question|questions} of the bank",
    },
    "bank_duplicate_id": {
        "bn": "প্রশ্ন {n}-এও এই id আছে",
        "en": "duplicate of question {n}",
    },
    "bank_bad_id": {
        "bn": "{id}: শুধু ইংরেজি অক্ষর, অঙ্ক, '.', '-' আর '_' ব্যবহার করুন (সর্বোচ্চ {limit} অক্ষর)",
        "en": "{id}: use letters, digits, '.', '-', '_' (at most {limit})",
    },
    # English does not inflect here: "options" reads as the field's name ("1 options")
    "bank_option_count": {
        "bn": "{count}টি বিকল্প, দরকার {low} থেকে {high}টি",
        "en": "{count:option|options}, need {low} to {high}",
    },
    "bank_duplicate_option": {
        "bn": "বিকল্প {n}-এর সঙ্গে হুবহু এক",
        "en": "duplicate of option {n}",
    },
    "bank_reveal_long": {
        "bn": "প্রশ্নের ফলাফলের মেসেজটি (প্রশ্ন, অপশন ও সংখ্যা, ব্যাখ্যা, নোট) {size} অক্ষরের হবে, "
        "Telegram সর্বোচ্চ {limit} অক্ষর নেয়",
        "en": "the question's reveal (question, options with counts, explanation, note) would be "
        "{size} characters, Telegram allows {limit}",
    },
    "bank_message_long": {
        "bn": "প্রশ্নের মেসেজটি {size} অক্ষরের হবে, Telegram সর্বোচ্চ {limit} অক্ষর নেয়",
        "en": "the question message would be {size} characters, Telegram allows {limit}",
    },
    "bank_alert_long": {
        "bn": "{length} অক্ষর; সঠিক/ভুল ও পয়েন্টের লেখাসহ ({prefix}) অ্যালার্টটি হবে "
        "{size} অক্ষরের, Telegram সর্বোচ্চ {limit} অক্ষর নেয়",
        "en": "{length} characters; with the verdict and points ({prefix}) the alert "
        "would be {size}, Telegram allows {limit}",
    },
}
