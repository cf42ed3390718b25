package provisioner

// Renders one cluster's stacks with Zalando CLM's own template code (its unexported renderSingleTemplate and the
// steps of its provision: the etcd stack, the main stack, every ASG-backed node pool with its files bundle's path and
// user data, and the Karpenter pools' provisioners.yaml), from the inputs a `clm render --out` tree of ours records
// (the effective config items and the deploy-time values), so that docs/koa-check.sh can compare the two renders.
// It is copied into a scratch copy of CLM's source tree (provisioner/) and run there with `go test`; nothing of CLM is
// in this repository. Nothing is uploaded and no AWS API is called: the files bundles' paths are computed as CLM's
// RenderAndUploadFiles computes them.

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/zalando-incubator/cluster-lifecycle-manager/api"
	"github.com/zalando-incubator/cluster-lifecycle-manager/channel"
	awsUtils "github.com/zalando-incubator/cluster-lifecycle-manager/pkg/aws"
	"github.com/zalando-incubator/cluster-lifecycle-manager/pkg/util"
	"github.com/zalando-incubator/cluster-lifecycle-manager/registry"
	"gopkg.in/yaml.v2"
)

func compareEnv(t *testing.T, name string) string {
	value := os.Getenv(name)
	if value == "" {
		t.Skipf("%s not set: this test runs from docs/koa-check.sh", name)
	}
	return value
}

func readYAML(t *testing.T, file string) map[string]interface{} {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc
}

func stringMap(value interface{}) map[string]string {
	result := map[string]string{}
	if m, ok := value.(map[interface{}]interface{}); ok {
		for k, v := range m {
			result[fmt.Sprint(k)] = fmt.Sprint(v)
		}
	}
	return result
}

func stringList(value interface{}) []string {
	result := []string{}
	switch v := value.(type) {
	case []interface{}:
		for _, item := range v {
			result = append(result, fmt.Sprint(item))
		}
	case string:
		if v != "" {
			result = strings.Split(v, ",")
		}
	}
	return result
}

