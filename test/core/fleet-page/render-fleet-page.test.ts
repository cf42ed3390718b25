// The fleet page's layout at fleet scale: counts per state on top, the clusters needing attention first within a
// wave, and a wave's many up-to-date clusters folded into one list (no script: a <details> element).
import type { ClusterRow } from '../../../lambdas/core/fleet-page/fleet-page-model';
import { UP_TO_DATE_CARDS, renderFleetPage } from '../../../lambdas/core/fleet-page/render-fleet-page';

const row = (n: number, state: ClusterRow['state']): ClusterRow => ({
  id: `aws:123456789012:eu-central-1:kube-${n}`,
  alias: `kube-${n}`,
  current: 'dir-1#a',
  target: 'dir-1#a',
  state,
  runs: [],
  blocks: [],
  problems: [],
});

const page = (clusters: ClusterRow[]) =>
  renderFleetPage({ generatedAt: '2026-01-01T00:00:00Z', halts: [], waves: [{ label: 'test', clusters }] });
const cards = (html: string) => [
  ...html.matchAll(/<article class="card state-([a-z-]+)" data-cluster="[^"]+kube-(\d+)"/g),
];

describe('the fleet page at fleet scale', () => {
  it('shows the clusters that need attention first, and how many are in each state', () => {
    const html = page([
      row(1, 'up to date'),
      row(2, 'running'),
      row(3, 'failed'),
      row(4, 'pending'),
      row(5, 'blocked'),
    ]);

    expect(cards(html).map(([, state, n]) => `${n} ${state}`)).toEqual([
      '3 failed',
      '5 blocked',
      '2 running',
      '4 pending',
      '1 up-to-date',
    ]);
    expect(html).toContain('<span class="badge">1 failed</span>');
    expect(html).toContain('<span class="badge">1 up to date</span>');
    expect(html).not.toContain('<details');
  });

  it(`keeps up to ${UP_TO_DATE_CARDS} up-to-date clusters of a wave as cards, and folds more into one list`, () => {
    const upToDate = (count: number) => Array.from({ length: count }, (_, n) => row(n + 10, 'up to date'));

    const few = page([row(1, 'running'), ...upToDate(UP_TO_DATE_CARDS)]);
    const many = page([row(1, 'running'), ...upToDate(UP_TO_DATE_CARDS + 1)]);

    expect(cards(few)).toHaveLength(UP_TO_DATE_CARDS + 1);
    expect(cards(many).map(([, state]) => state)).toEqual(['running']);
    expect(many).toContain(`<details class="folded"><summary>${UP_TO_DATE_CARDS + 1} clusters up to date</summary>`);
    expect(many.match(/<li data-cluster="[^"]+">/g)).toHaveLength(UP_TO_DATE_CARDS + 1);
    expect(many).not.toMatch(/<script/);
  });
});
