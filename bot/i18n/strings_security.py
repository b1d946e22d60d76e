"""Strings of the hostile-user defences (issue 23): refusals that say why, in both languages."""

from __future__ import annotations

from bot.i18n.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    "recap_not_yet": {
        "bn": "এই কুইজ এখনো চলছে। শেষ হলে আপনার সারসংক্ষেপ পাবেন।",
        "en": "This quiz is still running. Your recap comes when it ends.",
    },
    "hw_member_unknown": {
        "bn": "আপনি হোমওয়ার্কের গ্রুপে আছেন কিনা যাচাই করতে পারিনি। একটু পরে আবার চেষ্টা করুন।",
        "en": "I could not check that you are in the homework's group. Please try again later.",
    },
    "practice_wait_live": {
        "bn": "«{title}» এখন আপনার একটি গ্রুপে চলছে। কুইজ শেষ হলে এখানে অনুশীলন করতে পারবেন।",
        "en": "“{title}” is running in one of your groups right now. "
        "You can practise it here when it ends.",
    },
    "practice_wait_homework": {
        "bn": "«{title}» আপনার একটি গ্রুপে হোমওয়ার্ক হিসেবে খোলা আছে। "
        "শেষ সময়ের পরে এখানে অনুশীলন করতে পারবেন।",
        "en": "“{title}” is open as homework in one of your groups. "
        "You can practise it here after its deadline.",
    },
    "resend_upload": {
        "bn": "আপনার পাঠানো ফাইলটি নিয়ে কাজ করার সময় আমি আবার চালু হয়েছি, তাই সেটি শেষ হয়নি। "
        "অনুগ্রহ করে ফাইলটি আবার পাঠান।",
        "en": "I restarted while working on the file you sent, so it was not finished. "
        "Please send it again.",
    },
    "resend_message": {
        "bn": "আপনার শেষ বার্তাটি নিয়ে কাজ করার সময় আমি আবার চালু হয়েছি। অনুগ্রহ করে আবার পাঠান।",
        "en": "I restarted while working on your last message. Please send it again.",
    },
    "upload_daily_limit": {
        "bn": "আজকের জন্য যথেষ্ট ফাইল পেয়েছি: প্রতি ২৪ ঘণ্টায় একজন সর্বোচ্চ {count}টি ফাইল, "
        "মোট {mb} MB পাঠাতে পারেন। অনুগ্রহ করে পরে আবার পাঠান।",
        "en": "That is enough files for today: each person may send up to {count} files, "
        "{mb} MB in all, in 24 hours. Please send it again later.",
    },
}