func toInt64(value interface{}) int64 {
	switch v := value.(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}

// The instance types the values carry (our InstanceTypeFacts) as CLM's catalogue.
func instanceCatalogue(facts interface{}) *awsUtils.InstanceTypes {
	var instances []awsUtils.Instance
	for name, raw := range stringAnyMap(facts) {
		info := stringAnyMap(raw)
		instances = append(instances, awsUtils.Instance{
			InstanceType:              ec2types.InstanceType(name),
			VCPU:                      int32(toInt64(info["vcpu"])),
			Memory:                    toInt64(info["memoryMiB"]) * 1024 * 1024,
			InstanceStorageDevices:    toInt64(info["instanceStorageDevices"]),
			InstanceStorageDeviceSize: toInt64(info["instanceStorageDeviceSizeGB"]) * 1000 * 1000 * 1000,
			Architecture:              fmt.Sprint(info["architecture"]),
		})
	}
	return awsUtils.NewInstanceTypes(instances)
}

func stringAnyMap(value interface{}) map[string]interface{} {
	result := map[string]interface{}{}
	if m, ok := value.(map[interface{}]interface{}); ok {
		for k, v := range m {
			result[fmt.Sprint(k)] = v
		}
	}
	return result
}

// CLM's values map as provision builds it (§4.3), from ours.
func clmValues(ours map[string]interface{}) map[string]interface{} {
	return map[string]interface{}{
		subnetsValueKey:             stringMap(ours["subnets"]),
		availabilityZonesValueKey:   stringList(ours["availability_zones"]),
		subnetIPV6CIDRsKey:          fmt.Sprint(ours["subnet_ipv6_cidrs"]),
		"lb_subnets":                stringMap(ours["lb_subnets"]),
		"internal_node_subnets":     stringMap(ours["internal_node_subnets"]),
		"pod_subnets":               stringMap(ours["pod_subnets"]),
		"hosted_zone":               fmt.Sprint(ours["hosted_zone"]),
		"load_balancer_certificate": fmt.Sprint(ours["load_balancer_certificate"]),
		"vpc_ipv4_cidr":             fmt.Sprint(ours["vpc_ipv4_cidr"]),
		"vpc_ipv6_cidrs":            stringList(ours["vpc_ipv6_cidrs"]),
	}
}

func gzipBase64(text string) string {
	var buffer bytes.Buffer
	writer := gzip.NewWriter(&buffer)
	_, _ = writer.Write([]byte(text))
	_ = writer.Close()
	return base64.StdEncoding.EncodeToString(buffer.Bytes())
}

func TestRenderForComparison(t *testing.T) {
	rendered := compareEnv(t, "COMPARE_RENDERED")
	config := compareEnv(t, "COMPARE_CONFIG")
	registryFile := compareEnv(t, "COMPARE_REGISTRY")
	clusterID := compareEnv(t, "COMPARE_CLUSTER")
	out := compareEnv(t, "COMPARE_OUT")

	clusters, err := registry.NewFileRegistry(registryFile).ListClusters(registry.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var cluster *api.Cluster
	for _, c := range clusters {
		if c.ID == clusterID {
			cluster = c
		}
	}
	if cluster == nil {
		t.Fatalf("no cluster %s in %s", clusterID, registryFile)
	}
	// The effective config items (defaults merged, discovered network added) as our render has them.
	cluster.ConfigItems = flatItems(t, filepath.Join(rendered, "config-items.yaml"))
	for _, pool := range cluster.NodePools {
		pool.ConfigItems = flatItems(t, filepath.Join(rendered, "node-pools", pool.Name, "config-items.yaml"))
	}
	ours := readYAML(t, filepath.Join(rendered, "values.yaml"))
	values := clmValues(ours)
	instanceTypes := instanceCatalogue(ours["InstanceTypeFacts"])
	adapter := &awsAdapter{}
	bucket := fmt.Sprintf(clmCFBucketPattern, strings.TrimPrefix(cluster.InfrastructureAccount, "aws:"), cluster.Region)

	render := func(file string, pool *api.NodePool, values map[string]interface{}) string {
		contents, err := os.ReadFile(filepath.Join(config, file))
		if err != nil {
			t.Fatal(err)
		}
		text, err := renderSingleTemplate(channel.Manifest{Path: file, Contents: contents}, cluster, pool, values, adapter, instanceTypes)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return text
	}
	filesPath := func(file, role string, pool *api.NodePool, values map[string]interface{}) string {
		hash, err := generateDataHash([]byte(render(file, pool, values)))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("s3://%s/%s", bucket, path.Join(cluster.LocalID, role, hash))
	}
	write := func(name, text string) {
		file := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	if cluster.ConfigItems["manage_etcd_stack"] == "true" {
		values["etcd_kms_key_arn"] = fmt.Sprint(ours["etcd_kms_key_arn"])
		info, err := instanceTypes.InstanceInfo(ec2types.InstanceType(cluster.ConfigItems["etcd_instance_type"]))
		if err != nil {
			t.Fatal(err)
		}
		values["etcd_instance_type_info"] = info
		values[s3GeneratedFilesPathValuesKey] = filesPath("cluster/etcd/files.yaml", "etcd", nil, values)
		name := etcdStackNameDefault
		if v, ok := cluster.ConfigItems[etcdStackNameConfigItemKey]; ok {
			name = v
		}
		write("stacks/"+name+".yaml", render("cluster/etcd/stack.yaml", nil, values))
	}
	write("stacks/"+cluster.LocalID+".yaml", render("cluster/cluster.yaml", nil, values))
	values[clusterStackOutputKey] = stringMap(ours["ClusterStackOutputs"])

	subnets := map[string]SubnetInfo{}
	for az, id := range stringMap(ours["subnets"]) {
		if az != subnetAllAZName {
			subnets[az] = SubnetInfo{SubnetID: id}
		}
	}
	azInfo := &AZInfo{subnets: subnets}
	for _, pool := range cluster.NodePools {
		if cluster.Provider == api.ZalandoEKSProvider && pool.IsMaster() {
			continue
		}
		poolValues := util.CopyValues(values)
		dir := "cluster/node-pools/" + pool.Profile + "/"
		role := "worker"
		if pool.IsMaster() {
			role = "master"
		}
		if pool.Profile == karpenterNodePoolProfile {
			poolValues[s3GeneratedFilesPathValuesKey] = filesPath(dir+"files.yaml", "worker", pool, poolValues)
			poolValues[userDataValuesKey] = render(dir+"userdata.yaml", pool, poolValues)
			write("karpenter/"+pool.Name+".yaml", render(dir+"provisioners.yaml", pool, poolValues))
			continue
		}
		poolValues["supports_t2_unlimited"] = supportsT2Unlimited(pool.InstanceTypes)
		info, err := instanceTypes.SyntheticInstanceInfo(pool.InstanceTypes)
		if err != nil {
			t.Fatal(err)
		}
		poolValues[instanceInfoKey] = info
		if azNames, ok := pool.ConfigItems[availabilityZonesConfigItemKey]; ok {
			restricted := azInfo.RestrictAZs(strings.Split(azNames, ","))
			poolValues[subnetsValueKey] = restricted.SubnetsByAZ()
			poolValues[availabilityZonesValueKey] = restricted.AvailabilityZones()
		}
		poolValues[s3GeneratedFilesPathValuesKey] = filesPath(dir+"files.yaml", role, pool, poolValues)
		poolValues[userDataValuesKey] = gzipBase64(render(dir+"userdata.yaml", pool, poolValues))
		stackName := fmt.Sprintf("nodepool-%s-%s", pool.Name, strings.ReplaceAll(cluster.ID, ":", "-"))
		write("stacks/"+stackName+".yaml", render(dir+"stack.yaml", pool, poolValues))
	}
}

// A config-items.yaml of our render: a flat map of strings.
func flatItems(t *testing.T, file string) map[string]string {
	result := map[string]string{}
	for k, v := range readYAML(t, file) {
		result[k] = fmt.Sprint(v)
	}
	return result
}
