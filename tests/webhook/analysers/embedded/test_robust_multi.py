"""Robustness of the embedded analyser on workload profiles (issue 12: combination and multi_objective): a hint
of three to five wishes written the way engineers describe a workload, with a sentence of context before the
wishes, lists joined by commas, slashes, "+", "w/", bullets or new lines, amounts in every unit, GPU models
and counts, place names, same-workload and other-workload wishes and a strength word per clause. One missed or
extra intent fails the whole hint, so each probe is checked in full: the intent names, their metadata and the
strength of each clause.

The probes are our own wording (no evaluation row), labelled by the rules of tests/data/eval/README.md.
An expected intent is written ``name`` (strength 1.0), ``name@0.5`` or ``name@1.5``, with its metadata value
(the catalogue's one key) or None.
"""

from __future__ import annotations

from typing import Any

import pytest

from shared.catalogue import BY_NAME
from tests.webhook.analysers.embedded.probes import score
from webhook.evaluation import EvalRow, Expected, RowResult
from webhook.perturbations import PERTURBATIONS, perturbed

Labels = dict[str, Any]

EN: list[tuple[str, Labels]] = [
    ("training job for the ranking model, runs for about two days. 4x A100 w/ nvlink, keep it in eu, "
     "spread the workers",
     {"prefer_gpu": 4, "prefer_gpu_models": ["A100"], "prefer_nvlink": None, "prefer_regions": ["eu"],
      "spread_nodes": None}),
    ("batch ETL, nothing fancy: 16 vCPU, 64Gi mem, no GPU nodes, stay off rack-7",
     {"prefer_cpu_cores": 16, "prefer_memory_gb": 64, "avoid_gpu_nodes": None, "avoid_racks": ["rack-7"]}),
    ("api-gateway replicas / must be spread across zones / ideally eu-west-1 / 8 cores",
     {"spread_zones@1.5": None, "prefer_regions@0.5": ["eu-west-1"], "prefer_cpu_cores": 8}),
    ("inference svc + 2x H100 + 80GB vram + 100Gbps nic",
     {"prefer_gpu": 2, "prefer_gpu_models": ["H100"], "prefer_gpu_memory_gb": 80, "prefer_network_speed": 100}),
    ("- 32 cores\n- 128 GB RAM\n- NVMe scratch, 500 GB\n- not on node-12",
     {"prefer_cpu_cores": 32, "prefer_memory_gb": 128, "prefer_ssd_storage": None,
      "prefer_ephemeral_storage": 500, "avoid_nodes": ["node-12"]}),
    ("this is the kafka consumer for billing. it must run in the same zone as kafka-broker, 25GbE please, "
     "and keep the replicas apart",
     {"prefer_same_zone_as_deployments@1.5": ["kafka-broker"], "prefer_network_speed": 25, "spread_nodes": None}),
    ("we got paged twice last week because of noisy neighbours. so: least loaded nodes, not next to "
     "elasticsearch, 12 cores",
     {"prefer_least_loaded_nodes": None, "avoid_same_node_as_deployments": ["elasticsearch"],
      "prefer_cpu_cores": 12}),
    ("fine-tuning run: a pair of A100s with 40GB each, numa aligned if possible, in us-east-1",
     {"prefer_gpu": 2, "prefer_gpu_models": ["A100"], "prefer_gpu_memory_gb": 40, "prefer_numa_aligned@0.5": None,
      "prefer_regions": ["us-east-1"]}),
    ("redis cache sidecar thing. colocate with the session-api, ssd, 16G ram, avoid zone us-west-2b",
     {"prefer_same_node_as_deployments": ["session-api"], "prefer_ssd_storage": None, "prefer_memory_gb": 16,
      "avoid_zones": ["us-west-2b"]}),
    ("needs 8 gpus, nvlink is a must, 1.5TB ram, spread across racks",
     {"prefer_gpu": 8, "prefer_nvlink@1.5": None, "prefer_memory_gb": 1536, "spread_racks": None}),
    ("video transcoder, cpu heavy: 48 cores + 10 Gbps + no gpu please + keep pods together on one node",
     {"prefer_cpu_cores": 48, "prefer_network_speed": 10, "avoid_gpu_nodes": None,
      "prefer_colocate_same_deployment": None}),
    ("Nightly report builder. Run it on the least busy nodes, keep it out of eu-central-1, give it 4000m cpu "
     "and 8Gi",
     {"prefer_least_loaded_nodes": None, "avoid_regions": ["eu-central-1"], "prefer_cpu_cores": 4,
      "prefer_memory_gb": 8}),
    ("prod postgres replica: must be on ssd, must not share a node with the analytics-batch jobs, prefer zone "
     "us-east-1c",
     {"prefer_ssd_storage@1.5": None, "avoid_same_node_as_deployments@1.5": ["analytics-batch"],
      "prefer_zones@0.5": ["us-east-1c"]}),
    ("feature store workers\n* 2 replicas per zone, spread over zones\n* 32GB memory\n* 20 GbE",
     {"spread_zones": None, "prefer_memory_gb": 32, "prefer_network_speed": 20}),
    ("ml notebook for the data science team, one GPU is enough, 24 gigs of ram, ideally next to the "
     "feature-store pods",
     {"prefer_gpu": 1, "prefer_memory_gb": 24, "prefer_same_node_as_deployments@0.5": ["feature-store"]}),
    ("latency sensitive grpc svc. keep the replicas close to each other, 100G network, 8 vcpus",
     {"prefer_nearby_nodes_same_deployment": None, "prefer_network_speed": 100, "prefer_cpu_cores": 8}),
    ("ci runners: spot nodes are fine, 4 cores / 16gb / 100gb scratch, avoid gpu boxes",
     {"prefer_cpu_cores": 4, "prefer_memory_gb": 16, "prefer_ephemeral_storage": 100, "avoid_gpu_nodes": None}),
    ("the search indexer must stay in us-west-2, must get at least 64 cores, and should avoid racks r3 and r4",
     {"prefer_regions@1.5": ["us-west-2"], "prefer_cpu_cores@1.5": 64, "avoid_racks": ["r3", "r4"]}),
    ("Distributed training, 16 workers. 8x H100 per node, NVLink, NUMA alignment, 400 Gbps interconnect.",
     {"prefer_gpu": 8, "prefer_gpu_models": ["H100"], "prefer_nvlink": None, "prefer_numa_aligned": None,
      "prefer_network_speed": 400}),
    ("logging agent, tiny: 500m cpu, 512Mi ram, keep it away from the gpu nodes, any zone is fine",
     {"prefer_cpu_cores": 0.5, "prefer_memory_gb": 0.5, "avoid_gpu_nodes": None}),
    ("stream processor for clickstream; run in europe-west4, spread across 3 zones, 32 GiB ram, ideally on ssd",
     {"prefer_regions": ["europe-west4"], "spread_zones": None, "prefer_memory_gb": 32,
      "prefer_ssd_storage@0.5": None}),
    ("model server, hot path. must have a gpu with at least 48GB, should sit next to the tokenizer-svc, "
     "not in rack-2",
     {"prefer_gpu@1.5": 1, "prefer_gpu_memory_gb@1.5": 48, "prefer_same_node_as_deployments": ["tokenizer-svc"],
      "avoid_racks": ["rack-2"]}),
    ("cassandra ring member - spread across racks, one pod per node, 2 TB nvme scratch, 64 GB ram",
     {"spread_racks": None, "spread_nodes": None, "prefer_ssd_storage": None, "prefer_ephemeral_storage": 2048,
      "prefer_memory_gb": 64}),
    ("pls: 2 gpus, l40s or a10, 10gbe, not on worker-3 or worker-4",
     {"prefer_gpu": 2, "prefer_gpu_models": ["A10", "L40S"], "prefer_network_speed": 10,
      "avoid_nodes": ["worker-3", "worker-4"]}),
    ("backup job runs at 3am, low priority. put it on whatever node is least loaded, avoid zone eu-west-1a, "
     "4 cores, no gpus needed",
     # "no GPUs needed" is indifference, like "no need for a GPU" (the eval README's convention)
     {"prefer_least_loaded_nodes": None, "avoid_zones": ["eu-west-1a"], "prefer_cpu_cores": 4}),
    ("web frontend: 3 replicas, anti-affinity between them, prefer us-central1, 2 vCPU, 4 GB",
     {"spread_nodes": None, "prefer_regions@0.5": ["us-central1"], "prefer_cpu_cores": 2, "prefer_memory_gb": 4}),
    ("queue workers w/ the rabbitmq pods on the same node, 8c/32g, ssd",
     {"prefer_same_node_as_deployments": ["rabbitmq"], "prefer_cpu_cores": 8, "prefer_memory_gb": 32,
      "prefer_ssd_storage": None}),
    ("genomics pipeline. huge memory: 1TB RAM at least, 96 cores, 10 TB scratch, run in the eu",
     {"prefer_memory_gb": 1024, "prefer_cpu_cores": 96, "prefer_ephemeral_storage": 10240,
      "prefer_regions": ["eu"]}),
    ("payments: spreading over regions is critical, prefer us-east-1 or us-west-2, nvme disks",
     {"spread_regions@1.5": None, "prefer_regions@0.5": ["us-east-1", "us-west-2"], "prefer_ssd_storage": None}),
    ("spark executors\nspread over nodes\n64G ram each\nnot in the same zone as spark-history",
     {"spread_nodes": None, "prefer_memory_gb": 64, "avoid_same_zone_as_deployments": ["spark-history"]}),
    ("render job: four gpus, 24GB vram each, 25 Gbps, keep off node gpu-07",
     {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24, "prefer_network_speed": 25, "avoid_nodes": ["gpu-07"]}),
    ("LLM eval harness - 2x A100 80GB, same node as the vllm-server, ideally rack-5",
     {"prefer_gpu": 2, "prefer_gpu_models": ["A100"], "prefer_gpu_memory_gb": 80,
      "prefer_same_node_as_deployments": ["vllm-server"], "prefer_racks@0.5": ["rack-5"]}),
    ("it's a memory-bound cache, so lots of ram (256 GB), numa aligned, spread across zones, and stay out of "
     "us-east-1d",
     {"prefer_memory_gb": 256, "prefer_numa_aligned": None, "spread_zones": None, "avoid_zones": ["us-east-1d"]}),
    ("etl-loader: pack the pods on one node, 8 cores, same region as the warehouse-db",
     {"prefer_colocate_same_deployment": None, "prefer_cpu_cores": 8,
      "prefer_same_region_as_deployments": ["warehouse-db"]}),
    ("The job is flaky on old hardware. So: ssd is a must, 40 Gbps, avoid nodes n-11 and n-12",
     {"prefer_ssd_storage@1.5": None, "prefer_network_speed": 40, "avoid_nodes": ["n-11", "n-12"]}),
    ("grafana + prometheus stack, no gpu nodes, 4 cores, 16 GB, zone europe-west1-b ideally",
     {"avoid_gpu_nodes": None, "prefer_cpu_cores": 4, "prefer_memory_gb": 16, "prefer_zones@0.5": ["europe-west1-b"]}),
    ("we run this in two clouds, but this one goes to region ap-southeast-2, spread over 3 zones, 32 vCPUs",
     {"prefer_regions": ["ap-southeast-2"], "spread_zones": None, "prefer_cpu_cores": 32}),
    ("must: 8 GPUs. nice to have: NVLink, 200 Gbps. avoid: rack-1.",
     {"prefer_gpu@1.5": 8, "prefer_nvlink@0.5": None, "prefer_network_speed@0.5": 200, "avoid_racks": ["rack-1"]}),
    ("pls one replica per node, keep away from the etcd pods, and give them 6 cores w/ 24 gigs",
     {"spread_nodes": None, "avoid_same_node_as_deployments": ["etcd"], "prefer_cpu_cores": 6,
      "prefer_memory_gb": 24}),
    ("nightly backups to s3: 2 cores, 10GbE, prefer the least loaded nodes, keep it in eu-north-1",
     {"prefer_cpu_cores": 2, "prefer_network_speed": 10, "prefer_least_loaded_nodes@0.5": None,
      "prefer_regions": ["eu-north-1"]}),
]

