from django.urls import path

from moderation import views

urlpatterns = [
    path("@/<str:username>/block", views.block, name="block"),
    path("@/<str:username>/unblock", views.unblock, name="unblock"),
    path("@/<str:username>/report", views.report, name="report"),
]
