"""The embedded (offline) analyser backend: rules over per-language word lists."""

from webhook.analysers.embedded.analyser import EmbeddedAnalyser

__all__ = ["EmbeddedAnalyser"]
