FROM python:3.11-slim
# PYTHONPATH: game_pages is copied but not (yet) a package pyproject.toml installs.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 REFEREE_VAR_DIR=/var/lib/referee PYTHONPATH=/app
WORKDIR /app
COPY pyproject.toml README.md ./
COPY referee referee
COPY games games
COPY api api
COPY frontend_templates frontend_templates
COPY game_pages game_pages
COPY game_pages game_pages
COPY manage.py ./
RUN pip install --no-cache-dir . && mkdir -p /var/lib/referee \
    && DJANGO_DEBUG=1 python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["gunicorn", "referee.asgi:application", "--worker-class", "referee.asgi.Worker", "--bind", "0.0.0.0:8000"]
