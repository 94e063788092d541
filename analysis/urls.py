from django.urls import path

from analysis import views

urlpatterns = [
    path("matches/<int:match_id>/analysis/", views.request_analysis, name="analysis_request"),
    path("matches/<int:match_id>/analysis.json", views.state, name="analysis_state"),
]
