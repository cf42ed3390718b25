import type { Cluster } from '../../../lambdas/core/model/cluster';
import { learnedTimings } from '../../../lambdas/core/rehearsal/learned-timings';
import { summarise, type Rehearsal, type RunObservation } from '../../../lambdas/core/rehearsal/rehearsal-report';
import type { RehearsalOptions, RehearsalReads, Rehearsals } from '../../../lambdas/ports/rehearsals';

/** One successful run of `seconds` rolling `nodes` nodes of `pool`: what a unit test's rehearsal answers. */
export function rehearsalOf(seconds: number, pool = 'default-worker', nodes = 2): Rehearsal {
  const run: RunObservation = {
    seed: 1,
    status: 'SUCCEEDED',
    durationSeconds: seconds,
    pools: [{ pool, seconds, nodes, batches: nodes }],
    pdbBlocks: [],
    forced: [],
    pending: [],
    surge: [],
    transitions: 40,
  };
  return summarise([run], {
    timings: learnedTimings({ stackUpdates: [], boots: [], readies: [], pods: [] }),
    notes: [],
  });
}

/**
 * The rehearsals of unit tests: keeps who was rehearsed (and with which reads), answers `answer` (a rehearsal, or an
 * error it throws). The real twin is tested in test/e2e/plan-rehearse.test.ts.
 */
export class FakeRehearsals implements Rehearsals {
  readonly calls: { clusterId: string; live: RehearsalReads; options?: RehearsalOptions }[] = [];
  answer: Rehearsal | Error = rehearsalOf(600);

  async rehearse(cluster: Cluster, live: RehearsalReads, options?: RehearsalOptions): Promise<Rehearsal> {
    this.calls.push({ clusterId: cluster.id, live, ...(options ? { options } : {}) });
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}
