// The floor of the throughput benchmark: the cheapest correct kube-scheduler extender we can write.
//
// It answers /prioritize with a fixed score (0) for every candidate node, in the HostPriorityList
// shape kube-scheduler expects, and does nothing else: whatever an extender costs beyond this is
// the cost of scoring. Go's net/http and encoding/json, the standard library only, so it builds
// with the local toolchain and no module download. /metrics counts the answers (Prometheus text)
// so the benchmark can check that every pod went through it.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"sync/atomic"
)

// extenderArgs is k8s.io/kube-scheduler/extender/v1.ExtenderArgs (no json tags: PascalCase keys).
// The pod is kept raw: a fixed score needs nothing from it, but the bytes are still read and checked.
type extenderArgs struct {
	Pod       json.RawMessage
	NodeNames *[]string
	Nodes     *struct {
		Items []struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		} `json:"items"`
	}
}

type hostPriority struct {
	Host  string
	Score int64
}

var answered, bad atomic.Int64

func prioritize(w http.ResponseWriter, r *http.Request) {
	var args extenderArgs
	if err := json.NewDecoder(r.Body).Decode(&args); err != nil {
		bad.Add(1)
		http.Error(w, "malformed ExtenderArgs: "+err.Error(), http.StatusBadRequest)
		return
	}
	var names []string
	switch {
	case args.NodeNames != nil:
		names = *args.NodeNames
	case args.Nodes != nil:
		for _, item := range args.Nodes.Items {
			names = append(names, item.Metadata.Name)
		}
	}
	scores := make([]hostPriority, len(names))
	for i, name := range names {
		scores[i] = hostPriority{Host: name}
	}
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(scores); err != nil {
		return
	}
	answered.Add(1)
}

func metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	fmt.Fprintf(w, "# TYPE floor_requests_total counter\n")
	fmt.Fprintf(w, "floor_requests_total{verb=\"prioritize\",outcome=\"ok\"} %d\n", answered.Load())
	fmt.Fprintf(w, "floor_requests_total{verb=\"prioritize\",outcome=\"bad-request\"} %d\n", bad.Load())
}

func main() {
	address := flag.String("listen", "127.0.0.1:0", "host:port to serve on")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /prioritize", prioritize)
	mux.HandleFunc("GET /metrics", metrics)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	log.Printf("floor extender on %s", *address)
	log.Fatal(http.ListenAndServe(*address, mux))
}
