import type { AlarmState, HealthAlarms } from '../../ports/health-alarms';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';

/**
 * HealthAlarms of the simulated account: the scenario's `faults.alarms` say when an alarm is out of OK (virtual seconds
 * after the world started); a named alarm is OK outside those windows, and an alarm no entry names does not exist.
 */
export function simHealthAlarms(ctx: SimContext, clusterId: string): HealthAlarms {
  return instrument<HealthAlarms>(ctx, 'alarms', clusterId, {
    alarmState(name): AlarmState | undefined {
      const specs = (ctx.state.scenario.faults.alarms ?? []).filter(
        (a) => a.name === name && (!a.cluster || a.cluster === clusterId),
      );
      if (specs.length === 0) return undefined;
      const elapsed = (ctx.now - ctx.state.startTime) / 1000;
      const active = specs.find(
        (a) => elapsed >= a.fromSeconds && (a.untilSeconds === undefined || elapsed < a.untilSeconds),
      );
      return active ? active.state : 'OK';
    },
  });
}
