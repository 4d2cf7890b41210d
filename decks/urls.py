from django.urls import path

from . import views_builder, views_pages

app_name = "decks"
urlpatterns = [
    path("", views_pages.deck_list, name="list"),
    path("new/", views_builder.builder, name="new"),
    path("import/", views_pages.import_page, name="import"),
    path("compare/", views_pages.compare, name="compare"),
    path("collection/", views_pages.collection_page, name="collection"),
    path("<int:pk>/", views_pages.deck_detail, name="detail"),
    path("<int:pk>/edit/", views_builder.builder, name="edit"),
    path("<int:pk>/print/", views_pages.print_decklist, name="print"),
    path("<int:pk>/versions/", views_pages.versions, name="versions"),
]
