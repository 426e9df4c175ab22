# Tableside: two commands for a newcomer (see README.md).
#   make serve   build the app and serve it on http://localhost:8000
#   make test    install what the tests need and run every test (Chromium, WebKit, Firefox)
PYTHON ?= python3
VENV := .venv
VENV_PYTHON := $(VENV)/bin/python
STAMPS := .stamps

.PHONY: build serve test bench-rules bench-boot bench-ui bench-nesting bench-campaign bench-merge bench-catchup bench-links bench-ownership clean

$(VENV_PYTHON):
	@$(PYTHON) -m venv $(VENV) || { echo "Could not create a virtualenv: install python3-venv (Debian: apt-get install python3-venv)."; exit 1; }

# The build needs only the virtualenv's pip (to fetch the page's wheels); the
# tests need the dev requirements too.
$(STAMPS)/venv: requirements/dev.txt requirements/page.txt | $(VENV_PYTHON)
	$(VENV_PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	@mkdir -p $(STAMPS) && touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

build: node_modules/.package-lock.json | $(VENV_PYTHON)
	$(VENV_PYTHON) tools/build.py

serve: build
	$(VENV_PYTHON) tools/serve.py --port 8000

test: $(STAMPS)/venv build
	tools/ensure_chromium.sh
	tools/ensure_engines.sh
	$(VENV_PYTHON) -m pytest

bench-rules: $(STAMPS)/venv
	$(VENV_PYTHON) bench/bench_rules.py

bench-boot: $(STAMPS)/venv build
	tools/ensure_chromium.sh
	$(VENV_PYTHON) bench/bench_boot.py

bench-ui: $(STAMPS)/venv build
	tools/ensure_chromium.sh
	$(VENV_PYTHON) bench/bench_ui.py

bench-nesting: $(STAMPS)/venv build
	tools/ensure_chromium.sh
	$(VENV_PYTHON) bench/bench_nesting.py

bench-campaign: $(STAMPS)/venv build
	tools/ensure_chromium.sh
	$(VENV_PYTHON) bench/bench_campaign.py

bench-merge: $(STAMPS)/venv
	$(VENV_PYTHON) bench/bench_merge.py

bench-catchup: $(STAMPS)/venv
	$(VENV_PYTHON) bench/bench_catchup.py

bench-links: $(STAMPS)/venv
	$(VENV_PYTHON) bench/bench_links.py

bench-ownership: $(STAMPS)/venv
	$(VENV_PYTHON) bench/bench_ownership.py

clean:
	rm -rf dist build $(STAMPS) .pytest_cache
