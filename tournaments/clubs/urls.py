from django.urls import path

from tournaments.clubs import views

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/join/<str:token>/", views.club_join, name="join"),
    path("<slug:slug>/ask/", views.club_ask, name="ask"),
    path("<slug:slug>/leave/", views.club_leave, name="leave"),
    path("<slug:slug>/members/<str:username>/", views.club_member, name="member"),
    path("<slug:slug>/points/", views.club_points, name="points"),
    path("<slug:slug>/points/everyone/", views.club_grant, name="grant"),
    path("<slug:slug>/joining-points/", views.club_joining_points, name="joining_points"),
    path("<slug:slug>/invitation/", views.club_invitation_reset, name="invitation"),
    path("<slug:slug>/schedule/", views.club_schedule, name="schedule"),
    path("<slug:slug>/series/<int:series_id>/stop/", views.club_series_stop, name="series_stop"),
]
