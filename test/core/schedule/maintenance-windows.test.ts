import {
  nextWindowOpening,
  parseMaintenanceWindows,
  windowOpen,
} from '../../../lambdas/core/schedule/maintenance-windows';

const at = (iso: string) => Date.parse(iso);
const WHERE = 'cluster kube-1: config item maintenance_windows';

describe('maintenance windows', () => {
  const office = parseMaintenanceWindows('Mon-Fri 08:00-17:00 Europe/Berlin', WHERE);

  it('is open on the local wall clock, closed at the end minute and on weekends', () => {
    expect(windowOpen(office, at('2026-03-27T15:59:00Z'))).toBe(true); // Fri 16:59 CET
    expect(windowOpen(office, at('2026-03-27T16:00:00Z'))).toBe(false); // Fri 17:00 CET
    expect(windowOpen(office, at('2026-03-28T10:00:00Z'))).toBe(false); // Saturday
    expect(windowOpen(office, at('2026-03-30T06:00:00Z'))).toBe(true); // Mon 08:00 CEST
  });

  it('finds the next opening across a weekend and the change to summer time (08:00 stays 08:00 local)', () => {
    // Friday after hours (CET, UTC+1) → Monday 08:00 CEST (UTC+2), the clocks having moved on Sunday 29 March.
    expect(new Date(nextWindowOpening(office, at('2026-03-27T16:00:00Z'))).toISOString()).toBe(
      '2026-03-30T06:00:00.000Z',
    );
    // And back to winter time in October: Friday 23 → Monday 26 08:00 CET.
    expect(new Date(nextWindowOpening(office, at('2026-10-23T15:30:00Z'))).toISOString()).toBe(
      '2026-10-26T07:00:00.000Z',
    );
    // Open now: now.
    expect(nextWindowOpening(office, at('2026-03-30T09:00:00Z'))).toBe(at('2026-03-30T09:00:00Z'));
  });

  it('handles windows over midnight, several windows, ranges that wrap and every day', () => {
    const windows = parseMaintenanceWindows('Fri-Sun 22:00-04:00 UTC; Wed 12:00-13:00 UTC', WHERE);
    expect(windowOpen(windows, at('2026-11-22T03:59:00Z'))).toBe(true); // Sunday morning: Saturday's window
    expect(windowOpen(windows, at('2026-11-23T03:00:00Z'))).toBe(true); // Monday morning: Sunday's window
    expect(windowOpen(windows, at('2026-11-24T03:00:00Z'))).toBe(false); // Tuesday morning: none
    expect(nextWindowOpening(windows, at('2026-11-24T03:00:00Z'))).toBe(at('2026-11-25T12:00:00Z'));
    const always = parseMaintenanceWindows('* 00:00-24:00 UTC', WHERE);
    expect(windowOpen(always, at('2026-11-24T03:00:00Z'))).toBe(true);
  });

  it('refuses what it cannot read, naming the item and the window', () => {
    for (const [text, why] of [
      ['Mon-Fri 08:00-17:00 Mars/Olympus', 'unknown time zone Mars/Olympus'],
      ['Moonday 08:00-17:00 UTC', 'unknown day Moonday'],
      ['Mon 08:00-25:00 UTC', 'times go from 00:00 to 24:00'],
      ['Mon 08:00 UTC', 'expected DAYS HH:MM-HH:MM TIME_ZONE'],
      ['Mon 08:00-08:00 UTC', 'the window is empty'],
    ]) {
      expect(() => parseMaintenanceWindows(text!, WHERE)).toThrow(`${WHERE}: maintenance window "${text}": ${why}`);
    }
    expect(() => parseMaintenanceWindows(' ; ', WHERE)).toThrow('maintenance_windows is empty');
  });
});
