"""What both services run with at their edges: structured logs (``logs``) and the /healthz, /readyz and
/metrics routes (``routes``).

Runtime, not model: this package may use aiohttp and prometheus_client, ``shared`` may not. It imports
no service; each service keeps its own metric definitions (``webhook.metrics``, ``scorer.metrics``).
"""
