from accounts.routing import websocket_urlpatterns as accounts_websockets

websocket_urlpatterns = [*accounts_websockets]
