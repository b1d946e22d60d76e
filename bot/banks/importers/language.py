"""The language an imported bank is written in, guessed from its texts (pure, linear).

Bengali and English banks are what the bot serves in both chat languages; a bank in another
language is imported as a one-language bank labelled with its own language (``language: fr``),
shown as written while the bot's own words follow each chat's language. The guess is a simple
heuristic, kept small on purpose: the writing system first (Bengali, Arabic, Cyrillic,
Devanagari, Greek, Hebrew, Han, kana, Hangul, Thai), then, for Latin-script texts, which
language's most common short words (and letters such as ``ñ``, ``ß``, ``ã``) appear most:
English, French, Spanish, German, Portuguese, Italian or Dutch. English wins ties and texts too
short to tell. One pass over at most ``SAMPLE`` characters.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

SAMPLE = 20_000  # characters looked at

#: the writing systems told apart by their Unicode blocks, and the language each one means here
_SCRIPTS: tuple[tuple[int, int, str], ...] = (
    (0x0980, 0x09FF, "bn"),
    (0x0600, 0x06FF, "ar"),
    (0x0400, 0x04FF, "ru"),
    (0x0900, 0x097F, "hi"),
    (0x0370, 0x03FF, "el"),
    (0x0590, 0x05FF, "he"),
    (0x3040, 0x30FF, "ja"),  # hiragana and katakana: Japanese even among Han characters
    (0x4E00, 0x9FFF, "zh"),
    (0xAC00, 0xD7AF, "ko"),
    (0x0E00, 0x0E7F, "th"),
)


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_WORDS: dict[str, frozenset[str]] = {
    "en": _set(
        "the of and is are which what who how does do in to a an for with not this that from "
        "it was by on"
    ),
    "fr": _set(
        "le la les des est une un du quel quelle quels que qui et dans pour avec pas sur au "
        "aux ce cette sont ne il elle"
    ),
    "es": _set(
        "el la los las es una un del que cuál cual qué y en por con para no se son al está cómo"
    ),
    "de": _set(
        "der die das und ist ein eine nicht welche welcher welches was mit von zu den dem im "
        "auf sind wie"
    ),
    "pt": _set("o a os as é um uma do da dos das que qual não em com para por são no na"),
    "it": _set("il lo la gli le è un una del della che quale non di in con per sono nel dei"),
    "nl": _set("de het een is van en niet wat welke met voor zijn op te dat die hoe"),
}
#: letters that only some of the Latin-script languages use, and whose they are
_LETTERS: dict[str, str] = {
    "ñ": "es",
    "¿": "es",
    "¡": "es",
    "ß": "de",
    "ä": "de",
    "ö": "de",
    "ü": "de",
    "ã": "pt",
    "õ": "pt",
    "ç": "fr",
    "è": "fr",
    "ê": "fr",
    "œ": "fr",
    "ì": "it",
    "ò": "it",
    "ĳ": "nl",
}


def detect(texts: list[str]) -> str:
    """The language code of ``texts`` taken together: "bn", "en", or another language's
    ISO 639-1 code ("fr", "ar"...)."""
    sample = "\n".join(texts)[:SAMPLE]
    scripts: Counter[str] = Counter()
    latin = 0
    for ch in sample:
        if not ch.isalpha():
            continue
        code = ord(ch)
        if code < 0x0250:
            latin += 1
            continue
        for low, high, lang in _SCRIPTS:
            if low <= code <= high:
                scripts[lang] += 1
                break
    if scripts:
        lang, count = scripts.most_common(1)[0]
        if count > latin:
            return lang
    return _latin(sample)


def _latin(sample: str) -> str:
    """The Latin-script language whose common words and letters ``sample`` holds most."""
    score: Counter[str] = Counter()
    word: list[str] = []
    for ch in unicodedata.normalize("NFC", sample.casefold()) + " ":
        if ch.isalpha():
            word.append(ch)
            if ch in _LETTERS:
                score[_LETTERS[ch]] += 1
            continue
        if ch in _LETTERS:
            score[_LETTERS[ch]] += 1
        if word:
            token = "".join(word)
            word.clear()
            for lang, words in _WORDS.items():
                if token in words:
                    score[lang] += 1
    if not score:
        return "en"
    best = max(score.values())
    if score["en"] == best or best < 3:
        return "en"
    return max(score, key=lambda lang: score[lang])
