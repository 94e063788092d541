from django.urls import path

from accounts import views

urlpatterns = [
    path("play/now/", views.play_now, name="play_now"),
    path("settings/sounds/", views.sounds, name="preferences_sounds"),
    path("settings/appearance/", views.appearance, name="appearance"),
]