ES: list[tuple[str, Labels]] = [
    ("job de entrenamiento, dura unos dos días: 4 GPUs A100 con nvlink, en europa, repartir los workers "
     "entre nodos",
     {"prefer_gpu": 4, "prefer_gpu_models": ["A100"], "prefer_nvlink": None, "prefer_regions": ["europa"],
      "spread_nodes": None}),
    ("servicio de facturación. necesita 16 núcleos, 64 GB de RAM, nada de GPU y que no caiga en el rack-3",
     {"prefer_cpu_cores": 16, "prefer_memory_gb": 64, "avoid_gpu_nodes": None, "avoid_racks": ["rack-3"]}),
    ("api pública: réplicas repartidas entre zonas sí o sí, de ser posible en eu-west-1, 8 vCPU",
     {"spread_zones@1.5": None, "prefer_regions@0.5": ["eu-west-1"], "prefer_cpu_cores": 8}),
    ("inferencia + 2x H100 + 80 GB de memoria de GPU + red de 100 Gbps",
     {"prefer_gpu": 2, "prefer_gpu_models": ["H100"], "prefer_gpu_memory_gb": 80, "prefer_network_speed": 100}),
    ("- 32 núcleos\n- 128 GB de RAM\n- disco SSD\n- evitar el nodo node-9",
     {"prefer_cpu_cores": 32, "prefer_memory_gb": 128, "prefer_ssd_storage": None, "avoid_nodes": ["node-9"]}),
    ("consumidor de kafka: debe estar en la misma zona que kafka-broker, 25GbE y réplicas separadas",
     {"prefer_same_zone_as_deployments@1.5": ["kafka-broker"], "prefer_network_speed": 25, "spread_nodes": None}),
    ("tuvimos problemas con vecinos ruidosos. nodos menos cargados, lejos de elasticsearch, 12 núcleos",
     {"prefer_least_loaded_nodes": None, "avoid_same_node_as_deployments": ["elasticsearch"],
      "prefer_cpu_cores": 12}),
    ("ajuste fino: un par de A100 con 40 GB cada una, alineado NUMA si es posible, región us-east-1",
     {"prefer_gpu": 2, "prefer_gpu_models": ["A100"], "prefer_gpu_memory_gb": 40, "prefer_numa_aligned@0.5": None,
      "prefer_regions": ["us-east-1"]}),
    ("caché: en el mismo nodo que session-api, SSD, 16 GB de RAM, evitar la zona us-west-2b",
     {"prefer_same_node_as_deployments": ["session-api"], "prefer_ssd_storage": None, "prefer_memory_gb": 16,
      "avoid_zones": ["us-west-2b"]}),
    ("transcodificador: 48 núcleos / 10 Gbps / sin GPU / réplicas agrupadas en un mismo nodo",
     {"prefer_cpu_cores": 48, "prefer_network_speed": 10, "avoid_gpu_nodes": None,
      "prefer_colocate_same_deployment": None}),
    ("informe nocturno; en los nodos menos cargados, fuera de eu-central-1, 4 núcleos y 8 GB",
     {"prefer_least_loaded_nodes": None, "avoid_regions": ["eu-central-1"], "prefer_cpu_cores": 4,
      "prefer_memory_gb": 8}),
    ("réplica de postgres: es imprescindible SSD, no compartir nodo con analytics-batch, preferiblemente zona "
     "us-east-1c",
     {"prefer_ssd_storage@1.5": None, "avoid_same_node_as_deployments": ["analytics-batch"],
      "prefer_zones@0.5": ["us-east-1c"]}),
    ("genómica, mucha memoria: 1 TB de RAM, 96 núcleos, 10 TB de disco temporal, en europa",
     {"prefer_memory_gb": 1024, "prefer_cpu_cores": 96, "prefer_ephemeral_storage": 10240,
      "prefer_regions": ["europa"]}),
    ("necesita 8 GPUs, nvlink obligatorio, 1,5 TB de RAM, repartir entre racks",
     {"prefer_gpu": 8, "prefer_nvlink@1.5": None, "prefer_memory_gb": 1536, "spread_racks": None}),
    ("frontend web: réplicas en nodos distintos, mejor en us-central1, 2 vCPU, 4 GB",
     {"spread_nodes": None, "prefer_regions@0.5": ["us-central1"], "prefer_cpu_cores": 2, "prefer_memory_gb": 4}),
    ("workers de cola: mismo nodo que rabbitmq, 8 núcleos, 32 GB, SSD",
     {"prefer_same_node_as_deployments": ["rabbitmq"], "prefer_cpu_cores": 8, "prefer_memory_gb": 32,
      "prefer_ssd_storage": None}),
    ("stream de clics: región europe-west4, repartido entre zonas, 32 GiB de RAM, idealmente SSD",
     {"prefer_regions": ["europe-west4"], "spread_zones": None, "prefer_memory_gb": 32,
      "prefer_ssd_storage@0.5": None}),
    ("ejecutores de spark\nrepartir entre nodos\n64 GB de RAM\nno en la misma zona que spark-history",
     {"spread_nodes": None, "prefer_memory_gb": 64, "avoid_same_zone_as_deployments": ["spark-history"]}),
    ("servidor de modelos: cuatro GPUs, 24 GB de VRAM cada una, 25 Gbps, nada en el nodo gpu-07",
     {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24, "prefer_network_speed": 25, "avoid_nodes": ["gpu-07"]}),
    ("copias nocturnas: 2 núcleos, 10GbE, en eu-north-1, evitar los racks r3 y r4",
     {"prefer_cpu_cores": 2, "prefer_network_speed": 10, "prefer_regions": ["eu-north-1"],
      "avoid_racks": ["r3", "r4"]}),
]

