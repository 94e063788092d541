from accounts.routing import websocket_urlpatterns as accounts_websockets
from games.routing import websocket_urlpatterns as games_websockets

websocket_urlpatterns = [*accounts_websockets, *games_websockets]
