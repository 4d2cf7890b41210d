from django.urls import path

from .consumers import BellConsumer

websocket_urlpatterns = [
    path("ws/me/", BellConsumer.as_asgi()),
]
