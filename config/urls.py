from django.contrib import admin
from django.urls import include, path

from referee.health import health
from referee.metrics_endpoint import metrics_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("api.urls")),
    path("health/", health, name="health"),
    path("metrics/", metrics_view, name="metrics"),
    path("", include("frontend_templates.urls")),
]

# Under /api/ every error answers problem+json; elsewhere Django's pages (api/errors.py).
handler400 = "api.errors.handler400"
handler403 = "api.errors.handler403"
handler404 = "api.errors.handler404"
handler500 = "api.errors.handler500"
