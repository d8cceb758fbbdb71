from django.apps import AppConfig


class WormlordPagesConfig(AppConfig):
    name = "game_pages.wormlord"
    label = "game_pages_wormlord"
    verbose_name = "Wormlord pages"

    def ready(self) -> None:
        from frontend_templates.plugins import register
        from game_pages.wormlord.pages import PAGES

        register(PAGES)