DE: list[tuple[str, Labels]] = [
    ("Trainingsjob, läuft etwa zwei Tage: 4x A100 mit NVLink, in Europa, Worker auf verschiedene Knoten "
     "verteilen",
     {"prefer_gpu": 4, "prefer_gpu_models": ["A100"], "prefer_nvlink": None, "prefer_regions": ["Europa"],
      "spread_nodes": None}),
    ("Abrechnungsdienst. braucht 16 Kerne, 64 GB RAM, keine GPU-Knoten und bitte nicht auf rack-3",
     {"prefer_cpu_cores": 16, "prefer_memory_gb": 64, "avoid_gpu_nodes": None, "avoid_racks": ["rack-3"]}),
    ("öffentliche API: Replikas zwingend über Zonen verteilen, am besten in eu-west-1, 8 vCPU",
     {"spread_zones@1.5": None, "prefer_regions@0.5": ["eu-west-1"], "prefer_cpu_cores": 8}),
    ("Inferenz + zwei Grafikkarten + 80 GB Grafikspeicher + 100 Gbit/s Netzwerk",
     {"prefer_gpu": 2, "prefer_gpu_memory_gb": 80, "prefer_network_speed": 100}),
    ("- 32 Kerne\n- 128 GB Arbeitsspeicher\n- SSD\n- nicht auf dem Knoten node-9",
     {"prefer_cpu_cores": 32, "prefer_memory_gb": 128, "prefer_ssd_storage": None, "avoid_nodes": ["node-9"]}),
    ("Kafka-Consumer: muss in derselben Zone wie kafka-broker laufen, 25GbE, Replikas getrennt",
     {"prefer_same_zone_as_deployments@1.5": ["kafka-broker"], "prefer_network_speed": 25, "spread_nodes": None}),
    ("wir hatten Ärger mit lauten Nachbarn. am wenigsten ausgelastete Knoten, nicht neben elasticsearch, "
     "12 Kerne",
     {"prefer_least_loaded_nodes": None, "avoid_same_node_as_deployments": ["elasticsearch"],
      "prefer_cpu_cores": 12}),
    ("Feintuning: zwei A100 mit je 40 GB, NUMA-ausgerichtet wenn möglich, Region us-east-1",
     {"prefer_gpu": 2, "prefer_gpu_models": ["A100"], "prefer_gpu_memory_gb": 40, "prefer_numa_aligned@0.5": None,
      "prefer_regions": ["us-east-1"]}),
    ("Cache: auf demselben Knoten wie session-api, SSD, 16 GB RAM, Zone us-west-2b meiden",
     {"prefer_same_node_as_deployments": ["session-api"], "prefer_ssd_storage": None, "prefer_memory_gb": 16,
      "avoid_zones": ["us-west-2b"]}),
    ("Transcoder: 48 Kerne / 10 Gbit/s / ohne GPU / alle Pods zusammen auf einem Knoten",
     {"prefer_cpu_cores": 48, "prefer_network_speed": 10, "avoid_gpu_nodes": None,
      "prefer_colocate_same_deployment": None}),
    ("nächtlicher Bericht; auf den am wenigsten belasteten Knoten, nicht in eu-central-1, 4 Kerne und 8 GB",
     {"prefer_least_loaded_nodes": None, "avoid_regions": ["eu-central-1"], "prefer_cpu_cores": 4,
      "prefer_memory_gb": 8}),
    ("Postgres-Replik: SSD unbedingt, keinen Knoten mit analytics-batch teilen, vorzugsweise Zone us-east-1c",
     {"prefer_ssd_storage@1.5": None, "avoid_same_node_as_deployments": ["analytics-batch"],
      "prefer_zones@0.5": ["us-east-1c"]}),
    ("Genomik, viel Speicher: 1 TB RAM, 96 Kerne, 10 TB Scratch-Speicher, in Europa",
     {"prefer_memory_gb": 1024, "prefer_cpu_cores": 96, "prefer_ephemeral_storage": 10240,
      "prefer_regions": ["Europa"]}),
    ("braucht 8 GPUs, NVLink zwingend, 1,5 TB RAM, über Racks verteilen",
     {"prefer_gpu": 8, "prefer_nvlink@1.5": None, "prefer_memory_gb": 1536, "spread_racks": None}),
    ("Web-Frontend: Replikas auf verschiedene Knoten, gerne in us-central1, 2 vCPU, 4 GB",
     {"spread_nodes": None, "prefer_regions@0.5": ["us-central1"], "prefer_cpu_cores": 2, "prefer_memory_gb": 4}),
    ("Queue-Worker auf demselben Knoten wie die rabbitmq-Pods, 8 Kerne, 32 GB, SSD",
     {"prefer_same_node_as_deployments": ["rabbitmq"], "prefer_cpu_cores": 8, "prefer_memory_gb": 32,
      "prefer_ssd_storage": None}),
    ("Clickstream: Region europe-west4, über Zonen verteilt, 32 GiB RAM, idealerweise SSD",
     {"prefer_regions": ["europe-west4"], "spread_zones": None, "prefer_memory_gb": 32,
      "prefer_ssd_storage@0.5": None}),
    ("Spark-Executoren\nüber Knoten verteilen\n64 GB RAM\nnicht in derselben Zone wie spark-history",
     {"spread_nodes": None, "prefer_memory_gb": 64, "avoid_same_zone_as_deployments": ["spark-history"]}),
    ("Modellserver: vier GPUs, je 24 GB VRAM, 25 Gbit/s, nicht auf gpu-07",
     {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24, "prefer_network_speed": 25, "avoid_nodes": ["gpu-07"]}),
    ("nächtliche Backups: 2 Kerne, 10GbE, in eu-north-1, Racks r3 und r4 meiden",
     {"prefer_cpu_cores": 2, "prefer_network_speed": 10, "prefer_regions": ["eu-north-1"],
      "avoid_racks": ["r3", "r4"]}),
]

