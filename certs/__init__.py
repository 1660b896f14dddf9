"""Certificates and keys for semantic-affinity: CA, webhook serving certificate, intent-signing key."""
