from django.urls import path

from frontend_templates import views

urlpatterns = [
    path("", views.game_list, name="home"),
    path("games/<str:game_id>/", views.game_detail, name="game-detail"),
]