FR: list[tuple[str, Labels]] = [
    ("job d'entraînement, ça tourne deux jours : 4x A100 avec NVLink, en Europe, répartir les workers sur "
     "plusieurs nœuds",
     {"prefer_gpu": 4, "prefer_gpu_models": ["A100"], "prefer_nvlink": None, "prefer_regions": ["Europe"],
      "spread_nodes": None}),
    ("service de facturation. il faut 16 cœurs, 64 Go de RAM, pas de nœud GPU et pas sur le rack-3",
     {"prefer_cpu_cores": 16, "prefer_memory_gb": 64, "avoid_gpu_nodes": None, "avoid_racks": ["rack-3"]}),
    ("API publique : répartition entre zones obligatoire, idéalement en eu-west-1, 8 vCPU",
     {"spread_zones@1.5": None, "prefer_regions@0.5": ["eu-west-1"], "prefer_cpu_cores": 8}),
    ("inférence + 2x H100 + 80 Go de mémoire GPU + réseau 100 Gb/s",
     {"prefer_gpu": 2, "prefer_gpu_models": ["H100"], "prefer_gpu_memory_gb": 80, "prefer_network_speed": 100}),
    ("- 32 cœurs\n- 128 Go de RAM\n- SSD\n- évitez le nœud node-9",
     {"prefer_cpu_cores": 32, "prefer_memory_gb": 128, "prefer_ssd_storage": None, "avoid_nodes": ["node-9"]}),
    ("consommateur kafka : doit être dans la même zone que kafka-broker, 25GbE, réplicas séparés",
     {"prefer_same_zone_as_deployments@1.5": ["kafka-broker"], "prefer_network_speed": 25, "spread_nodes": None}),
    ("on a eu des soucis de voisins bruyants. nœuds les moins chargés, loin d'elasticsearch, 12 cœurs",
     {"prefer_least_loaded_nodes": None, "avoid_same_node_as_deployments": ["elasticsearch"],
      "prefer_cpu_cores": 12}),
    ("fine-tuning : deux A100 de 40 Go chacune, aligné NUMA si possible, région us-east-1",
     {"prefer_gpu": 2, "prefer_gpu_models": ["A100"], "prefer_gpu_memory_gb": 40, "prefer_numa_aligned@0.5": None,
      "prefer_regions": ["us-east-1"]}),
    ("cache : sur le même nœud que session-api, SSD, 16 Go de RAM, évitez la zone us-west-2b",
     {"prefer_same_node_as_deployments": ["session-api"], "prefer_ssd_storage": None, "prefer_memory_gb": 16,
      "avoid_zones": ["us-west-2b"]}),
    ("transcodeur : 48 cœurs / 10 Gbit/s / sans GPU / tous les pods ensemble sur un seul nœud",
     {"prefer_cpu_cores": 48, "prefer_network_speed": 10, "avoid_gpu_nodes": None,
      "prefer_colocate_same_deployment": None}),
    ("rapport nocturne ; sur les nœuds les moins chargés, pas dans eu-central-1, 4 cœurs et 8 Go",
     {"prefer_least_loaded_nodes": None, "avoid_regions": ["eu-central-1"], "prefer_cpu_cores": 4,
      "prefer_memory_gb": 8}),
    ("réplique postgres : SSD indispensable, ne pas partager de nœud avec analytics-batch, de préférence zone "
     "us-east-1c",
     {"prefer_ssd_storage@1.5": None, "avoid_same_node_as_deployments": ["analytics-batch"],
      "prefer_zones@0.5": ["us-east-1c"]}),
    ("génomique, beaucoup de mémoire : 1 To de RAM, 96 cœurs, 10 To d'espace scratch, en Europe",
     {"prefer_memory_gb": 1024, "prefer_cpu_cores": 96, "prefer_ephemeral_storage": 10240,
      "prefer_regions": ["Europe"]}),
    ("il faut 8 GPU, NVLink obligatoire, 1,5 To de RAM, répartir sur les racks",
     {"prefer_gpu": 8, "prefer_nvlink@1.5": None, "prefer_memory_gb": 1536, "spread_racks": None}),
    ("front web : réplicas sur des nœuds différents, de préférence us-central1, 2 vCPU, 4 Go",
     {"spread_nodes": None, "prefer_regions@0.5": ["us-central1"], "prefer_cpu_cores": 2, "prefer_memory_gb": 4}),
    ("workers de file sur le même nœud que les pods rabbitmq, 8 cœurs, 32 Go, SSD",
     {"prefer_same_node_as_deployments": ["rabbitmq"], "prefer_cpu_cores": 8, "prefer_memory_gb": 32,
      "prefer_ssd_storage": None}),
    ("clickstream : région europe-west4, réparti entre les zones, 32 Gio de RAM, idéalement SSD",
     {"prefer_regions": ["europe-west4"], "spread_zones": None, "prefer_memory_gb": 32,
      "prefer_ssd_storage@0.5": None}),
    ("exécuteurs spark\nrépartir sur les nœuds\n64 Go de RAM\npas dans la même zone que spark-history",
     {"spread_nodes": None, "prefer_memory_gb": 64, "avoid_same_zone_as_deployments": ["spark-history"]}),
    ("serveur de modèles : quatre GPU, 24 Go de VRAM chacun, 25 Gb/s, pas sur gpu-07",
     {"prefer_gpu": 4, "prefer_gpu_memory_gb": 24, "prefer_network_speed": 25, "avoid_nodes": ["gpu-07"]}),
    ("sauvegardes nocturnes : 2 cœurs, 10GbE, dans eu-north-1, évitez les racks r3 et r4",
     {"prefer_cpu_cores": 2, "prefer_network_speed": 10, "prefer_regions": ["eu-north-1"],
      "avoid_racks": ["r3", "r4"]}),
]

