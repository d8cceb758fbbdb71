"""Parties' own routes; ``frontend_templates.urls`` includes them (``PartiesPages.urlpatterns``)."""

from django.urls import path

from game_pages.parties import views

urlpatterns = [
    path("games/<str:game_id>/parties/live/", views.live, name="parties-live"),
    path("games/<str:game_id>/parties/move/", views.move, name="parties-move"),
    path("games/<str:game_id>/parties/ally/", views.ally_policy, name="parties-ally"),
    path("games/<str:game_id>/parties/result/", views.result, name="parties-result"),
]
