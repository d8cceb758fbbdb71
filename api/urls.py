from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api.errors import api_not_found
from api.views import audit, auth, lobby, notices, play, ratings
from api.views.live import GameStreamApi, async_entry
from api.views.records import GameRecordApi

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("auth/signup/", auth.SignupApi.as_view(), name="signup"),
    path("auth/token/", auth.TokenApi.as_view(), name="token"),
    path("me/", auth.MeApi.as_view(), name="me"),
    path("me/notifications/", notices.MeNotificationsApi.as_view(), name="me-notifications"),
    path("me/webhooks/", notices.MeWebhooksApi.as_view(), name="me-webhooks"),
    path("me/channels/<str:channel_id>/", notices.MeChannelApi.as_view(), name="me-channel"),
    path("me/channels/<str:channel_id>/test/", notices.MeChannelTestApi.as_view(), name="me-channel-test"),
    path("me/channels/<str:channel_id>/enable/", notices.MeChannelEnableApi.as_view(), name="me-channel-enable"),
    path("rulesets/", lobby.RulesetListApi.as_view(), name="ruleset-list"),
    path("games/", lobby.GameListApi.as_view(), name="game-list"),
    path("games/<str:game_id>/", lobby.GameDetailApi.as_view(), name="game-detail"),
    path("games/<str:game_id>/join/", lobby.GameJoinApi.as_view(), name="game-join"),
    path("games/<str:game_id>/start/", lobby.GameStartApi.as_view(), name="game-start"),
    path("games/<str:game_id>/invitations/", __import__("api.views.invitations", fromlist=["_"]).GameInvitationsApi.as_view(), name="game-invitations"),  # noqa: E501 -- one line: the rest of this file is another engineer's
    path("games/<str:game_id>/state/", play.GameStateApi.as_view(), name="game-state"),
    path("games/<str:game_id>/events/", async_entry(play.GameEventsApi), name="game-events"),
    path("games/<str:game_id>/stream/", async_entry(GameStreamApi), name="game-stream"),
    path("games/<str:game_id>/commands/", play.GameCommandApi.as_view(), name="game-command"),
    path("games/<str:game_id>/turn/", play.GameTurnApi.as_view(), name="game-turn"),
    path("games/<str:game_id>/inbox/", play.GameInboxApi.as_view(), name="game-inbox"),
    path("games/<str:game_id>/reminders/", play.GameRemindersApi.as_view(), name="game-reminders"),
    path("games/<str:game_id>/vacation/", play.GameVacationApi.as_view(), name="game-vacation"),
    path("games/<str:game_id>/replay/", audit.GameReplayApi.as_view(), name="game-replay"),
    path("games/<str:game_id>/log/", audit.GameLogApi.as_view(), name="game-log"),
    path("games/<str:game_id>/verify/", audit.GameVerifyApi.as_view(), name="game-verify"),
    path("games/<str:game_id>/corrections/", audit.GameCorrectionApi.as_view(), name="game-corrections"),
    path("games/<str:game_id>/channel/", notices.GameChannelApi.as_view(), name="game-channel"),
    path("games/<str:game_id>/dice/", audit.GameDiceApi.as_view(), name="game-dice"),
    path("games/<str:game_id>/record/", GameRecordApi.as_view(), name="game-record-file"),
    path("games/<str:game_id>/void/", ratings.GameVoidApi.as_view(), name="game-void"),
    path("rulesets/<str:name>/ladder/", ratings.RulesetLadderApi.as_view(), name="ruleset-ladder"),
    path("players/<str:username>/ratings/", ratings.PlayerRatingsApi.as_view(), name="player-ratings"),
    path("leagues/", lobby.LeagueListApi.as_view(), name="league-list"),
    path("leagues/<int:league_id>/queue/", lobby.LeagueQueueApi.as_view(), name="league-queue"),
    path("leagues/<int:league_id>/next-game/", lobby.LeagueNextGameApi.as_view(), name="league-next-game"),
    path("leagues/<int:league_id>/channel/", notices.LeagueChannelApi.as_view(), name="league-channel"),
    # Last: any other path under /api/ is a problem+json 404, even with DEBUG on.
    re_path(r"^", api_not_found, name="api-not-found"),
]
