#!/usr/bin/env bash
# Makes sure MariaDB answers on 127.0.0.1:3306 as root with an empty password; fails loudly if not.
set -euo pipefail
if ! mysqladmin -h 127.0.0.1 -u root ping >/dev/null 2>&1; then
  echo "MariaDB is not answering; starting it"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  for _ in $(seq 1 60); do
    mysqladmin ping >/dev/null 2>&1 && break
    sleep 1
  done
fi
# On some machines root may log in only through the unix socket (error 1698 over TCP).
if ! mysql -h 127.0.0.1 -u root -e 'SELECT 1' >/dev/null 2>&1; then
  mysql -u root -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket; FLUSH PRIVILEGES;" || true
fi
if ! mysql -h 127.0.0.1 -u root -e 'SELECT 1' >/dev/null 2>&1; then
  echo "MariaDB cannot be reached at 127.0.0.1:3306 as root; the MySQL e2e run cannot happen" >&2
  exit 1
fi
echo "MariaDB is up: $(mysql -h 127.0.0.1 -u root -N -e 'SELECT VERSION()')"
