// Karpenter budget schedules: 5-field cron in UTC, active for `duration` after each time the schedule fires.
import { activeWindowEnd, cronMatches, parseCron } from '../../../lambdas/core/karpenter/budget-schedule';

const at = (iso: string) => Date.parse(`${iso}Z`);
const matches = (cron: string, iso: string) => cronMatches(parseCron(cron)!, at(iso));

describe('parseCron', () => {
  it.each([
    ['0 9 * * mon-fri', { minutes: [0], hours: [9], daysOfWeek: [1, 2, 3, 4, 5] }],
    ['*/15 0-6/2 1,15 * *', { minutes: [0, 15, 30, 45], hours: [0, 2, 4, 6], daysOfMonth: [1, 15] }],
    ['5/20 * * jan,JUL sun', { minutes: [5, 25, 45], months: [1, 7], daysOfWeek: [0] }],
    ['0 0 * * 7', { daysOfWeek: [0] }],
    ['@hourly', { minutes: [0], hours: Array.from({ length: 24 }, (_, h) => h) }],
    ['@weekly', { minutes: [0], hours: [0], daysOfWeek: [0] }],
  ])('reads %j', (text, fields) => {
    const schedule = parseCron(text)!;
    for (const [field, values] of Object.entries(fields))
      expect([...(schedule[field as keyof typeof schedule] as Set<number>)].sort((a, b) => a - b)).toEqual(values);
  });

  it.each([
    '',
    '0 9 * *',
    '0 9 * * * *',
    '60 * * * *',
    '* 24 * * *',
    '* * 0 * *',
    '* * * 13 *',
    '5-1 * * * *',
    '*/0 * * * *',
    'every monday',
    '@reboot',
    '1-2-3 * * * *',
    '* * * * fun',
  ])('refuses %j', (text) => {
    expect(parseCron(text)).toBeUndefined();
  });
});

describe('cronMatches', () => {
  it('matches the minute in UTC', () => {
    expect(matches('30 9 * * *', '2026-01-05T09:30:00')).toBe(true);
    expect(matches('30 9 * * *', '2026-01-05T09:30:59')).toBe(true);
    expect(matches('30 9 * * *', '2026-01-05T09:31:00')).toBe(false);
    expect(matches('30 9 * * *', '2026-01-05T10:30:00')).toBe(false);
  });

  it('needs both day fields when one is *, either when both are restricted (as cron)', () => {
    // 2026-01-05 is a Monday, 2026-01-13 a Tuesday
    expect(matches('0 0 * * mon', '2026-01-05T00:00:00')).toBe(true);
    expect(matches('0 0 13 * *', '2026-01-05T00:00:00')).toBe(false);
    expect(matches('0 0 13 * mon', '2026-01-05T00:00:00')).toBe(true);
    expect(matches('0 0 13 * mon', '2026-01-13T00:00:00')).toBe(true);
    expect(matches('0 0 13 * mon', '2026-01-14T00:00:00')).toBe(false);
    expect(matches('0 0 13 feb mon', '2026-01-05T00:00:00')).toBe(false);
  });
});

describe('activeWindowEnd', () => {
  const weekdays = parseCron('0 9 * * mon-fri')!;
  const eightHours = 8 * 3_600_000;

  it('is the end of the window holding now, undefined outside every window', () => {
    expect(activeWindowEnd(weekdays, eightHours, at('2026-01-05T09:00:00'))).toBe(at('2026-01-05T17:00:00'));
    expect(activeWindowEnd(weekdays, eightHours, at('2026-01-05T16:59:59'))).toBe(at('2026-01-05T17:00:00'));
    expect(activeWindowEnd(weekdays, eightHours, at('2026-01-05T17:00:00'))).toBeUndefined();
    expect(activeWindowEnd(weekdays, eightHours, at('2026-01-05T08:59:59'))).toBeUndefined();
    expect(activeWindowEnd(weekdays, eightHours, at('2026-01-10T12:00:00'))).toBeUndefined();
  });

  it('runs across midnight and takes the latest firing when windows overlap', () => {
    const nightly = parseCron('0 22 * * *')!;
    expect(activeWindowEnd(nightly, 6 * 3_600_000, at('2026-01-06T03:00:00'))).toBe(at('2026-01-06T04:00:00'));
    const hourly = parseCron('@hourly')!;
    expect(activeWindowEnd(hourly, 2 * 3_600_000, at('2026-01-06T03:30:00'))).toBe(at('2026-01-06T05:00:00'));
  });
});
