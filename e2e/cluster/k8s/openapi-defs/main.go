// Command openapi-defs prints, as one JSON object keyed by Go type name, the OpenAPI definitions Kubernetes
// generates from its own Go types (k8s.io/kubernetes/pkg/generated/openapi) for core/v1 and the apimachinery types
// core/v1 uses. kruise-ts's CRD generator (scripts/crds.ts) takes the embedded core/v1 schemas, with their
// descriptions and list markers, from this output, so they match the Kubernetes version the cluster is built from.
package main

import (
	"encoding/json"
	"os"
	"strings"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kubernetes/pkg/generated/openapi"
)

var prefixes = []string{"k8s.io/api/core/v1.", "k8s.io/apimachinery/"}

func main() {
	defs := openapi.GetOpenAPIDefinitions(func(name string) spec.Ref { return spec.MustCreateRef(name) })
	out := map[string]spec.Schema{}
	for name, def := range defs {
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				out[name] = def.Schema
			}
		}
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
