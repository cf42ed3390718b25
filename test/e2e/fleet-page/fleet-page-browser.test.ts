// The fleet page in a real browser (Debian's Chromium, headless): the page `clm status --html` writes after simulated
// runs, and a crowded page (long ids, many blocks and problems, halts), each laid out at 1280 px and at a phone's
// 390 px: nothing overflows sideways, the text stays readable, the cards sit side by side on the wide screen and
// stack on the phone, and a screenshot shows a drawn page of the window's size.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FleetPage } from '../../../lambdas/core/fleet-page/fleet-page-model';
import { renderFleetPage } from '../../../lambdas/core/fleet-page/render-fleet-page';
import { EXAMPLES, PROD, STAGING, TEST, clm, createKubeTest, tempDir } from '../support/clm-session';
import { inBrowser, pngFacts, type Layout } from './headless-chromium';

const SLOW = 240_000;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const LONG = 'aws:123456789012:eu-central-1:kube-a-cluster-with-a-rather-long-name-that-must-wrap-0123456789';

/** The worst case for a narrow screen: long unbroken ids and versions, several blocks and problems, a halt. */
function crowdedPage(): FleetPage {
  const row = (n: number, state: 'running' | 'blocked' | 'failed') => ({
    id: `${LONG}-${n}`,
    alias: `kube-${n}`,
    current: `dir-4b18e1fa25ad#LCoYwUWSMJltp_38oBn0nGI78TcLCoYwUWSMJltp_38oBn0nGI78Tc-${n}`,
    target: `dir-12cda0587bbc#pZgRH5dPIz87wrFb6eKhVnPwqbMpZgRH5dPIz87wrFb6eKhVnPwqbM-${n}`,
    state,
    runs: [
      'provision to dir-12cda0587bbc#pZgRH5dPIz87wrFb6eKhVnPwqbM: RollNodePool default-worker',
      'default-worker: 3/7 nodes replaced (rolling)',
    ],
    blocks: [
      'default-worker: PDB default/payments allows 0 disruption(s) (2/2 healthy) for pod default/payments-lgrlkmdgjj-gkm45',
    ],
    problems: [
      'TemplateRenderError: main/cluster/manifests/20-web/broken.yaml:2: template syntax error: Expecting CLOSE_RAW_BLOCK',
    ],
    execution: {
      name: `update-kube-${n}-0123456789abcdef0123`,
      href: `https://eu-central-1.console.aws.amazon.com/states/home?region=eu-central-1#/v2/executions/details/arn:aws:states:eu-central-1:123456789012:execution:ClusterUpdate:update-kube-${n}`,
    },
    eta: '2026-01-01T01:23:45.000Z',
  });
  return {
    generatedAt: '2026-01-01T00:00:00.000Z',
    halts: ['rollout to dir-12cda0587bbc halted at wave production (criticality 2): 1 of 4 clusters failed: kube-3'],
    waves: [
      { label: 'test (criticality 1)', clusters: [row(1, 'running'), row(2, 'blocked'), row(3, 'failed')] },
      { label: 'production (criticality 2)', clusters: [row(4, 'blocked')] },
    ],
  };
}

