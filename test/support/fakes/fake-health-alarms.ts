import type { AlarmState, HealthAlarms } from '../../../lambdas/ports/health-alarms';

/** Alarms a test sets by name; an alarm never set does not exist. */
export class FakeHealthAlarms implements HealthAlarms {
  readonly states = new Map<string, AlarmState>();
  readonly calls: string[] = [];

  async alarmState(name: string): Promise<AlarmState | undefined> {
    this.calls.push(name);
    return this.states.get(name);
  }
}
