//go:build tools

// Package tools pins KWOK (simulated nodes beside the one real node) for hack/build-kwok.sh.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
