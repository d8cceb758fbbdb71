"""Worms' turn controls post here; ``frontend_templates.urls`` includes these patterns
for every registered plug-in (the paths and names are the ones the pages always had)."""

from django.urls import path

from game_pages.worms import views

urlpatterns = [
    path("games/<str:game_id>/move/", views.move, name="game-move"),
    path("games/<str:game_id>/fire/", views.fire, name="game-fire"),
    path("games/<str:game_id>/end/", views.end_turn, name="game-end-turn"),
    path("games/<str:game_id>/surrender/", views.surrender, name="game-surrender"),
    path("rules/worms/", views.rules, name="worms-rules"),
]
