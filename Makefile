# uncenter — `make run` and `make test` work on a fresh Debian 12 machine as root
# (or with sudo): they install what is missing, build, and run.

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Debian packages the build needs (C libraries and the tools to find them).
APT_PACKAGES := libuv1-dev libsqlite3-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && echo sudo)
ARGS ?=

.PHONY: all deps build release run test unit-test scenarios bench-json openrpc clean help

all: build

help:
	@echo "make run    install what is missing, build release, start uncenterd on the default socket (ARGS='...' to pass options)"
	@echo "make test   install what is missing, build, run every test"
	@echo "make openrpc  regenerate the compiled-in OpenRPC document from proto-docs/openrpc.json"
	@echo "make bench-json  parse+encode micro-benchmark"

# Installs only what is missing: dpkg tells which packages are absent.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "swift not found (expected at /opt/swift/usr/bin)"; exit 1; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	.build/release/uncenterd $(ARGS)

# The shared example scenarios live beside the repository when it is checked out for CI.
SHARED_SCENARIOS := $(wildcard ../shared/scenarios/*.json)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	.build/debug/unctl run Tests/Scenarios/*.json $(SHARED_SCENARIOS)

bench-json: deps
	$(SWIFT) build -c release --product JSONBench
	.build/release/JSONBench

# proto-docs/openrpc.json is the source; the daemon serves a compiled-in copy.
openrpc:
	python3 scripts/gen-openrpc-swift.py proto-docs/openrpc.json Sources/UNServer/OpenRPCDocument.swift

clean:
	rm -rf .build
