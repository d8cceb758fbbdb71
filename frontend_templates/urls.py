from django.urls import path

from frontend_templates import (
    views_account,
    views_export,
    views_game,
    views_lobby,
    views_notices,
    views_ratings,
    views_replay,
)
from frontend_templates.plugins import registered

urlpatterns = [
    path("", views_lobby.home, name="home"),
    path("favicon.ico", views_game.favicon, name="favicon"),
    path("signup/", views_lobby.signup, name="signup"),
    path("accounts/profile/", views_lobby.profile, name="profile"),
    path("my/", views_lobby.my_games, name="my-games"),
    path("games/new/", views_lobby.create, name="game-create"),
    path("settings/", views_account.settings_page, name="settings"),
    path("settings/notices/", views_notices.notices_post, name="settings-notices"),
    path("games/<str:game_id>/", views_game.game_detail, name="game-detail"),
    path("games/<str:game_id>/join/", views_lobby.join, name="game-join"),
    path("games/<str:game_id>/begin/", views_game.begin, name="game-begin"),
    path("games/<str:game_id>/order/", views_game.order, name="game-order"),
    path("games/<str:game_id>/board.svg", views_game.board, name="game-board-svg"),
    path("games/<str:game_id>/board.png", views_export.board_image, name="game-board-png"),
    path("games/<str:game_id>/forum/", views_export.forum, name="game-forum"),
    path("games/<str:game_id>/replay/", views_replay.replay, name="game-replay"),
    path("games/<str:game_id>/audit/", views_replay.audit, name="game-audit"),
    path("rulesets/<str:name>/ladder/", views_ratings.ladder, name="ruleset-ladder"),
    path("players/<str:username>/", views_ratings.player, name="player-ratings"),
]

# Each registered page plug-in may add its own routes (its order forms post to them).
for _pages in registered():
    urlpatterns += list(_pages.urlpatterns())
