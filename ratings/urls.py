from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:board>/", views.leaderboard, name="leaderboard_board"),
]
