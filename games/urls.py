from django.urls import path

from games import views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("watch/", views.watch, name="watch"),
    path("fairness/", views.fairness, name="fairness"),
    path("matches/new/", views.match_create, name="match_create"),
    path("matches/computer/", views.match_create_vs_bot, name="match_create_vs_bot"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/accept/", views.match_accept, name="match_accept"),
    path("matches/<int:match_id>/cancel/", views.match_cancel, name="match_cancel"),
    path("matches/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("matches/<int:match_id>/export.json", views.match_export, name="match_export"),
    path("matches/<int:match_id>/decline/", views.challenge_decline, name="challenge_decline"),
    path("@/<str:username>/challenge/", views.challenge_player, name="challenge_player"),
    path("invite/<str:token>/", views.match_invite, name="match_invite"),
]
