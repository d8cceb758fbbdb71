#!/bin/sh
# Runs once, when the database is created (the postgres image's docker-entrypoint-initdb.d).
# The service's own role owns nothing (referee/db_roles.py): the tables belong to
# $POSTGRES_USER, which runs the migrations and grants this role what the service needs.
set -e
psql -v ON_ERROR_STOP=1 -v password="$REFEREE_APP_DB_PASSWORD" \
  --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'EOSQL'
CREATE ROLE referee_app LOGIN PASSWORD :'password';
EOSQL
