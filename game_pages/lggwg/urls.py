"""LGGWG's own routes: the order-list builder's forms, the game record, the rules."""

from django.urls import path

from game_pages.lggwg import views

urlpatterns = [
    path("games/<str:game_id>/lggwg/orders/", views.order_list, name="lggwg-orders"),
    path("games/<str:game_id>/lggwg/record.tak", views.record_file, name="lggwg-record"),
    path("rules/lggwg/", views.rules, name="lggwg-rules"),
]
