// Stands in for `semver` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts). The X-Ray
// SDK (Powertools Tracer) requires it in one place: its AWS SDK v2 patcher (`captureAWS`) checks the v2 SDK's VERSION
// with `semver.gte`. The tasks use the v3 SDK and never call that patcher, but the require is at the patcher's top, so
// the whole package (29 KB) came along. `gte` here compares versions as semver does (major.minor.patch, then a
// pre-release below its release, identifiers compared numerically or as text); an invalid version is an error, as
// it is for semver. test/runtime/lambda/bundling-stubs.test.ts checks it against the real package. The CLI keeps the
// real one.
'use strict';

/** A pre-release identifier: a number without leading zeros, or text that is not only digits. */
const ID = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const VERSION = new RegExp(
  `^v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-(${ID}(?:\\.${ID})*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
);

function parse(version) {
  const match = typeof version === 'string' ? VERSION.exec(version.trim()) : null;
  if (!match) throw new TypeError(`Invalid Version: ${version}`);
  const prerelease = match[4] ? match[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { release: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease };
}

function compareIds(a, b) {
  const numeric = typeof a === 'number' && typeof b === 'number';
  if (numeric) return Math.sign(a - b);
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

function compare(left, right) {
  const a = parse(left);
  const b = parse(right);
  for (let i = 0; i < 3; i++) if (a.release[i] !== b.release[i]) return Math.sign(a.release[i] - b.release[i]);
  if (!a.prerelease.length || !b.prerelease.length) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    if (a.prerelease[i] === undefined) return -1;
    if (b.prerelease[i] === undefined) return 1;
    const order = compareIds(a.prerelease[i], b.prerelease[i]);
    if (order !== 0) return order;
  }
  return 0;
}

module.exports = { gte: (a, b) => compare(a, b) >= 0 };
