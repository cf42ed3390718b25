import type { ClusterRow, FleetPage } from './fleet-page-model';

/** HTML text, attribute-safe. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Up-to-date clusters a wave shows as cards; past this many they are one collapsed list (`<details>`, no script), so
 * a fleet of thousands opens on what needs attention: summary, halts, and the cards of clusters that are not at target.
 */
export const UP_TO_DATE_CARDS = 12;

const STATES: readonly ClusterRow['state'][] = ['failed', 'halted', 'blocked', 'running', 'pending', 'up to date'];

/**
 * One self-contained page (no script, no external asset, the CSS inline): the clusters per state, then a card per
 * cluster, grouped by wave in rollout order, the failed first within a wave (its up-to-date clusters beyond
 * UP_TO_DATE_CARDS in one collapsed list). The cards wrap to the width (one column on a phone) and long ids and versions break anywhere, so the page
 * never scrolls sideways.
 */
export function renderFleetPage(page: FleetPage): string {
  const count = page.waves.reduce((n, w) => n + w.clusters.length, 0);
  const states = STATES.map(
    (state) => [state, page.waves.reduce((n, w) => n + w.clusters.filter((c) => c.state === state).length, 0)] as const,
  ).filter(([, n]) => n > 0);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CLM fleet</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>CLM fleet</h1><p>${count} cluster${count === 1 ? '' : 's'}, generated ${escapeHtml(page.generatedAt)}</p>
<ul class="summary">${states.map(([state, n]) => `<li class="state-${state.replace(/ /g, '-')}"><span class="badge">${n} ${state}</span></li>`).join('')}</ul></header>
${page.halts.length ? `<section class="halts"><h2>Halts</h2><ul>${page.halts.map((h) => `<li>${escapeHtml(h)}</li>`).join('')}</ul></section>` : ''}
${page.waves.map(wave).join('\n')}
</body>
</html>
`;
}

function wave(w: FleetPage['waves'][number]): string {
  const upToDate = w.clusters.filter((c) => c.state === 'up to date');
  const folded = upToDate.length > UP_TO_DATE_CARDS ? upToDate : [];
  // The clusters that need attention first: failed, halted, blocked, running, pending, then up to date.
  const cards = w.clusters
    .filter((c) => !folded.includes(c))
    .sort((a, b) => STATES.indexOf(a.state) - STATES.indexOf(b.state));
  const list = folded.length
    ? `<details class="folded"><summary>${folded.length} clusters up to date</summary><ul>${folded.map(line).join('')}</ul></details>`
    : '';
  return `<section class="wave"><h2>Wave ${escapeHtml(w.label)}</h2>${cards.length ? `<div class="cards">${cards.map(card).join('')}</div>` : ''}${list}</section>`;
}

/** An up-to-date cluster in a folded list: its alias, id and version. */
function line(row: ClusterRow): string {
  return `<li data-cluster="${escapeHtml(row.id)}"><b>${escapeHtml(row.alias)}</b> <span class="id">${escapeHtml(row.id)}</span> <code>${escapeHtml(row.current)}</code></li>`;
}

function card(row: ClusterRow): string {
  const list = (title: string, items: readonly string[], cls: string) =>
    items.length
      ? `<h4>${title}</h4><ul class="${cls}">${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`
      : '';
  const execution = row.execution
    ? `<p class="exec">Execution: ${row.execution.href ? `<a href="${escapeHtml(row.execution.href)}">${escapeHtml(row.execution.name)}</a>` : escapeHtml(row.execution.name)}</p>`
    : '';
  return `<article class="card state-${row.state.replace(/ /g, '-')}" data-cluster="${escapeHtml(row.id)}">
<h3>${escapeHtml(row.alias)} <span class="badge">${escapeHtml(row.state)}</span></h3>
<p class="id">${escapeHtml(row.id)}</p>
<dl><dt>current</dt><dd>${escapeHtml(row.current)}</dd><dt>target</dt><dd>${escapeHtml(row.target)}</dd>${row.eta ? `<dt>ETA</dt><dd>${escapeHtml(row.eta)}</dd>` : ''}</dl>
${list('Runs', row.runs, 'runs')}${list('Blocked by', row.blocks, 'blocks')}${list('Problems', row.problems, 'problems')}${execution}
</article>`;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;padding:1rem;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f5f6f8}
header h1{margin:0 0 .25rem;font-size:1.6rem}
header p{margin:0 0 1rem;color:#57606a}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr));gap:.75rem}
.card{background:#fff;border:1px solid #d0d7de;border-left:6px solid #8c959f;border-radius:6px;padding:.75rem;min-width:0}
.card h3{margin:0;font-size:1.05rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.card h4{margin:.6rem 0 .2rem;font-size:.9rem;color:#57606a}
.card ul{margin:0;padding-left:1.1rem}
.id,.exec,dd,li{overflow-wrap:anywhere}
.id{margin:.2rem 0 .4rem;color:#57606a;font-size:.85rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .6rem;margin:0;font-size:.9rem}
dt{color:#57606a}
dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.badge{font-size:.75rem;font-weight:600;padding:.05rem .45rem;border-radius:1rem;background:#eaeef2}
.state-running{border-left-color:#0969da}.state-running .badge{background:#ddf4ff;color:#0550ae}
.state-blocked{border-left-color:#bf8700}.state-blocked .badge{background:#fff8c5;color:#7d4e00}
.state-halted,.state-failed{border-left-color:#cf222e}.state-halted .badge,.state-failed .badge{background:#ffebe9;color:#a40e26}
.state-pending{border-left-color:#8250df}.state-pending .badge{background:#fbefff;color:#6639ba}
.state-up-to-date{border-left-color:#1a7f37}.state-up-to-date .badge{background:#dafbe1;color:#116329}
.problems li{color:#a40e26}
.halts{background:#ffebe9;border:1px solid #ff8182;border-radius:6px;padding:.5rem 1rem}
a{color:#0969da}
.summary{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;margin:0 0 1rem;padding:0}
.folded{margin-top:.75rem;background:#fff;border:1px solid #d0d7de;border-left:6px solid #1a7f37;border-radius:6px;padding:.5rem .75rem}
.folded summary{cursor:pointer;font-weight:600}
.folded ul{margin:.5rem 0 0;padding-left:1.1rem;font-size:.9rem}
.folded li{margin:.1rem 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
`;