PROBES: list[tuple[str, str, Labels]] = [
    (lang, hint, labels) for lang, rows in (("en", EN), ("es", ES), ("de", DE), ("fr", FR)) for hint, labels in rows]


def expected_of(labels: Labels) -> tuple[Expected, ...]:
    """The README's canonical answer for one probe's labels (sorted by intent name)."""
    out = []
    for key, value in labels.items():
        name, _, strength = key.partition("@")
        metas = BY_NAME[name].metadata
        metadata = {metas[0].key: (list(value) if isinstance(value, list) else float(value))} if metas else {}
        out.append(Expected(name, float(strength or 1.0), metadata))
    return tuple(sorted(out, key=lambda e: e.intent))


def probe_row(index: int) -> EvalRow:
    lang, hint, labels = PROBES[index]
    return EvalRow(f"{lang}-probe-{index}", hint, lang, "multi_objective", expected_of(labels))


def problems(result: RowResult) -> list[str]:
    """What one probe got wrong: missed and extra intents, wrong metadata or strength."""
    got = {intent.name: intent for intent in result.predicted}
    out = [f"missed {name}" for name in sorted(result.row.names - set(got))]
    out += [f"extra {name}" for name in sorted(set(got) - result.row.names)]
    for expected in result.row.expected:
        if not result.metadata_ok.get(expected.intent, True):
            out.append(f"metadata {expected.intent}: {dict(got[expected.intent].metadata)}")
        if not result.strength_ok.get(expected.intent, True):
            out.append(f"strength {expected.intent}: {got[expected.intent].strength}")
    return out


