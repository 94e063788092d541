from django.urls import path

from games.consumers import MatchSocket
from games.lobby_socket import LobbySocket

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchSocket.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
]
