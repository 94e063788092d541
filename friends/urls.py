from django.urls import path

from friends import views

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("@/<str:username>/follow/", views.follow, name="follow"),
    path("@/<str:username>/unfollow/", views.unfollow, name="unfollow"),
]
