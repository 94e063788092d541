from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications/", views.notifications_page, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    path("notifications/clear/", views.notifications_delete, name="notifications_clear"),
    path("notifications/kinds/", views.notification_kinds, name="notification_kinds"),
]