describe('the fleet page in headless Chromium', () => {
  let written: string;
  beforeAll(async () => {
    const state = tempDir('fleet-page');
    temps.push(state);
    await createKubeTest(state);
    const file = join(state, 'fleet.html');
    const status = await clm(['status', ...EXAMPLES, '--state', state, '--html', file]);
    expect(status.code).toBe(0);
    written = readFileSync(file, 'utf8');
  }, SLOW);

  it('is one file with nothing from elsewhere: no script, no stylesheet link, no remote URL but execution links', () => {
    expect(written).toMatch(/^<!doctype html>/);
    expect(written).not.toMatch(/<script|<link|@import|url\(/i);
    expect(written).not.toMatch(/src=/i);
  });

  it.each([1280, 390])(
    'shows every wave and cluster with its versions at %i px, without sideways scrolling',
    async (width) => {
      const { layout } = await inBrowser(written, width, 900);

      expect(layout.viewportWidth).toBe(width);
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      expect(layout.rightmost).toBeLessThanOrEqual(width);
      expect(layout.minFontPx).toBeGreaterThanOrEqual(12);
      for (const id of [TEST, STAGING, PROD]) expect(layout.text).toContain(id);
      expect(layout.text).toMatch(/Wave test/);
      expect(layout.text).toMatch(/Wave production/);
      expect(layout.text).toMatch(/current\s+dir-[0-9a-f]+#/);
      expect(layout.text).toContain('up to date');
    },
  );

  it('keeps a crowded page readable: side by side at 1280 px, stacked at 390 px, nothing past the edge', async () => {
    const html = renderFleetPage(crowdedPage());
    const { layout: wide } = await inBrowser(html, 1280, 900);
    const { layout: phone } = await inBrowser(html, 390, 844);

    for (const layout of [wide, phone]) {
      expect(layout.rightmost).toBeLessThanOrEqual(layout.viewportWidth);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.viewportWidth);
      expect(layout.minFontPx).toBeGreaterThanOrEqual(12);
      expect(layout.text).toContain('halted at wave production');
      expect(layout.text).toContain('PDB default/payments allows 0 disruption(s)');
      expect(layout.text).toContain('TemplateRenderError');
    }
    const rows = (cards: Layout['cards']) => new Set(cards.map(([, top]) => top)).size;
    // Wave "test" has three cards: one row at 1280 px, three at 390 px (one column, each card nearly full width).
    expect(rows(wide.cards.slice(0, 3))).toBe(1);
    expect(rows(phone.cards.slice(0, 3))).toBe(3);
    for (const [left, , width] of phone.cards) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(width).toBeGreaterThan(300);
    }
  });

  it('folds a wave of many up-to-date clusters into one list, closed at first, and opens it without overflow', async () => {
    // Arrange: 30 up-to-date clusters with long ids and versions beside a running one
    const upToDate = Array.from({ length: 30 }, (_, n) => ({
      id: `${LONG}-${n}`,
      alias: `kube-${n}`,
      current: `dir-4b18e1fa25ad#LCoYwUWSMJltp_38oBn0nGI78TcLCoYwUWSMJltp_38oBn0nGI78Tc-${n}`,
      target: `dir-4b18e1fa25ad#LCoYwUWSMJltp_38oBn0nGI78TcLCoYwUWSMJltp_38oBn0nGI78Tc-${n}`,
      state: 'up to date' as const,
      runs: [],
      blocks: [],
      problems: [],
    }));
    const page = crowdedPage();
    const html = renderFleetPage({
      ...page,
      waves: [{ label: 'fleet', clusters: [...page.waves[0]!.clusters.slice(0, 1), ...upToDate] }],
    });
    const open = html.replace('<details class="folded">', '<details class="folded" open>');

    // Act
    const closed = (await inBrowser(html, 390, 844)).layout;
    const opened = await Promise.all([inBrowser(open, 1280, 900), inBrowser(open, 390, 844)]);

    // Assert: the running cluster's card, the counts, and one line for the 30 until opened
    expect(closed.cards).toHaveLength(1);
    expect(closed.text).toContain('30 clusters up to date');
    expect(closed.text).toMatch(/1 running\s+30 up to date/);
    expect(closed.text).not.toContain(`${LONG}-29`);
    for (const { layout } of opened) {
      expect(layout.text).toContain(`${LONG}-29`);
      expect(layout.rightmost).toBeLessThanOrEqual(layout.viewportWidth);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.viewportWidth);
      expect(layout.minFontPx).toBeGreaterThanOrEqual(12);
    }
  });

  it.each([
    [1280, 900],
    [390, 844],
  ])('screenshots as a drawn page of %i x %i', async (width, height) => {
    const facts = pngFacts((await inBrowser(written, width, height)).png);

    expect({ width: facts.width, height: facts.height }).toEqual({ width, height });
    // Text, badges, borders and backgrounds: many colours (a blank page has one).
    expect(facts.colours).toBeGreaterThan(50);
  });
});
