"""Strings of reading users' files and typed questions in worker processes (issue 23)."""

from __future__ import annotations

from bot.lang import Lang

MESSAGES: dict[str, dict[Lang, str]] = {
    "parse_too_long_file": {
        "bn": "ফাইলটি পড়তে অনেক বেশি সময় বা মেমরি লাগছিল, তাই থামানো হয়েছে। কিছুই সংরক্ষণ "
        "হয়নি। ফাইলটি কয়েকটি ছোট ফাইলে ভাগ করে পাঠান।",
        "en": "This file took too long to read (or needed too much memory), so reading it was "
        "stopped. Nothing was saved. Please split it into smaller files.",
    },
    "parse_too_long_text": {
        "bn": "বার্তাটি পড়তে অনেক বেশি সময় লাগছিল, তাই থামানো হয়েছে। কিছুই যোগ হয়নি।",
        "en": "This message took too long to read, so reading it was stopped. Nothing was added.",
    },
    "parse_busy_file": {
        "bn": "এই মুহূর্তে অনেক ফাইল পড়া হচ্ছে। কিছুই সংরক্ষণ হয়নি; এক মিনিট পরে আবার পাঠান।",
        "en": "Many files are being read right now. Nothing was saved; please send it again "
        "in a minute.",
    },
    "parse_busy_text": {
        "bn": "এই মুহূর্তে অনেক কিছু পড়া হচ্ছে। কিছুই যোগ হয়নি; এক মিনিট পরে আবার পাঠান।",
        "en": "Many messages are being read right now. Nothing was added; please send it again "
        "in a minute.",
    },
}
