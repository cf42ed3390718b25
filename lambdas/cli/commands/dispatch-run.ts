// `clm dispatch`'s implementation, loaded by its action (dispatch.ts declares the command).
import { formatDispatchReport } from '../../core/dispatch/fleet-report';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { openFleetSession } from '../fleet/fleet-session';
import { onInterrupt } from '../fleet/interrupt';
import { runNextExecution, type RunOutcome } from '../fleet/run-executions';
import type { DispatchOptions } from './dispatch';

export async function runDispatch(options: DispatchOptions, io: CliIo): Promise<ExitCode> {
  const text = options.output === 'text';
  const log = (line: string) => (text ? io.stdout(`${line}\n`) : io.stderr(`${line}\n`));
  const session = await openFleetSession(options, io);
  let stopping = false;
  const removeHandlers = onInterrupt(() => (stopping = true), log);
  try {
    const report = await session.pass({
      trigger: 'cli',
      ...(options.changesOnly ? { changesOnly: true } : {}),
      ...(options.cluster?.length ? { clusters: options.cluster } : {}),
    });
    if (text) io.stdout(`${formatDispatchReport(report)}\n`);
    const updates: Exclude<RunOutcome, { kind: 'idle' }>[] = [];
    for (;;) {
      const outcome = await runNextExecution(session, { shouldStop: () => stopping, log, verbose: options.verbose });
      if (outcome.kind === 'idle') break;
      updates.push(outcome);
      if (outcome.kind === 'stopped') break;
    }
    if (!text)
      io.stdout(
        `${JSON.stringify({ report, updates: updates.map(updateJson), events: session.events.events }, null, 2)}\n`,
      );
    if (updates.some((u) => u.kind === 'stopped')) return EXIT.INTERRUPTED;
    return updates.some((u) => u.kind === 'ran' && u.status === 'FAILED') ? EXIT.FAILED : EXIT.OK;
  } finally {
    removeHandlers();
    session.close();
  }
}

function updateJson(outcome: Exclude<RunOutcome, { kind: 'idle' }>) {
  const { name, input } = outcome.execution;
  return {
    clusterId: input.clusterId,
    execution: name,
    status: outcome.kind === 'stopped' ? 'STOPPED' : outcome.status,
    ...(outcome.kind === 'ran' && outcome.error ? { error: outcome.error } : {}),
  };
}
