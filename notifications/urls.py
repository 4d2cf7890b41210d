from django.urls import path

from . import views

app_name = "notifications"
urlpatterns = [
    path("", views.index, name="index"),
    path("read/", views.read, name="read"),
    path("<int:pk>/go/", views.go, name="go"),
    path("settings/", views.settings_page, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
