#!/bin/sh
# Rewrites the generated blocks of README.md and docs/*.md (the parameter tables of
# docs/cli.md) from the built CLI. Usage: scripts/update-docs.sh [BUILD_DIR]
set -e
cd "$(dirname "$0")/.."
exec python3 tests/docs/generated.py . "${1:-build}" --update
