#!/usr/bin/env bash
# Builds the Spring AI interop app into target/spring-ai-app.jar (an executable Spring Boot jar).
# Offline (`mvn -o`) when the local Maven repository already holds everything, online otherwise; does
# nothing when the jar is newer than pom.xml and every source file. Prints what it did and how long it took.
set -euo pipefail
cd "$(dirname "$0")"

jar=target/spring-ai-app.jar
if [ -f "$jar" ] && [ -z "$(find pom.xml src -newer "$jar" -print -quit)" ]; then
  echo "spring-ai build: $jar is up to date" >&2
  exit 0
fi

for tool in java mvn; do
  if ! command -v "$tool" >/dev/null; then
    echo "spring-ai build: $tool is missing (Java 17+ and Maven 3.8+ are needed)" >&2
    exit 1
  fi
done

start=$(date +%s%N)
mode=offline
offline_log=$(mktemp)
if ! mvn -q -B -Dstyle.color=never -o package >"$offline_log" 2>&1; then
  # Something is not in the local repository yet (or the offline build failed for another reason, which
  # the online build then reports).
  mode=online
  echo "spring-ai build: the offline build failed ($(grep -m1 -o '\[ERROR\].\{0,160\}' "$offline_log" || echo 'no error line')); building online" >&2
  mvn -q -B -Dstyle.color=never package
fi
rm -f "$offline_log"
end=$(date +%s%N)
echo "spring-ai build: $jar built $mode in $(( (end - start) / 1000000 )) ms" >&2
