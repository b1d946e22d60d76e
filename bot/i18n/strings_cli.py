"""Strings of the ``quizbot`` command line: results and refusals of run, validate, play, import,
export-quiz and backup (plain text, shown with ``t_plain``; ``quizbot: `` is added by the CLI)."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    # --- run -------------------------------------------------------------------------------------
    "cli_no_token": {
        "bn": "TELEGRAM_BOT_TOKEN সেট করা নেই: @BotFather থেকে একটি টোকেন নিয়ে "
        "এনভায়রনমেন্ট ভেরিয়েবলে (অথবা একটি .env ফাইলে) রাখুন",
        "en": "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and "
        "put it in the environment (or in a .env file)",
    },
    "cli_folder_missing": {
        "bn": "প্রশ্নের ফোল্ডার {folder} পাওয়া যায়নি; QUIZBOT_QUESTIONS-এ প্রশ্নব্যাংকের একটি ফোল্ডার দিন",
        "en": "the questions folder {folder} does not exist; set QUIZBOT_QUESTIONS to a "
        "folder of question banks",
    },
    "cli_folder_no_quiz": {
        "bn": "প্রশ্নের ফোল্ডারে ({folder}) কোনো বৈধ কুইজ নেই (কারণ দেখতে চালান: "
        "`quizbot validate {folder}`); QUIZBOT_QUESTIONS-এ প্রশ্নব্যাংকের একটি ফোল্ডার দিন",
        "en": "the questions folder {folder} has no valid quiz (run `quizbot validate "
        "{folder}`); set QUIZBOT_QUESTIONS to a folder of question banks",
    },
    # --- validate --------------------------------------------------------------------------------
    "cli_valid": {
        "bn": "ঠিক আছে: {source}: {quiz} ({count}টি প্রশ্ন, {kind})",
        "en": "ok: {source}: {quiz} ({count:question|questions}, {kind})",
    },
    "cli_valid_pick": {
        "bn": "ঠিক আছে: {source}: {quiz} ({count}টি প্রশ্ন, প্রতিবার {pick}টি বেছে নেওয়া হয়, {kind})",
        "en": "ok: {source}: {quiz} ({count:question|questions}, {pick} drawn per run, {kind})",
    },
    "cli_kind_bilingual": {"bn": "বাংলা ও ইংরেজি", "en": "bilingual"},
    "cli_kind_bn_only": {"bn": "শুধু বাংলা", "en": "bn only"},
    "cli_kind_en_only": {"bn": "শুধু ইংরেজি", "en": "en only"},
    # --- play ------------------------------------------------------------------------------------
    "cli_no_such_quiz": {
        "bn": "'{quiz}' নামে কোনো বৈধ কুইজ নেই (যেগুলো আছে: {names})",
        "en": "no valid quiz '{quiz}' (available: {names})",
    },
    "cli_none": {"bn": "একটিও নেই", "en": "none"},
    "cli_score": {"bn": "স্কোর: {right}/{asked}", "en": "Score: {right}/{asked}"},
    # --- backup ----------------------------------------------------------------------------------
    "cli_no_database": {
        "bn": "কোনো ডেটাবেস পাওয়া যায়নি: {db}",
        "en": "no database at {db}",
    },
    "cli_backup_written": {
        "bn": "ব্যাকআপ সংরক্ষণ করা হয়েছে: {dest}",
        "en": "backup written to {dest}",
    },
    # --- export-quiz -----------------------------------------------------------------------------
    "cli_export_missing": {
        "bn": "'{quiz}' নামে কোনো কুইজ নেই: {folder} ফোল্ডারেও নয়, {db} ডেটাবেসেও নয়",
        "en": "no quiz '{quiz}' in {folder} or in {db}",
    },
    "cli_export_written": {
        "bn": "'{quiz}' কুইজটি সংরক্ষণ করা হয়েছে: {target}",
        "en": "quiz {quiz} written to {target}",
    },
    # --- import ----------------------------------------------------------------------------------
    "cli_imp_id_one_file": {
        "bn": "--id দিয়ে একটিই কুইজের নাম দেওয়া যায়: এর সঙ্গে একটিমাত্র ফাইল দিন",
        "en": "--id names one quiz: give one FILE with it",
    },
    "cli_imp_id_bad": {
        "bn": "--id '{quiz}': শুধু ছোট হাতের ইংরেজি অক্ষর, অঙ্ক, - আর _ ব্যবহার করুন (সর্বোচ্চ {limit} অক্ষর)",
        "en": "--id '{quiz}': use lowercase letters, digits, - and _ (at most {limit})",
    },
    "cli_imp_no_folder": {
        "bn": "{folder}: এই নামে কোনো ফোল্ডার নেই",
        "en": "{folder}: no such folder",
    },
    "cli_imp_not_file": {
        "bn": "{where}: এটি কোনো ফাইল নয়",
        "en": "{where}: not a file",
    },
    "cli_imp_unreadable": {
        "bn": "{where}: ফাইলটি পড়া যাচ্ছে না: {reason}",
        "en": "{where}: cannot read: {reason}",
    },
    "cli_imp_over": {
        "bn": "{where}: ফাইলটি {limit} বাইটের বেশি; কিছুই আনা হয়নি।",
        "en": "{where}: the file is over {limit} bytes; nothing imported.",
    },
    "cli_imp_written_earlier": {
        "bn": "{target}: কুইজ আইডি '{quiz}' এই ইমপোর্টেরই আগের একটি ফাইল থেকে লেখা "
        "হয়ে গেছে; কিছুই আনা হয়নি (--id দিয়ে অন্য নাম দিন)।",
        "en": "{target}: quiz id '{quiz}' was already written by an earlier file of this "
        "import; nothing imported (use --id).",
    },
    "cli_imp_exists": {
        "bn": "{target}: ফাইলটি আগে থেকেই আছে; কিছুই আনা হয়নি (বদলাতে চাইলে --force দিন, "
        "অথবা --id দিয়ে অন্য নাম দিন)।",
        "en": "{target}: exists; nothing imported (use --force to replace it, or --id).",
    },
    "cli_imp_file_done": {
        "bn": "{source} -> {target}: {imported}টি প্রশ্ন আনা হয়েছে, {problems}টি সমস্যা ({format})",
        "en": "{source} -> {target}: {imported:question|questions} imported, "
        "{problems:problem|problems} ({format})",
    },
    "cli_imp_summary": {
        "bn": "মোট {imported}টি প্রশ্ন {banks}টি প্রশ্নব্যাংকে আনা হয়েছে; {problems}টি সমস্যা; "
        "{failed}টি ফাইল আনা যায়নি",
        "en": "imported {imported:question|questions} into {banks:bank|banks}; "
        "{problems:problem|problems}; {failed:file|files} not imported",
    },
}
