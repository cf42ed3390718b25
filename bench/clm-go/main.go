// The command of the render harness (harness.go): the bench copies it into the CLM checkout as
// cmd/clm-render-harness/main.go and builds it there.
//
//	clm-render-harness REGISTRY CONFIG_DIR CLUSTER_ID AWS_JSON OUT_DIR
package main

import (
	"fmt"
	"os"

	"github.com/zalando-incubator/cluster-lifecycle-manager/provisioner"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: clm-render-harness REGISTRY CONFIG_DIR CLUSTER_ID AWS_JSON OUT_DIR")
		os.Exit(2)
	}
	if err := provisioner.BenchRenderTree(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]); err != nil {
		fmt.Fprintln(os.Stderr, "clm-render-harness:", err)
		os.Exit(1)
	}
}
