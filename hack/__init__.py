"""Developer tooling: the control-plane build script and `make demo` (python -m hack.demo)."""
