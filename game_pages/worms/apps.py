from django.apps import AppConfig


class WormsPagesConfig(AppConfig):
    name = "game_pages.worms"
    label = "game_pages_worms"
    verbose_name = "Worms pages"

    def ready(self) -> None:
        from frontend_templates.plugins import register
        from game_pages.worms.pages import PAGES

        register(PAGES)
