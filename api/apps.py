from django.apps import AppConfig


class ApiConfig(AppConfig):
    # Live readers learn of scheduled work's appends from the jobs themselves: a unit of due
    # work announces its game when its transaction commits (referee.scheduling), whoever
    # runs it (a worker's task, the sweeper, a web process running tasks eagerly).
    name = "api"
