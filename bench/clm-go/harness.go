// The render harness of `npm run bench -- vs-clm` (bench/vs-clm.bench.ts), our own code. The bench copies this file
// into a checkout of Zalando's CLM as provisioner/zz_clm_bench_harness.go and builds it with main.go; nothing of CLM is
// kept in our repository.
//
// It renders one cluster offline the way `clm render --out DIR` does, with CLM's own functions for every step
// (config defaults, decryption, propagation to pools, the main stack, deletions, cf-manifests, manifests, each
// node pool's files.yaml, user data and stack, Karpenter provisioners), in CLM's order, and answers what CLM would ask
// AWS from a JSON file (subnets, stack outputs, AMIs, instance types). It writes the same tree as `clm render --out`,
// so the bench can check both outputs are equal before it measures.
//
// Equal work, not CLM's whole provisioning: like `clm render`, it does not tar, encrypt or upload the files bundle
// (it parses files.yaml strictly and hashes it, as CLM does before uploading), and it does not touch a cloud.
package provisioner

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/zalando-incubator/cluster-lifecycle-manager/api"
	"github.com/zalando-incubator/cluster-lifecycle-manager/channel"
	awsUtils "github.com/zalando-incubator/cluster-lifecycle-manager/pkg/aws"
	"github.com/zalando-incubator/cluster-lifecycle-manager/pkg/aws/iface"
	"github.com/zalando-incubator/cluster-lifecycle-manager/pkg/decrypter"
	"github.com/zalando-incubator/cluster-lifecycle-manager/pkg/util"
	"github.com/zalando-incubator/cluster-lifecycle-manager/registry"
	"gopkg.in/yaml.v2"
)

// BenchAWS is what the harness answers in place of AWS, written by the bench from the same values `clm render` uses.
type BenchAWS struct {
	Bucket                  string                      `json:"bucket"`
	VpcID                   string                      `json:"vpcId"`
	VpcIPv4CIDR             string                      `json:"vpcIpv4Cidr"`
	VpcIPv6CIDRs            []string                    `json:"vpcIpv6Cidrs"`
	HostedZone              string                      `json:"hostedZone"`
	LoadBalancerCertificate string                      `json:"loadBalancerCertificate"`
	Zones                   map[string]BenchZoneSubnets `json:"zones"`
	StackOutputs            map[string]string           `json:"stackOutputs"`
	AMIs                    []BenchAMI                  `json:"amis"`
	InstanceTypes           []BenchInstanceType         `json:"instanceTypes"`
}

type BenchZoneSubnets struct {
	Node     string `json:"node"`
	LB       string `json:"lb"`
	Internal string `json:"internal"`
	Pod      string `json:"pod"`
}

type BenchAMI struct {
	Name  string `json:"name"`
	Owner string `json:"owner"`
	ID    string `json:"id"`
}

type BenchInstanceType struct {
	Type                        string `json:"type"`
	VCPU                        int32  `json:"vcpu"`
	MemoryMiB                   int64  `json:"memoryMiB"`
	InstanceStorageDevices      int64  `json:"instanceStorageDevices"`
	InstanceStorageDeviceSizeGB int64  `json:"instanceStorageDeviceSizeGB"`
	Architecture                string `json:"architecture"`
}

// benchEC2 answers DescribeImages (the amiID helper) from the AMIs given; any other EC2 call panics (nil interface).
type benchEC2 struct {
	iface.EC2API
	amis []BenchAMI
}

func (e benchEC2) DescribeImages(_ context.Context, input *ec2.DescribeImagesInput, _ ...func(*ec2.Options)) (*ec2.DescribeImagesOutput, error) {
	filter := map[string]string{}
	for _, f := range input.Filters {
		if len(f.Values) == 1 {
			filter[aws.ToString(f.Name)] = f.Values[0]
		}
	}
	output := &ec2.DescribeImagesOutput{}
	for _, ami := range e.amis {
		if ami.Name == filter[describeImageFilterNameName] && ami.Owner == filter[describeImageFilterNameOwner] {
			output.Images = append(output.Images, ec2types.Image{ImageId: aws.String(ami.ID)})
		}
	}
	return output, nil
}

