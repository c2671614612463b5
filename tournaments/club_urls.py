from django.urls import path

from tournaments import club_views

app_name = "clubs"

urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("<slug:slug>/", club_views.club_detail, name="detail"),
    path("<slug:slug>/join/<str:token>/", club_views.club_join, name="join"),
    path("<slug:slug>/ask/", club_views.club_ask, name="ask"),
    path("<slug:slug>/leave/", club_views.club_leave, name="leave"),
    path("<slug:slug>/members/<str:username>/", club_views.club_member, name="member"),
    path("<slug:slug>/points/", club_views.club_points, name="points"),
    path("<slug:slug>/invitation/", club_views.club_invitation_reset, name="invitation"),
    path("<slug:slug>/schedule/", club_views.club_schedule, name="schedule"),
]
