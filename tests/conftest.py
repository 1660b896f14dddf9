"""Root test configuration: the control-plane harness plugin (``control_plane`` fixture for e2e tests)."""

pytest_plugins = ["tests.localcluster.fixtures"]
