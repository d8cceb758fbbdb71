FROM python:3.11-slim
# PYTHONPATH: config, notices and game_pages are copied but not packages pyproject.toml installs.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 REFEREE_VAR_DIR=/var/lib/referee PYTHONPATH=/app
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config config
COPY referee referee
COPY games games
COPY api api
COPY frontend_templates frontend_templates
COPY notices notices
COPY game_pages game_pages
COPY manage.py ./
RUN pip install --no-cache-dir . && mkdir -p /var/lib/referee \
    && DJANGO_DEBUG=1 python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["gunicorn", "config.asgi:application", "--worker-class", "config.asgi.Worker", "--bind", "0.0.0.0:8000"]
