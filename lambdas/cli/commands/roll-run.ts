// `clm roll`'s implementation, loaded by its action (roll.ts declares the command).
import { UsageError, type CliIo, type ExitCode } from '../io';
import { operator } from './controls-run';
import { runProvision } from './provision-run';
import type { RollOptions } from './roll';

/** A forced roll: `clm provision` of the one cluster, its execution carrying the node roll (who, why, which pools). */
export async function runRoll(clusterId: string, options: RollOptions, io: CliIo): Promise<ExitCode> {
  if (!options.force)
    throw new UsageError(
      'clm roll replaces nodes whose launch templates are current only when asked: give --force (and --reason)',
    );
  if (options.applyOnly) throw new UsageError('--apply-only never rolls nodes: it does not go with clm roll');
  if (options.cluster?.length) throw new UsageError('clm roll takes the cluster as its argument, not --cluster');
  const pools = options.pool?.map((p) => p.trim()).filter(Boolean);
  return runProvision(
    'provision',
    {
      ...options,
      cluster: [clusterId],
      nodeRoll: {
        kind: 'force',
        ...(pools?.length ? { pools } : {}),
        ...(options.reason ? { reason: options.reason } : {}),
        requestedBy: operator(),
      },
    },
    io,
  );
}
