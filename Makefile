# `make run` and `make test` are the only commands needed on a fresh machine (Python >= 3.11,
# make, git). Each creates .venv when missing, installs the pinned dependencies, then goes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-all install manage lint clean-data messages

$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]'
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(PY) -m config.launcher run

# The everyday loop: every test that runs in pytest's own process (engine, services, selectors,
# forms, views, in-process sockets); the test database is kept in .data/test between runs.
# Tests that start processes or a browser (markers `integration`, `browser`, `slow`) are left to test-all.
TEST_MARKERS := not browser and not integration and not slow and not migrations
# Two pytest processes (pytest-xdist), each with its own database, Redis prefix, Celery queue,
# site and Chromium; the production topology's tests stay together on one (tests/markers.py).
# `make test XDIST=` runs in one process.
XDIST ?= -n 2
test: $(STAMP)
	$(PY) -m config.launcher test --reuse-db $(XDIST) -m "$(TEST_MARKERS)" $(PYTEST_ARGS)

# Everything, on throwaway servers: browser, multi-process integration, production drills, the
# JavaScript units under Node. What CI runs (.ci/run).
test-all: $(STAMP)
	$(PY) -m config.launcher test $(XDIST) $(PYTEST_ARGS)

# The README's two pictures (docs/images/), from a real Chromium on the real site.
.PHONY: screenshots
screenshots: $(STAMP)
	$(PY) -m config.launcher test -p no:cacheprovider tests/e2e/harness/readme_screenshots.py

# A manage.py command on `make run`'s data (works while `make run` is running too):
#   make manage ARGS=createsuperuser
manage: $(STAMP)
	$(PY) -m config.launcher manage $(ARGS)

lint: $(STAMP)
	$(PY) -m ruff check . && $(PY) -m ruff format --check .

# Refresh the translation catalogs (locale/*/LC_MESSAGES/django.po, then the committed .mo files)
# after adding or changing a marked string; needs GNU gettext (Debian: apt-get install gettext).
# Neither command connects to a server; the URLs only satisfy the settings.
messages: $(STAMP)
	DEBUG=$${DEBUG:-1} DATABASE_URL=$${DATABASE_URL:-postgres://unused/unused} \
		REDIS_URL=$${REDIS_URL:-redis://unused:6379/0} $(PY) -m config.catalogs

# Deletes the kept development database and Redis data of `make run`, and `make test`'s kept
# test database.
clean-data:
	rm -rf .data

# Live load benchmark (bench/live_load.py): make bench-live BENCH_ARGS="--matches 250"
.PHONY: bench-live
bench-live: $(STAMP)
	$(PY) -m bench.live_load $(BENCH_ARGS)

# The live path's CPU guard (bench/live_budget.py; CI runs it, .ci/run): 60 matches for 30 s,
# fails over the budget of bench/live_budget.toml (docs/benchmarks.md "Benchmarks").
.PHONY: bench-guard
bench-guard: $(STAMP)
	$(PY) -m bench.live_budget

# CPU and wall time of one play command in the services (bench/service_cost.py)
.PHONY: bench-service
bench-service: $(STAMP)
	$(PY) -m bench.service_cost $(BENCH_ARGS)

# Timeout lateness through the real worker (bench/timeouts.py): make bench-timeouts BENCH_ARGS="--matches 100"
.PHONY: bench-timeouts
bench-timeouts: $(STAMP)
	$(PY) -m bench.timeouts $(BENCH_ARGS)

# The production topology (deploy/): nginx with TLS over two Daphne processes, a worker and beat,
# DEBUG=0, then pages, a login, a match across processes, and the restart drills
# (tests/integration/test_production*.py; needs Debian's nginx); and the calls' TURN server:
# Debian's coturn with the configuration `manage.py turnserver_conf` writes relays for a
# player's credentials (tests/integration/test_turn.py; needs coturn and Chromium).
.PHONY: prod-check
prod-check: $(STAMP)
	$(PY) -m config.launcher test tests/integration/test_production.py tests/integration/test_production_drills.py tests/integration/test_production_scaling.py tests/integration/test_turn.py -v -s $(PYTEST_ARGS)

# Soak of that topology (bench/soak.py): 200 matches with connection churn for 30 minutes,
# memory of every process, errors, lost steps, p99. make soak SOAK_ARGS="--duration 600"
.PHONY: soak
soak: $(STAMP)
	$(PY) -m bench.soak $(SOAK_ARGS)

# Leaderboards and a big profile at scale (bench/leaderboards.py): make bench-boards BENCH_ARGS="--players 100000"
.PHONY: bench-boards
bench-boards: $(STAMP)
	$(PY) -m bench.leaderboards $(BENCH_ARGS)

# Quick pairing under load (bench/pairing.py): make bench-pairing BENCH_ARGS="--players 2000"
.PHONY: bench-pairing
bench-pairing: $(STAMP)
	$(PY) -m bench.pairing $(BENCH_ARGS)

# The apps' layers and no circle of files (.importlinter; docs/architecture.md "Architecture"), checked before
# every test run, and so in CI. In its own process: in pytest's, Twisted's zope.interface
# declarations on abc.ABC break import-linter's check of its contract options.
.PHONY: layers
layers: $(STAMP)
	$(VENV)/bin/lint-imports
test test-all: layers
# ruff's check and format (a second or two) before everything, so CI refuses what `make lint` would.
test-all: lint