// BenchRenderTree renders cluster `clusterID` of the registry file with the config directory (source "main") and
// writes `clm render --out`'s tree under outDir; with outDir "-" it renders and writes nothing, as `clm render`
// without --out prints only a summary.
func BenchRenderTree(registryFile, configDir, clusterID, awsFile, outDir string) error {
	ctx := context.Background()
	var answers BenchAWS
	raw, err := os.ReadFile(awsFile)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &answers); err != nil {
		return fmt.Errorf("%s: %w", awsFile, err)
	}

	clusters, err := registry.NewFileRegistry(registryFile).ListClusters(registry.Filter{})
	if err != nil {
		return err
	}
	var cluster *api.Cluster
	for _, c := range clusters {
		if c.ID == clusterID {
			cluster = c
		}
	}
	if cluster == nil {
		return fmt.Errorf("cluster %s is not in %s", clusterID, registryFile)
	}
	source, err := channel.NewDirectory("main", configDir)
	if err != nil {
		return err
	}
	version, err := source.Version(cluster.Channel, nil)
	if err != nil {
		return err
	}
	config, err := version.Get(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := cluster.Version(version); err != nil {
		return err
	}

	adapter := &awsAdapter{ec2Client: benchEC2{amis: answers.AMIs}, region: cluster.Region}
	instances := make([]awsUtils.Instance, 0, len(answers.InstanceTypes))
	for _, t := range answers.InstanceTypes {
		instances = append(instances, awsUtils.Instance{
			InstanceType:              ec2types.InstanceType(t.Type),
			VCPU:                      t.VCPU,
			Memory:                    t.MemoryMiB * 1024 * 1024,
			InstanceStorageDevices:    t.InstanceStorageDevices,
			InstanceStorageDeviceSize: t.InstanceStorageDeviceSizeGB * 1000 * 1000 * 1000,
			Architecture:              t.Architecture,
		})
	}
	instanceTypes := awsUtils.NewInstanceTypes(instances)

	// provision(): defaults, decryption (no KMS offline: values kept as they are), propagation to the pools.
	p := &clusterpyProvisioner{secretDecrypter: decrypter.SecretDecrypter{}}
	if err := p.applyDefaultsToManifests(ctx, adapter, cluster, config, instanceTypes); err != nil {
		return err
	}

	// What provision() discovers: the VPC, the subnets per zone and role, the hosted zone, the certificate.
	nodes, lbs, internal, pods := map[string]SubnetInfo{}, map[string]SubnetInfo{}, map[string]SubnetInfo{}, map[string]SubnetInfo{}
	for az, s := range answers.Zones {
		nodes[az] = SubnetInfo{SubnetID: s.Node}
		lbs[az] = SubnetInfo{SubnetID: s.LB}
		internal[az] = SubnetInfo{SubnetID: s.Internal}
		pods[az] = SubnetInfo{SubnetID: s.Pod}
	}
	azInfoNodes := &AZInfo{subnets: nodes}
	azInfoLBs := &AZInfo{subnets: lbs}
	azInfoInternal := &AZInfo{subnets: internal}
	if azNames, ok := cluster.ConfigItems[availabilityZonesConfigItemKey]; ok {
		azInfoLBs = azInfoLBs.RestrictAZs(strings.Split(azNames, ","))
		azInfoNodes = azInfoNodes.RestrictAZs(strings.Split(azNames, ","))
		azInfoInternal = azInfoInternal.RestrictAZs(strings.Split(azNames, ","))
	}
	if _, ok := cluster.ConfigItems[vpcIDConfigItemKey]; !ok {
		cluster.ConfigItems[vpcIDConfigItemKey] = answers.VpcID
	}
	if _, ok := cluster.ConfigItems[subnetsConfigItemKey]; !ok {
		cluster.ConfigItems[subnetsConfigItemKey] = azInfoNodes.SubnetsByAZ()[subnetAllAZName]
	}
	ipv6 := answers.VpcIPv6CIDRs
	if ipv6 == nil {
		ipv6 = []string{}
	}
	values := map[string]interface{}{
		subnetsValueKey:             azInfoNodes.SubnetsByAZ(),
		availabilityZonesValueKey:   azInfoNodes.AvailabilityZones(),
		subnetIPV6CIDRsKey:          strings.Join(azInfoNodes.SubnetIPv6CIDRs(), ","),
		"lb_subnets":                azInfoLBs.SubnetsByAZ(),
		"internal_node_subnets":     azInfoInternal.SubnetsByAZ(),
		"pod_subnets":               (&AZInfo{subnets: pods}).SubnetsByAZ(),
		"hosted_zone":               answers.HostedZone,
		"load_balancer_certificate": answers.LoadBalancerCertificate,
		"vpc_ipv4_cidr":             answers.VpcIPv4CIDR,
		"vpc_ipv6_cidrs":            ipv6,
	}

	// nil: nothing to write, so nothing is serialized for writing.
	var tree map[string]string
	if outDir != "-" {
		tree = map[string]string{}
	}
	deletions, err := parseDeletions(config, cluster, values, adapter, instanceTypes)
	if err != nil {
		return err
	}
	cfDeletions, err := parseCFDeletions(config, cluster, values, adapter, instanceTypes)
	if err != nil {
		return err
	}

	// The main stack, rendered before it exists; then its outputs are known.
	mainTemplate, err := config.StackManifest(clusterStackFileName)
	if err != nil {
		return err
	}
	mainStack, err := renderSingleTemplate(mainTemplate, cluster, nil, values, adapter, instanceTypes)
	if err != nil {
		return err
	}
	put(tree, "stacks/"+cluster.LocalID+".yaml", mainStack)
	outputs := map[string]string{}
	for k, v := range answers.StackOutputs {
		outputs[k] = v
	}
	values[clusterStackOutputKey] = outputs
	if err := cluster.InitOIDCProvider(); err != nil {
		return err
	}

	// applyCFManifests without the apply.
	cfManifests, err := config.CFManifests()
	if err != nil {
		return err
	}
	for _, manifest := range cfManifests {
		rendered, err := renderSingleTemplate(manifest, cluster, nil, values, adapter, nil)
		if err != nil {
			return fmt.Errorf("failed to render manifest %s: %w", manifest.Path, err)
		}
		remarshaled, err := remarshalYAML(rendered)
		if err != nil {
			return fmt.Errorf("failed to remarshal manifest %s: %w", manifest.Path, err)
		}
		if remarshaled == "" {
			continue
		}
		cf, err := parseCFTemplate(rendered)
		if err != nil {
			return fmt.Errorf("failed to parse stack for manifest %s: %w", manifest.Path, err)
		}
		put(tree, "stacks/"+cf.Metadata.StackName+".yaml", rendered)
	}

	packages, err := renderManifests(config, cluster, values, adapter, instanceTypes)
	if err != nil {
		return err
	}
	for _, pkg := range packages {
		if tree == nil {
			break
		}
		byFile := map[string][]string{}
		var files []string
		for _, m := range pkg.manifests {
			text, err := m.ToYaml()
			if err != nil {
				return err
			}
			if _, ok := byFile[m.SourceFile]; !ok {
				files = append(files, m.SourceFile)
			}
			byFile[m.SourceFile] = append(byFile[m.SourceFile], text)
		}
		for _, file := range files {
			tree["manifests/main/"+pkg.name+"/"+path.Base(file)] = strings.Join(byFile[file], "---\n")
		}
	}

	// The node pools (AWSNodePoolProvisioner / KarpenterNodePoolProvisioner), each on its own copy of the values.
	renderer := NodePoolTemplateRenderer{awsAdapter: adapter, config: config, cluster: cluster, bucketName: answers.Bucket, instanceTypes: instanceTypes}
	for _, pool := range cluster.NodePools {
		if cluster.Provider == api.ZalandoEKSProvider && pool.IsMaster() {
			continue
		}
		poolValues := util.CopyValues(values)
		if pool.IsKarpenter() {
			if err := benchRenderPool(tree, renderer, cluster, pool, poolValues, false, outputs); err != nil {
				return fmt.Errorf("node pool %s: %w", pool.Name, err)
			}
			continue
		}
		poolValues["supports_t2_unlimited"] = supportsT2Unlimited(pool.InstanceTypes)
		info, err := instanceTypes.SyntheticInstanceInfo(pool.InstanceTypes)
		if err != nil {
			return err
		}
		poolValues[instanceInfoKey] = info
		if azNames, ok := pool.ConfigItems[availabilityZonesConfigItemKey]; ok {
			restricted := azInfoNodes.RestrictAZs(strings.Split(azNames, ","))
			poolValues[subnetsValueKey] = restricted.SubnetsByAZ()
			poolValues[availabilityZonesValueKey] = restricted.AvailabilityZones()
		}
		if err := benchRenderPool(tree, renderer, cluster, pool, poolValues, true, outputs); err != nil {
			return fmt.Errorf("node pool %s: %w", pool.Name, err)
		}
	}

	if tree == nil {
		return nil
	}
	if err := putYAML(tree, "config-items.yaml", cluster.ConfigItems); err != nil {
		return err
	}
	for _, pool := range cluster.NodePools {
		if err := putYAML(tree, "node-pools/"+pool.Name+"/config-items.yaml", pool.ConfigItems); err != nil {
			return err
		}
	}
	if err := putYAML(tree, "deletions.yaml", deletions); err != nil {
		return err
	}
	if len(cfDeletions.PreApply)+len(cfDeletions.PostApply) > 0 {
		if err := putYAML(tree, "cf-deletions.yaml", cfDeletions); err != nil {
			return err
		}
	}

	root := filepath.Join(outDir, strings.NewReplacer(":", "_").Replace(cluster.ID))
	for name, content := range tree {
		file := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// benchRenderPool is prepareCloudInit and generateNodePoolTemplate without the upload: files.yaml rendered, parsed
// strictly and hashed (its S3 key), user data rendered (gzipped and base64 encoded for ASG pools), then stack.yaml or
// provisioners.yaml.
func benchRenderPool(tree map[string]string, r NodePoolTemplateRenderer, cluster *api.Cluster, pool *api.NodePool, values map[string]interface{}, asg bool, outputs map[string]string) error {
	kind, keyName := "worker", workerFilesKMSKey
	if pool.IsMaster() {
		kind, keyName = "master", masterFilesKMSKey
	}
	filesTemplate, err := r.config.NodePoolManifest(pool.Profile, filesTemplateName)
	if err != nil {
		return err
	}
	files, err := renderSingleTemplate(filesTemplate, cluster, pool, values, r.awsAdapter, r.instanceTypes)
	if err != nil {
		return err
	}
	var data remoteData
	if err := yaml.UnmarshalStrict([]byte(files), &data); err != nil {
		return err
	}
	hash, err := generateDataHash([]byte(files))
	if err != nil {
		return err
	}
	s3Path := fmt.Sprintf("s3://%s/%s", r.bucketName, path.Join(cluster.LocalID, kind, hash))
	values[s3GeneratedFilesPathValuesKey] = s3Path

	userDataTemplate, err := r.config.NodePoolManifest(pool.Profile, cloudInitFileName)
	if err != nil {
		return err
	}
	userData, err := renderSingleTemplate(userDataTemplate, cluster, pool, values, r.awsAdapter, r.instanceTypes)
	if err != nil {
		return err
	}
	encoded := userData
	if asg {
		var buffer bytes.Buffer
		writer := gzip.NewWriter(&buffer)
		if _, err := writer.Write([]byte(userData)); err != nil {
			return err
		}
		if err := writer.Close(); err != nil {
			return err
		}
		encoded = base64.StdEncoding.EncodeToString(buffer.Bytes())
	}
	values[userDataValuesKey] = encoded

	templateName := stackFileName
	if !asg {
		templateName = provisionersFileName
	}
	template, err := r.config.NodePoolManifest(pool.Profile, templateName)
	if err != nil {
		return err
	}
	rendered, err := renderSingleTemplate(template, cluster, pool, values, r.awsAdapter, r.instanceTypes)
	if err != nil {
		return err
	}

	if tree == nil {
		return nil
	}
	dir := "node-pools/" + pool.Name + "/"
	put(tree, dir+"userdata.yaml", userData)
	bucketPrefix := "s3://" + r.bucketName + "/"
	bundle := map[string]interface{}{
		"s3Path":       s3Path,
		"bucket":       r.bucketName,
		"key":          strings.TrimPrefix(s3Path, bucketPrefix),
		"kmsKeyOutput": keyName,
		"files":        data.Files,
	}
	if key, ok := outputs[keyName]; ok {
		bundle["kmsKeyId"] = key
	}
	if err := putYAML(tree, dir+"files.yaml", bundle); err != nil {
		return err
	}
	if asg {
		name := fmt.Sprintf("nodepool-%s-%s", pool.Name, strings.ReplaceAll(cluster.ID, ":", "-"))
		put(tree, "stacks/"+name+".yaml", rendered)
		return nil
	}
	remarshaled, err := remarshalYAML(rendered)
	if err != nil {
		return err
	}
	if remarshaled != "" {
		tree[dir+"provisioners.yaml"] = remarshaled
	}
	return nil
}

func putYAML(tree map[string]string, name string, value interface{}) error {
	text, err := yaml.Marshal(value)
	if err != nil {
		return err
	}
	tree[name] = string(text)
	return nil
}

// put adds a rendered text to the tree, ending in a newline as `clm render --out` writes it.
func put(tree map[string]string, name, text string) {
	if tree == nil {
		return
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	tree[name] = text
}
