import type { ManagedEntry } from './field-managers';

/** A kind the simulated API server serves (built in, or added by a CRD). */
export interface KindInfo {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly group: string;
  readonly versions: readonly string[];
  readonly namespaced: boolean;
}

export interface StoredObject {
  /** The live object: what was applied plus server-set metadata (uid, creationTimestamp, generation). */
  obj: Record<string, unknown>;
  /** The last object a field manager applied, to tell `configured` from `unchanged`. */
  applied?: Record<string, unknown>;
  /**
   * Field ownership by manager (`metadata.managedFields`, kube/field-managers.ts); absent in worlds saved before it was
   * modelled (nobody owned anything).
   */
  managed?: Record<string, ManagedEntry>;
  /** `metadata.generation` the workload controller last acted on (`status.observedGeneration`). */
  observedGeneration?: number;
  readonly seq: number;
}
