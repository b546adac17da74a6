#!/usr/bin/env bash
# Make sure a PostgreSQL server answers on 127.0.0.1:5432 for the tests (.ci/run calls this).
# Uses the machine's server when one answers; otherwise installs Debian's postgresql package, starts
# its cluster, gives the postgres role a password for loopback connections, and writes the URL to
# .ci/postgres.env (read by .ci/run). Exits non-zero when no server can be made to answer.
set -uo pipefail
cd "$(dirname "$0")/.."
ready() { command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q; }
if ready; then exit 0; fi
echo "ensure-postgres: no server on 127.0.0.1:5432; installing and starting Debian's postgresql" >&2
if ! command -v pg_ctlcluster >/dev/null; then
  (apt-get install -y -qq postgresql >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq postgresql >/dev/null 2>&1; }) || {
    echo "ensure-postgres: could not install postgresql" >&2
    exit 1
  }
fi
for version in $(ls /etc/postgresql 2>/dev/null); do pg_ctlcluster "$version" main start >/dev/null 2>&1 || true; done
for _ in $(seq 1 30); do ready && break; sleep 1; done
if ! ready; then
  echo "ensure-postgres: the server did not start" >&2
  exit 1
fi
# A packaged cluster asks loopback TCP clients for a password: give the postgres role one for the tests.
password="contractgen-ci-$(date +%s)"
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD '${password}'\"" >/dev/null
echo "CONTRACTGEN_TEST_PG_URL=postgres://postgres:${password}@127.0.0.1:5432/postgres" > .ci/postgres.env