# Probes still read wrong, with what goes wrong (strict: a probe that starts passing must leave this table).
OPEN: dict[int, str] = {
    46: "a plain workload name after 'lejos de' is not marked as a name (a plain word is a name only when marked)",
    86: "a plain workload name after 'loin de' is not marked as a name",
}


@pytest.mark.parametrize("index", [
    pytest.param(i, id=f"{lang}-{i}", marks=[pytest.mark.xfail(reason=OPEN[i], strict=True)] if i in OPEN else [])
    for i, (lang, _, _) in enumerate(PROBES)])
def test_a_workload_profile_reads_every_wish_with_its_strength(index: int) -> None:
    result = score(probe_row(index))
    assert not result.flips, result.flips
    assert result.perfect, problems(result)


def test_the_probes_cover_every_language_in_the_numbers_asked() -> None:
    counts = {lang: sum(1 for p in PROBES if p[0] == lang) for lang in ("en", "es", "de", "fr")}
    assert counts["en"] >= 40 and min(counts["es"], counts["de"], counts["fr"]) >= 20, counts
    assert all(3 <= len(labels) <= 5 for _, _, labels in PROBES)


# The probes typed differently (webhook.perturbations): readings that change, at most (run-ons whose scope is
# not settled without punctuation are dropped, not guessed: "32 GB SSD" is a disk of that size).
PROBE_CHANGED = {"curly": 0, "lower": 0, "wrapped": 0, "emoji": 0, "noapos": 0, "noaccent": 0, "typo": 0,
                 "nopunct": 11, "chat": 11}  # 11 after the merges of 2026-12-01: two Spanish run-ons more, no flip


@pytest.fixture(scope="module")
def probe_readings() -> tuple[list[EvalRow], dict[int, RowResult]]:
    rows = [probe_row(i) for i in range(len(PROBES))]
    return rows, {id(row): score(row) for row in rows}


@pytest.mark.parametrize("name", sorted(PROBE_CHANGED))
def test_a_probe_typed_differently_adds_no_flip(
        name: str, probe_readings: tuple[list[EvalRow], dict[int, RowResult]]) -> None:
    rows, original = probe_readings
    pairs = perturbed(rows, name)
    results = [(o, v, score(v)) for o, v in pairs]
    flips = [v.hint for o, v, r in results if set(r.flips) - set(original[id(o)].flips)]
    changed = [v.hint for o, v, r in results if r.predicted_names != original[id(o)].predicted_names]
    assert not flips, flips
    assert len(changed) <= PROBE_CHANGED[name], changed


def test_every_perturbation_of_the_probes_has_a_figure() -> None:
    assert set(PROBE_CHANGED) == set(PERTURBATIONS)
