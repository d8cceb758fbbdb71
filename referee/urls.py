from django.contrib import admin
from django.urls import include, path

from referee.health import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("api.urls")),
    path("health/", health, name="health"),
    path("", include("frontend_templates.urls")),
]
