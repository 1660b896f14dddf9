"""The embedded (offline) analyser backend: rules plus a multilingual sentence encoder."""

from webhook.analysers.embedded.analyser import EmbeddedAnalyser

__all__ = ["EmbeddedAnalyser"]
