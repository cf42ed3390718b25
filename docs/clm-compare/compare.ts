// Part of docs/koa-check.sh: compares the stacks Zalando CLM's own code rendered (render_compare_test.go) with ours
// (`clm render --out`), after decompressing the user data on both sides (gzip output differs by implementation), and
// the Karpenter pools' provisioners.yaml as objects. Prints one line per stack and the totals.
//   npx tsx docs/clm-compare/compare.ts CLM_OUT OUR_CLUSTER_DIR
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import yaml from 'js-yaml';

const [clmOut, ours] = process.argv.slice(2);
if (!clmOut || !ours) throw new Error('usage: compare.ts CLM_OUT OUR_CLUSTER_DIR');

/** Every gzip+base64 blob (user data) replaced by its text. */
const decompressed = (text: string) =>
  text.replace(/H4sI[A-Za-z0-9+/]+=*/g, (blob) => gunzipSync(Buffer.from(blob, 'base64')).toString('utf8'));
const normal = (text: string) => decompressed(text).replace(/\n+$/, '');

function firstDifference(a: string, b: string): string {
  const [x, y] = [a.split('\n'), b.split('\n')];
  const i = x.findIndex((line, n) => line !== y[n]);
  const at = i < 0 ? x.length : i;
  return `line ${at + 1}: CLM ${JSON.stringify((x[at] ?? '<end>').slice(0, 160))}, ours ${JSON.stringify((y[at] ?? '<end>').slice(0, 160))}`;
}

let equal = 0;
let total = 0;
for (const file of readdirSync(join(clmOut, 'stacks')).sort()) {
  total += 1;
  const mine = join(ours, 'stacks', file);
  if (!existsSync(mine)) {
    console.log(`missing  ${file}: not in our render`);
    continue;
  }
  const [a, b] = [normal(readFileSync(join(clmOut, 'stacks', file), 'utf8')), normal(readFileSync(mine, 'utf8'))];
  if (a === b) equal += 1;
  console.log(a === b ? `equal    ${file}` : `differs  ${file}: ${firstDifference(a, b)}`);
}
console.log(`stacks equal to CLM's render (user data decompressed): ${equal} of ${total}`);

const karpenter = join(clmOut, 'karpenter');
if (existsSync(karpenter)) {
  const objects = (text: string) => yaml.loadAll(text).filter((doc) => doc !== null && doc !== undefined);
  for (const file of readdirSync(karpenter).sort()) {
    const pool = file.replace(/\.yaml$/, '');
    const mine = join(ours, 'node-pools', pool, 'provisioners.yaml');
    const same =
      existsSync(mine) &&
      isDeepStrictEqual(objects(readFileSync(join(karpenter, file), 'utf8')), objects(readFileSync(mine, 'utf8')));
    console.log(`${same ? 'equal   ' : 'differs '} Karpenter pool ${pool}: provisioners.yaml (as objects)`);
  }
}
