# Set-up and everyday commands. Each target creates .venv and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# axe-core, the accessibility rules engine the browser tests inject into the pages (npm registry)
AXE_CORE := axe-core@^4.10
AXE := $(VENV)/node/node_modules/axe-core/axe.min.js

.PHONY: demo serve test lint typecheck unit bench site-shots messages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Installed once; offline afterwards (the file is the stamp). `make clean` removes it with .venv.
$(AXE):
	npm install --prefix $(VENV)/node --no-audit --no-fund --silent '$(AXE_CORE)'
	test -f $(AXE)

demo: $(STAMP)
	$(BIN)/grandprix event examples/events/spring_open_2026.trf --tiebreaks "BH/C1,BH,SB,DE,WIN"
	$(BIN)/grandprix event examples/events/spring_open_2026.trf --tiebreaks "BH/C1,BH,SB" \
	  --tiebreak-rules fide-2024
	$(BIN)/grandprix event examples/events/spring_open_2026.trf --tiebreaks "MM,SOLK,CUM,OCUM" \
	  --tiebreak-rules us-chess
	$(BIN)/grandprix event examples/events/club_championship_2026.trf --tiebreaks "DE,WIN,SB,KS"
	$(BIN)/grandprix event examples/events/club_rapid_standings.csv
	$(BIN)/grandprix standings examples/utah-2012
	$(BIN)/grandprix standings examples/acf-2004 --division Open
	$(BIN)/grandprix standings examples/acf-2004 --division Junior
	$(BIN)/grandprix players examples/acf-2004 --review
	$(BIN)/grandprix standings examples/lupiae-2012-13 --format csv
	$(BIN)/grandprix explain examples/lupiae-2012-13 5001
	$(BIN)/grandprix prizes examples/utah-2012
	$(BIN)/grandprix prizes examples/acf-2004
	$(BIN)/grandprix prizes examples/lupiae-2012-13
	$(BIN)/grandprix sections examples/events/class_championships_2026/event.toml
	$(BIN)/grandprix fees examples/events/class_championships_2026/event.toml | tail -3
	$(BIN)/grandprix byes examples/events/class_championships_2026/event.toml
	$(BIN)/grandprix prizes --event examples/events/class_championships_2026/event.toml
	$(BIN)/grandprix standings examples/utah-2026
	$(BIN)/grandprix standings examples/circuit-2026
	$(BIN)/grandprix register examples/events/hobart_weekender_2004.toml
	for season in utah-2012 acf-2004 lupiae-2012-13 circuit-2026; do \
	  $(BIN)/grandprix site examples/$$season -o build/site/$$season || exit 1; \
	done
	$(BIN)/grandprix site-index build/site
	@echo "Open build/site/index.html in a browser."

# The example season's site and workspace on http://127.0.0.1:8000/ until Ctrl+C.
serve: $(STAMP)
	$(BIN)/grandprix serve examples/utah-2012

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples scripts
	$(BIN)/ruff format --check src tests benchmarks examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(AXE)
	$(BIN)/pytest -n 2 -q

test: lint typecheck unit

# SCALING=--big: the scaling table up to 100,000 events (long); default a quick 1,000 and 3,000.
bench: $(STAMP)
	@status=0; \
	$(BIN)/python benchmarks/bench_tiebreaks.py || status=1; \
	$(BIN)/python benchmarks/bench_season.py || status=1; \
	$(BIN)/python benchmarks/bench_ratings.py || status=1; \
	$(BIN)/python benchmarks/bench_pairing.py || status=1; \
	$(BIN)/python benchmarks/bench_site.py || status=1; \
	$(BIN)/python benchmarks/bench_serve.py || status=1; \
	$(BIN)/python benchmarks/bench_load.py || status=1; \
	$(BIN)/python benchmarks/bench_load.py --events 500 --players 20000 --seconds 60 --every 10 \
	  --approval || status=1; \
	$(BIN)/python benchmarks/scaling.py $(SCALING) || status=1; \
	exit $$status

site-shots: $(STAMP)
	$(BIN)/python scripts/site_shots.py

# The catalogs of the pages' languages brought up to date with the source: new words are added
# untranslated (the catalog test then names them), words no longer used are marked obsolete.
LOCALE := src/grandprix/locale
messages: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k Phrase --no-location --no-wrap --sort-output \
	  --project grandprix --copyright-holder "the grandprix contributors" \
	  -o $(LOCALE)/grandprix.pot .
	# the template carries no creation date: a run that finds the same words changes nothing
	sed -i '/^"POT-Creation-Date: /d' $(LOCALE)/grandprix.pot
	for code in $$(ls $(LOCALE) | grep -v '\.pot$$'); do \
	  $(BIN)/pybabel -q update --no-fuzzy-matching --no-wrap --ignore-obsolete \
	    --ignore-pot-creation-date -i $(LOCALE)/grandprix.pot -d $(LOCALE) -D grandprix \
	    -l $$code; done

clean:
	rm -rf $(VENV) build dist src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
