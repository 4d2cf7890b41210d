from django.urls import path

from . import views

app_name = "social"
urlpatterns = [
    path("", views.friends, name="friends"),
    *(path(f"{action}/", views.act, {"action": action}, name=action) for action in views.ACTIONS),
]
