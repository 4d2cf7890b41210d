import re

import markdown as markdown_lib
import nh3
from django import template
from django.urls import translate_url
from django.utils.html import escape, format_html
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import gettext as _

from cardgame.hungarian import articles
from cardgame.language import current_language

register = template.Library()

# The safe subset of Markdown a person may write in a description (decks, events):
# emphasis, lists, quotes, code, headings and links; never raw HTML, images or script.
MARKDOWN_TAGS = {
    "p", "br", "strong", "em", "ul", "ol", "li", "blockquote", "code", "pre",
    "h3", "h4", "h5", "h6", "a", "hr",
}  # fmt: skip
MARKDOWN_ATTRIBUTES = {"a": {"href", "title"}}
MAX_MARKDOWN_CHARS = 20_000


@register.filter
def get_item(mapping, key):
    return (mapping or {}).get(key, "")


@register.filter
def in_language(names):
    """The reader's one of a {"hu": ..., "en": ...} pair (engine.catalog's tables)."""
    return names[current_language()]


@register.filter
def signed(value):
    """A printed bonus with its sign: "+2", "-1" (never "+-1"), "0"."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{number}" if number > 0 else str(number)


@register.filter(name="articles")
def articles_filter(text):
    """A translated sentence's "a(z) word" written as "a word" or "az word" (Hungarian,
    cardgame/hungarian.py); safe text stays safe (only the article changes)."""
    settled = articles(str(text))
    return mark_safe(settled) if isinstance(text, SafeData) else settled  # noqa: S308  # nosec


@register.simple_tag(takes_context=True)
def url_in_language(context, lang_code):
    """This page's URL in another language, worked out from the page's own language.

    Django's set_language translates `next` under the browser's language, which fails
    for a /hu/ page seen by an English browser; handing it the finished URL avoids that.
    """
    request = context["request"]
    url = translate_url(request.path, lang_code)
    query = request.META.get("QUERY_STRING")
    return f"{url}?{query}" if query else url


@register.filter(name="markdown")
def markdown_filter(text):
    """A user's text as a safe subset of Markdown: rendered by `markdown`, then sanitised
    by nh3 (the Ammonia sanitiser), so nothing a person writes can run script. Raw HTML
    in the text is escaped first; links get rel="nofollow noopener"."""
    if not text:
        return ""
    source = str(text)[:MAX_MARKDOWN_CHARS].replace("<", "&lt;")
    html = markdown_lib.markdown(source, extensions=["sane_lists"], output_format="html")
    # headings a person writes sit below the page's own h1/h2
    html = html.replace("<h1>", "<h3>").replace("</h1>", "</h3>")
    html = html.replace("<h2>", "<h3>").replace("</h2>", "</h3>")
    clean = nh3.clean(
        html,
        tags=MARKDOWN_TAGS,
        attributes=MARKDOWN_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )
    return mark_safe(clean)  # noqa: S308 - sanitised by nh3 just above  # nosec


# R 2.4: the icon tokens of card text ("2 [CR], [USED]: ..."), each shown as its icon
# letter with the word as a tooltip; the search help page shows the same table as a legend.
def rules_tokens() -> dict:
    return {
        "CR": ("C", _("Credit: a number of credits (cost or gain)")),
        "UPG": ("F", _("Upgrade: an upgrade counter or the upgrade limit of a base")),
        "DMG": ("S", _("Damage: points of armour lost")),
        "ACTIVE": ("A", _("Active: the card stands upright")),
        "USED": ("H", _("Used: turn the card 90° to the right (as a cost or a state)")),
        "DAMAGED": ("D", _("Damaged: turn the card 180° (as a cost or a state)")),
        "SACRIFICE": ("L", _("Sacrifice: put this card into its trash")),
        "SPD": ("V", _("Speed")),
        "FP": ("T", _("Firepower")),
        "ARM": ("P", _("Armour")),
        "BMB": ("B", _("Bombardment")),
    }


TOKEN = re.compile(r"\[([A-Z]+)\]")


def rules_parts(text) -> list[dict]:
    """A card's rules text in parts: {"text": ...} or, for each R 2.4 token, {"token": its
    code in lower case, "icon": its letter, "title": its meaning}; an unknown token stays
    text. The catalogue's HTML (rules_text) and the game table's cards are made from it."""
    tokens = rules_tokens()
    text = str(text or "")
    parts, last = [], 0
    for match in TOKEN.finditer(text):
        code = match.group(1)
        if code not in tokens:
            continue
        if match.start() > last:
            parts.append({"text": text[last : match.start()]})
        letter, meaning = tokens[code]
        parts.append({"token": code.lower(), "icon": letter, "title": str(meaning)})
        last = match.end()
    if last < len(text):
        parts.append({"text": text[last:]})
    return parts


@register.filter
def rules_text(text):
    """A card's rules text with every R 2.4 token as its icon (tooltip = its meaning);
    the rest escaped, line breaks kept."""
    html = [
        format_html(
            '<abbr class="token token-{}" title="{}">{}</abbr>', p["token"], p["title"], p["icon"]
        )
        if "token" in p
        else escape(p["text"])
        for p in rules_parts(text)
    ]
    return mark_safe("".join(html).replace("\n", "<br>"))  # noqa: S308 - every part escaped above  # nosec


@register.simple_tag
def rules_token_legend():
    """[(token, icon letter, meaning)] for the search help page's legend."""
    return [(code, letter, meaning) for code, (letter, meaning) in rules_tokens().items()]
