/** A template file and the path errors should name, e.g. `main/cluster/manifests/10-coredns/deployment.yaml`. */
export interface TemplateFile {
  readonly path: string;
  readonly content: string;
}

export interface RenderRequest {
  readonly template: TemplateFile;
  /** The data: `{ Cluster, Values, NodePool }` with CLM's names (DESIGN.md §5). */
  readonly context: Readonly<Record<string, unknown>>;
  /** Resolves `manifestHash "relative/path"` to a sibling template; undefined means "not found". */
  readonly sibling?: (relativePath: string) => TemplateFile | undefined;
}

/** Renders CLM-compatible templates (handlebars with CLM's helper names). Throws TemplateRenderError. */
export interface TemplateEngine {
  render(request: RenderRequest): Promise<string>;
}

/** Live lookups some template helpers need (`amiID`, `instanceType*Quantity`). */
export interface CloudLookups {
  /** DescribeImages by name and owner; exactly one match, else an error. */
  amiId(name: string, ownerId: string): Promise<string>;
  instanceType(type: string): Promise<InstanceTypeInfo>;
}

/** What CLM reads about an instance type (DescribeInstanceTypes). */
export interface InstanceTypeInfo {
  readonly instanceType: string;
  /** VCpuInfo.DefaultVCpus */
  readonly vcpu: number;
  /** MemoryInfo.SizeInMiB */
  readonly memoryMiB: number;
  readonly architecture: 'amd64' | 'arm64';
  /** Instance-store disks (InstanceStorageInfo.Disks[0].Count; 0 without instance store). */
  readonly instanceStorageDevices: number;
  /** Size of each of those disks in GB (10^9 bytes; Disks[0].SizeInGB). */
  readonly instanceStorageDeviceSizeGB: number;
}
