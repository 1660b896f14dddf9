"""The optional node agent: reads a GPU node's topology with ``nvidia-smi topo -m`` and labels its Node.

It runs as a DaemonSet (chart value ``nodeAgent.enabled``, off by default) on GPU nodes only, for
clusters where neither DCGM's P2P status, HAMi nor GFD's clique tell the scorer about NVLink.
"""
