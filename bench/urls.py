"""The API's URLs plus the bench's bare view (bench/orders.py sets ROOT_URLCONF here)."""

from django.urls import include, path

from bench.bare import BarePost

urlpatterns = [path("bench/bare/", BarePost.as_view()), path("api/", include("api.urls"))]
handler400 = "api.errors.handler400"
handler403 = "api.errors.handler403"
handler404 = "api.errors.handler404"
handler500 = "api.errors.handler500"
