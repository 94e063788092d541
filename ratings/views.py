from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.selectors import leaderboard as leaderboard_rows


def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/leaderboard.html", {"rows": leaderboard_rows()})
