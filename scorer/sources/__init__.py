"""Background inputs of the scorer: kube informers (``kube``) and the Prometheus poller (``prometheus``)."""
