from django.apps import AppConfig


class LggwgPagesConfig(AppConfig):
    name = "game_pages.lggwg"
    label = "game_pages_lggwg"
    verbose_name = "LGGWG pages"

    def ready(self) -> None:
        from frontend_templates.plugins import register
        from game_pages.lggwg.pages import PAGES

        register(PAGES)
