from django.urls import path

from learning import views

urlpatterns = [
    path("exercises/", views.stream, name="exercise_stream"),
    path("exercises/<int:exercise_id>/", views.exercise_page, name="exercise"),
    path("exercises/<int:exercise_id>/answer", views.answer, name="exercise_answer"),
    path("matches/<int:match_id>/mistakes/", views.own_mistakes, name="own_mistakes"),
]
