#!/usr/bin/env bash
# What the full test suite needs besides npm packages, checked and, when missing, installed or started:
#   - Redis at 127.0.0.1:6379 (the Redis store's tests; outage tests start their own redis-server);
#   - PostgreSQL at 127.0.0.1:5432, trust auth, user postgres (the MCP server-postgres tests);
#   - Debian's Chromium at $TOOLWARDEN_CHROMIUM or /usr/bin/chromium (the report page's browser test, driven by
#     playwright-core, which never downloads a browser);
#   - Java 17+ and Maven, and the Spring AI interop app's jar (interop/spring-ai/build.sh: offline from the
#     local Maven repository when it holds everything, else from Maven Central; it prints its build time).
# Installing and starting need root (apt-get, pg_ctlcluster); a step that cannot be done says what is missing
# and exits 1, so `npm run test:all` fails before the suite, not inside it.
set -euo pipefail

say() { echo "test-services: $*" >&2; }
sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

# Waits up to 30 s for a check to pass.
wait_for() {
  for _ in $(seq 1 60); do
    "$@" && return 0
    sleep 0.5
  done
  "$@"
}

apt_install() {
  local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@")
  # A stale package list makes the first install fail: update it and try once more.
  sudo_if_needed "${install[@]}" || { sudo_if_needed apt-get update && sudo_if_needed "${install[@]}"; }
}

redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  say "redis-server is missing; installing Debian's redis-server"
  apt_install redis-server || true
fi
if ! redis_up; then
  say "Redis does not answer at 127.0.0.1:6379; starting it"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  if ! wait_for redis_up; then
    say "Redis did not start at 127.0.0.1:6379 (see /var/log/redis/ci.log); the Redis store tests need it"
    exit 1
  fi
fi

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if ! pg_up; then
  if [ ! -d /etc/postgresql ]; then
    say "PostgreSQL is missing; installing Debian's postgresql"
    apt_install postgresql || true
  fi
  say "PostgreSQL does not answer at 127.0.0.1:5432; starting it"
  sudo_if_needed pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  if ! wait_for pg_up; then
    say "PostgreSQL did not start at 127.0.0.1:5432; the MCP server-postgres tests need it (trust auth, user postgres)"
    exit 1
  fi
fi

chromium="${TOOLWARDEN_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  say "$chromium is missing; installing Debian's chromium"
  apt_install chromium || true
  if [ ! -x "$chromium" ]; then
    say "Chromium is not at $chromium after apt-get install chromium; the report page's browser test needs it (or set TOOLWARDEN_CHROMIUM)"
    exit 1
  fi
fi
if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
  say "Java or Maven is missing; installing Debian's openjdk-17-jdk-headless and maven"
  apt_install openjdk-17-jdk-headless maven || true
fi
if ! bash "$(dirname "$0")/../interop/spring-ai/build.sh"; then
  say "the Spring AI interop app did not build (interop/spring-ai/build.sh); test/interop/spring-ai-app.test.ts needs it"
  exit 1
fi
say "Redis, PostgreSQL, Chromium and the Spring AI app are ready"
