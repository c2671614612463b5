from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Scheduled and running tournaments (none are stored yet)."""
    return render(request, "tournaments/tournament_list.html", {"tournaments": []})
