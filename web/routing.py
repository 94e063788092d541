from django.urls import path

from games.routing import websocket_urlpatterns as games_websockets
from tournaments.socket import TournamentSocket
from web.me_socket import MeSocket

websocket_urlpatterns = [
    path("ws/me/", MeSocket.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentSocket.as_asgi()),
    *games_websockets,
]
