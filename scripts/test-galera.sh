#!/usr/bin/env bash
# npm run test:galera: starts a three-node Galera cluster (scripts/galera.sh), runs the MariaDB e2e
# suite against node 1 plus the two-replica spec (test/galera.e2e-spec.ts) across nodes 1 and 2,
# and stops the cluster whatever the outcome. Extra arguments go to Jest.
set -euo pipefail
cd "$(dirname "$0")/.."

# Set before start, so that a start that fails half-way leaves no node behind.
trap 'scripts/galera.sh stop' EXIT
scripts/galera.sh start
export TEST_DATABASE_URL=mariadb://root@127.0.0.1:3311/flagkeeper_galera
export TEST_GALERA_URLS=mariadb://root@127.0.0.1:3311,mariadb://root@127.0.0.1:3312,mariadb://root@127.0.0.1:3313
npx jest --selectProjects e2e --config jest.config.js "$@"
