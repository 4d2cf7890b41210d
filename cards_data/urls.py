from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.card_list, name="list"),
    path("cards/random/", views.random_card, name="random"),
    path("cards/<str:code>/", views.card_detail, name="detail"),
    path("cards/<str:code>/art.svg", views.card_art, name="art"),
    path("help/search/", views.search_help, name="search-help"),
]
