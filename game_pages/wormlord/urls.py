"""Wormlord's own routes: an action on a space (a click on the board) and the live fragment."""

from django.urls import path

from game_pages.wormlord import views

urlpatterns = [
    path("games/<str:game_id>/wormlord/act/", views.act, name="wormlord-act"),
    path("games/<str:game_id>/wormlord/live/", views.live_fragment, name="wormlord-live"),
]
