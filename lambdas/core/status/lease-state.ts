import type { Lease } from '../../ports/progress-store';

/**
 * The time on each clock a lease may be written on: the system clock, and the virtual clock of the simulated world
 * at hand (a `--simulate` state directory), when there is one.
 */
export interface Clocks {
  readonly system: number;
  readonly simulated?: number;
}

/**
 * Whether a lease expired, judged on the clock that wrote it: a `--simulate` run's lease is in simulated time (the
 * world's clock, which may be months from the real one), never compared with the system clock. Undefined when that
 * clock cannot be read here (a simulated lease where no simulated world is at hand): it cannot be called expired.
 */
export function leaseExpired(lease: Lease, clocks: Clocks): boolean | undefined {
  const now = lease.clock === 'simulated' ? clocks.simulated : clocks.system;
  return now === undefined ? undefined : lease.expiresAt <= now;
}

/** The lease's expiry as people read it: an ISO time, with the clock when it is not the real one. */
export function leaseExpiry(lease: Lease): string {
  return `${new Date(lease.expiresAt).toISOString()}${lease.clock === 'simulated' ? ' (simulated time)' : ''}`;
}
