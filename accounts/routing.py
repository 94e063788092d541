from django.urls import path

from accounts.consumers import MeSocket

websocket_urlpatterns = [path("ws/me/", MeSocket.as_asgi())]
