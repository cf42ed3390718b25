import type { Ports } from '../../ports/ports';
import { NO_FORGE } from '../../adapters/forge/no-forge';
import { unwiredPort } from './unwired-port';

/** The fleet's services a runtime may or may not have: only `clm serve`/`dispatch` and Lambda wire them all. */
export type FleetServices = Pick<Ports, 'executions' | 'events' | 'webhooks' | 'forge'>;

const HINT = 'the dispatcher runs in `clm dispatch`, `clm serve` and the deployed DispatchFleet function';

/** The given services, stand-ins for the rest (any use of one says where it is wired). */
export function fleetStandIns(given: Partial<FleetServices> = {}): FleetServices {
  return {
    executions: given.executions ?? unwiredPort('executions', HINT),
    events: given.events ?? unwiredPort('events', HINT),
    webhooks: given.webhooks ?? unwiredPort('webhooks', 'webhooks are verified by `clm serve` and GithubWebhook'),
    // Without credentials nothing is reported, and ReportToForge says so.
    forge: given.forge ?? NO_FORGE,
  };
}
