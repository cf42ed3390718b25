import { resolve } from 'node:path';
import { configSourcesFromFlags } from '../../adapters/config-source/create-config-sources';
import { MemoryEventSink } from '../../adapters/events/memory-event-sink';
import { openFileFleetStore } from '../../adapters/fleet/file-fleet-store';
import { createRegistry } from '../../adapters/registry/create-registry';
import type { DispatchReport } from '../../contracts/dispatch-report';
import type { FleetEvent } from '../../contracts/fleet-events';

/** What the webhook's PullRequestAccepted event carries. */
export type PullRequestAcceptedDetail = Extract<FleetEvent, { type: 'PullRequestAccepted' }>['detail'];
import type { ExecutionStatusChange, HttpRequest, HttpResponse, PassRequest } from '../../contracts/triggers';
import type { Forge } from '../../ports/forge';
import type { ForgeReport } from '../../tasks/report-to-forge';
import type { PullRequestPlans } from '../../tasks/plan-pull-request';
import type { WebhookVerifier } from '../../ports/webhook-verifier';
import { LocalUpdateExecutions } from '../../runtime/local/local-executions';
import { factoriesOf, restrictPorts } from '../../runtime/restrict-ports';
import { runTask } from '../../runtime/run-task';
import { findTask } from '../../tasks/catalogue';
import type { AnyTask } from '../../tasks/define-task';
import { openCliWorld, type CliWorld } from '../cli-world';
import { UsageError, type CliIo } from '../io';
import { usage, usageAsync } from '../usage';
import { fleetSettings, type FleetSettings } from '../../core/dispatch/fleet-settings';
import type { FleetFlags } from './fleet-options';
import { parseGoDuration } from '../../core/rollout/go-duration';
import { ValidationError } from '../../shared/errors';
import { takeStateLock } from './state-lock';
import { stateTable } from '../state-stores';

/**
 * What `clm dispatch` and `clm serve` share: the world (simulated or AWS) with the fleet's ports wired for this
 * machine — the fleet state in `<state>/fleet.json`, executions run in process (`<state>/executions.json`), events
 * to the log — and the catalogue's triggered tasks run through them exactly as Lambda runs them (their contracts,
 * only their ports).
 */
export interface FleetSession {
  readonly world: CliWorld;
  readonly executions: LocalUpdateExecutions;
  readonly events: MemoryEventSink;
  /** One DispatchFleet pass. */
  pass(request: PassRequest): Promise<DispatchReport>;
  /** The GithubWebhook task. */
  webhook(request: HttpRequest): Promise<HttpResponse>;
  /** The ReportToForge task: an update started or ended. */
  report(change: ExecutionStatusChange): Promise<ForgeReport>;
  /** The PlanPullRequest task: queue the plans of a pull request the webhook accepted. */
  planPullRequest(accepted: PullRequestAcceptedDetail): Promise<PullRequestPlans>;
  /** Release the state directory. */
  close(): void;
}

export interface FleetSessionOptions {
  /** `clm serve`: how webhook signatures are checked. */
  readonly verifier?: WebhookVerifier;
  /** `clm serve --github-token-file`: where commit statuses and pull request plans go. */
  readonly forge?: Forge;
  /** Every event the tasks send (logged; PushAccepted asks `clm serve` for a pass). */
  readonly onEvent?: (event: FleetEvent) => void;
}

export async function openFleetSession(
  flags: FleetFlags,
  io: CliIo,
  options: FleetSessionOptions = {},
): Promise<FleetSession> {
  if (stateTable(flags.state))
    throw new UsageError(
      `--state ${flags.state}: clm dispatch and clm serve keep the fleet in a directory; the deployed system dispatches by itself`,
    );
  const stateDir = resolve(io.cwd, flags.state);
  const lock = usage(() => takeStateLock(stateDir));
  try {
    const registry = usage(() =>
      createRegistry(flags.registry, { cwd: io.cwd, ...(flags.token ? { token: flags.token } : {}) }),
    );
    const sources = usage(() =>
      configSourcesFromFlags({ configSources: flags.configSource, directory: flags.directory }, { cwd: io.cwd }),
    );
    const settings = usage(() => settingsFromFlags(flags));
    const clusters = await usageAsync(() => registry.listClusters());
    const fleet = openFileFleetStore(stateDir, settings, { autosave: true }).store;
    const events = new MemoryEventSink(options.onEvent);
    // The world's clock drives the execution records, so back-off and simulated time agree.
    const clock = { now: () => world.ports.clock.now() };
    const executions = new LocalUpdateExecutions(stateDir, () => clock.now());
    const services = {
      executions,
      events,
      ...(options.verifier ? { webhooks: options.verifier } : {}),
      ...(options.forge ? { forge: options.forge } : {}),
    };
    const world: CliWorld = await openCliWorld(flags, { registry, sources, clusters, io, fleet, services });
    const { ports } = world;
    const run = (name: string, input: unknown) => {
      const task = findTask(name) as AnyTask;
      return runTask(task, input, restrictPorts(task.name, task.ports, factoriesOf(ports)));
    };
    return {
      world,
      executions,
      events,
      pass: async (request) => {
        const report = (await run('DispatchFleet', request)) as DispatchReport;
        // The pass may have written to the clusters (a drift repair) and recorded problems.
        world.save();
        return report;
      },
      webhook: async (request) => (await run('GithubWebhook', request)) as HttpResponse,
      report: async (change) => (await run('ReportToForge', change)) as ForgeReport,
      planPullRequest: async (accepted) => (await run('PlanPullRequest', accepted)) as PullRequestPlans,
      close: lock.release,
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The fleet settings the flags give, the defaults filling the rest (docs/fleet.md). */
export function settingsFromFlags(flags: FleetFlags): FleetSettings {
  const soak = flags.waveSoak === undefined ? undefined : parseGoDuration(flags.waveSoak);
  if (flags.waveSoak !== undefined && soak === undefined)
    throw new ValidationError(`--wave-soak: "${flags.waveSoak}" is not a duration such as 30m or 1h`);
  return fleetSettings({
    include: flags.include,
    exclude: flags.exclude,
    maxConcurrent: flags.maxConcurrent,
    maxConcurrentPerAccount: flags.maxConcurrentPerAccount,
    maxConcurrentPerRegion: flags.maxConcurrentPerRegion,
    startsPerSecond: flags.startsPerSecond,
    launchesPerSecond: flags.launchesPerSecond,
    launchBurst: flags.launchBurst,
    waveSoakMs: soak,
    regions: flags.regions,
    waveFailureTolerance: flags.waveFailureTolerance,
    waveOrder: flags.waveOrder,
    wavesByCriticality: flags.wavesByCriticality,
  });
}
