"""The Hungarian definite article, "a" or "az", chosen by the word that follows.

Hungarian writes "az" before a vowel sound and "a" before a consonant, by how the word is
said, not how it is written: "az 1. forduló" (egy), "az 5" (öt), "az 50" (ötven), "az
1000" (ezer), "a 2." (kettő), "a 100" (száz), "az S" (es), "a KG1-009" (ká). Translations
that cannot know the word in advance write "a(z)" before it ("A(z) %(n)s. forduló");
`articles` settles each one once the sentence is filled in. Pure Python, no Django.
"""

import re

_VOWELS = "aáeéiíoóöőuúüű"
# letters whose Hungarian names begin with a vowel: a, e, ef, el, em, en, er, es, iksz...
_VOWEL_NAMED_LETTERS = set("AÁEÉFIÍLMNOÓÖŐRSUÚÜŰXY")
_OPENERS = "\"'„“”«»‚‘’([{*_"
_PLACEHOLDER = re.compile(r"\b([Aa])\(z\) ")


def _number_starts_with_vowel(digits: str) -> bool:
    """Whether a whole number is said with a vowel first.

    Only the first group of three digits is said first: 1 is "egy" (or "ezer", "egymillió"
    when a scale follows), 5 is "öt" wherever it leads (5, 50, 500, 5000); every other
    leading digit is said with a consonant (két, tíz, száz, hat...), and 0 is "nulla"."""
    digits = digits.lstrip("0")
    if not digits:
        return False
    lead = digits[: len(digits) % 3 or 3]
    return lead == "1" or lead.lstrip("0")[0] == "5"


def az(word) -> str:
    """ "az" if `word` (a number or a word, as written) is said with a vowel first, else "a"."""
    text = str(word).strip().lstrip(_OPENERS)
    if not text:
        return "a"
    number = re.match(r"[\d\s\u00a0\u202f]*\d", text)
    if number:
        return "az" if _number_starts_with_vowel(re.sub(r"\D", "", number.group())) else "a"
    head = re.match(r"\w+", text)
    if not head:  # a symbol ('<=', '-', '/hu/...'): said as a word with a consonant
        return "a"
    head = head.group()
    if len(head) == 1 or (head.isupper() and len(head) <= 5):  # a letter or an acronym
        return "az" if head[0].upper() in _VOWEL_NAMED_LETTERS else "a"
    return "az" if head[0].lower() in _VOWELS else "a"


def articles(text: str) -> str:
    """The text with every "a(z) word" / "A(z) word" written as a Hungarian would."""
    if "(z) " not in text:
        return text

    def settle(match):
        article = az(text[match.end() :])
        return (article.capitalize() if match.group(1) == "A" else article) + " "

    return _PLACEHOLDER.sub(settle, text)
