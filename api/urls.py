from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api import views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("games/", views.GameListApi.as_view(), name="game-list"),
    path("games/<str:game_id>/state/", views.GameStateApi.as_view(), name="game-state"),
    path("games/<str:game_id>/events/", views.GameEventsApi.as_view(), name="game-events"),
    path("games/<str:game_id>/commands/", views.GameCommandApi.as_view(), name="game-command"),
]
