"""The language an imported bank is written in, guessed from its texts (pure, linear).

Bengali and English banks are what the bot serves in both chat languages; a bank in another
language is imported as a one-language bank labelled with its own language (``language: fr``),
shown as written while the bot's own words follow each chat's language. The guess is a simple
heuristic, kept small on purpose: the writing system first (Bengali, Arabic, Cyrillic,
Devanagari, Greek, Hebrew, Han, kana, Hangul, Thai), then, for Latin-script texts, which
language's most common short words (and letters such as ``ñ``, ``ß``, ``ã``) appear most:
English, French, Spanish, Catalan, German, Portuguese, Italian or Dutch (a close runner-up
named: unsure). English wins ties and texts too
short to tell. One pass over at most ``SAMPLE`` characters.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

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


#: each language's commonest short words; none that is also a common English word ("no", "a",
#: "in", "is", "was"), so an English text never scores for another language by them
_WORDS: dict[str, frozenset[str]] = {
    "en": _set(
        "the of and is are which what who how does do in to an for with not this that from "
        "it was by on"
    ),
    "fr": _set(
        "le la les des est une un du de quel quelle quels que qui et dans pour avec pas sur "
        "au aux ce cette sont ne il elle"
    ),
    "es": _set(
        "el la los las es una un del de que cuál cual qué y en por con para se son al está cómo"
    ),
    # Catalan: Spanish's neighbour, told by the words the two do not share (és, els, amb, què)
    "ca": _set(
        "el la els les és una un del dels de que quin quina quins quines què i en per amb "
        "són al com aquest aquesta més també perquè pel hi"
    ),
    "de": _set(
        "der das und ist ein eine nicht welche welcher welches mit von zu den dem im auf sind wie"
    ),
    "pt": _set("o os é um uma da dos das de que qual não em com para por são na"),
    "it": _set("il lo la gli le è un una del della che quale non di con per sono nel dei"),
    "nl": _set("de het een van en niet wat welke met voor zijn dat hoe"),
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
    "·": "ca",  # l·l
}


@dataclass(frozen=True, slots=True)
class Guess:
    """A bank's language as guessed, and the close second when the texts do not tell the two
    apart (Spanish and Catalan sharing most of their short words): None when sure."""

    code: str
    second: str | None = None


def detect(texts: list[str]) -> str:
    """The language code of ``texts`` taken together: "bn", "en", or another language's
    ISO 639-1 code ("fr", "ar"...)."""
    return guess(texts).code


def guess(texts: list[str]) -> Guess:
    """The language of ``texts`` taken together, and the runner-up when it is as likely."""
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
            return Guess(lang)
    return _latin(sample)


def _latin(sample: str) -> Guess:
    """The Latin-script language of which ``sample`` holds the most different common words
    and telling letters (a word said 200 times counts once); English unless another has at
    least three and more than English. A runner-up within one word of it is named (unsure)."""
    found: dict[str, set[str]] = {lang: set() for lang in _WORDS}
    word: list[str] = []
    for ch in unicodedata.normalize("NFC", sample.casefold()) + " ":
        if ch in _LETTERS:
            found[_LETTERS[ch]].add(ch)
        if ch.isalpha():
            word.append(ch)
            continue
        if word:
            token = "".join(word)
            word.clear()
            for lang, words in _WORDS.items():
                if token in words:
                    found[lang].add(token)
    score = {lang: len(hits) for lang, hits in found.items()}
    ranked = sorted(score, key=lambda lang: (-score[lang], lang != "en"))
    best, second = ranked[0], ranked[1]
    if best == "en" or score[best] < 3 or score[best] <= score["en"]:
        return Guess("en")
    close = second != "en" and score[best] - score[second] <= 1
    return Guess(best, second if close else None)
