from django.apps import AppConfig


class PartiesPagesConfig(AppConfig):
    name = "game_pages.parties"
    label = "game_pages_parties"
    verbose_name = "Parties pages"

    def ready(self) -> None:
        from frontend_templates.plugins import register
        from game_pages.parties.pages import PAGES

        register(PAGES)
