"""The embedded PostgreSQL: the suite's server runs without durability, `make run`'s cluster
and the benchmarks' servers with it (config/embedded.py, `DURABILITY`), and a folder started one
way and then the other follows the second. Each start runs in a child process of its own, as
`make run` and `make test` start theirs (pgserver stops its servers at its process's exit)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")
START = """
import json, sys
import dj_database_url, psycopg
from config.embedded import EmbeddedPostgres
server = EmbeddedPostgres(__import__("pathlib").Path(sys.argv[1]), throwaway=False,
                          durable=sys.argv[2] == "durable")
try:
    url = dj_database_url.parse(server.start())
    with psycopg.connect(host=url["HOST"], user=url["USER"], dbname=url["NAME"]) as connection:
        print(json.dumps({name: connection.execute(f"SHOW {name}").fetchone()[0]
                          for name in sys.argv[3:]}))
finally:
    server.stop()
"""


def settings_after_a_start(folder: Path, how: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", START, str(folder), how, *SETTINGS],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_suites_server_gives_up_durability_and_the_others_keep_it(tmp_path):
    folder = tmp_path / "postgres"
    for how, expected in (("not durable", "off"), ("durable", "on"), ("not durable", "off")):
        assert settings_after_a_start(folder, how) == dict.fromkeys(SETTINGS, expected), how
