from django.urls import path

from accounts import views

urlpatterns = [
    path("@/<str:username>", views.profile, name="profile"),
    path("settings/", views.preferences, name="preferences"),
    path("play/now/", views.play_now, name="play_now"),
    path("settings/sounds/", views.sounds, name="preferences_sounds"),
]
