from django.apps import AppConfig


class FrontendTemplatesConfig(AppConfig):
    name = "frontend_templates"
