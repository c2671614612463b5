from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("practice/", views.practice_start, name="practice_start"),
    path("<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("<int:tournament_id>/seat/", views.tournament_seat, name="seat"),
    path("<int:tournament_id>/register/", views.tournament_register, name="register"),
    path("<int:tournament_id>/unregister/", views.tournament_unregister, name="unregister"),
]
