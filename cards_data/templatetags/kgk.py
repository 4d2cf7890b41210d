from django import template
from django.urls import translate_url

register = template.Library()


@register.filter
def get_item(mapping, key):
    return (mapping or {}).get(key, "")


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
