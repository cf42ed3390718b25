/**
 * Golden files: the render of the example config repository (examples/) must match the files under
 * test/golden/render/<cluster>/ exactly (the `clm render --out` tree).
 *
 * After an intended change to the examples or the renderer, rewrite them and review the diff:
 *
 *   UPDATE_GOLDEN=1 npx jest test/golden/render
 *   git diff test/golden/render
 *
 * Stack templates carry the user data gzipped and base64-encoded; gzip bytes may differ between zlib
 * builds, so both sides compare it decoded (it must equal node-pools/<pool>/userdata.yaml).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { StaticValuesProvider } from '../../../lambdas/adapters/values/static-values-provider';
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import { parseClustersYaml } from '../../../lambdas/core/model/parse-clusters';
import { renderCluster } from '../../../lambdas/core/render/render-cluster';
import type { ClusterRender } from '../../../lambdas/core/render/render-cluster';
import { renderTree } from '../../../lambdas/core/render/render-tree';

const ROOT = resolve(__dirname, '../../..');
const GOLDEN = __dirname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.set(relative(dir, full).split(sep).join('/'), readFileSync(full, 'utf8'));
  }
  return files;
}

/** Decode every gzip+base64 blob so the comparison does not depend on the zlib build. */
function normalize(content: string): string {
  return content.replace(/\bH4sI[A-Za-z0-9+/]+={0,2}/g, (blob) => {
    const text = gunzipSync(Buffer.from(blob, 'base64')).toString('utf8');
    return `<gzip+base64 of ${text.length} chars, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 16)}>`;
  });
}

async function renderExampleClusters(): Promise<ClusterRender[]> {
  const { clusters } = parseClustersYaml(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8'), 'examples/clusters.yaml');
  const configFiles = readTree(join(ROOT, 'examples/config'));
  const snapshots = [{ sourceName: 'main', version: 'golden', files: configFiles }];
  const values = await StaticValuesProvider.fromFile(join(ROOT, 'examples/values.yaml'));
  const engine = new HandlebarsTemplateEngine();
  const renders: ClusterRender[] = [];
  for (const cluster of clusters) {
    const render = await renderCluster({ cluster, snapshots, values: await values.clusterValues(cluster), engine, decrypter: { decrypt: async () => 'unused' } });
    expect(render.errors).toEqual([]);
    renders.push(render);
  }
  return renders;
}

async function renderExamples(): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const render of await renderExampleClusters()) for (const [path, content] of renderTree(render)) tree.set(path, content);
  return tree;
}

describe('golden render of examples/', () => {
  it('matches test/golden/render', async () => {
    const actual = await renderExamples();
    if (UPDATE) {
      for (const entry of readdirSync(GOLDEN, { withFileTypes: true })) if (entry.isDirectory()) rmSync(join(GOLDEN, entry.name), { recursive: true });
      for (const [path, content] of actual) {
        mkdirSync(dirname(join(GOLDEN, path)), { recursive: true });
        writeFileSync(join(GOLDEN, path), content);
      }
    }
    const golden = readTree(GOLDEN);
    golden.delete(relative(GOLDEN, __filename).split(sep).join('/'));
    expect([...actual.keys()].sort()).toEqual([...golden.keys()].sort());
    for (const [path, content] of actual) {
      expect({ path, content: normalize(content) }).toEqual({ path, content: normalize(golden.get(path)!) });
    }
  });

  it('carries user data that decodes to the rendered userdata.yaml of each pool', async () => {
    let checked = 0;
    for (const render of await renderExampleClusters()) {
      for (const pool of render.poolDetails) {
        if (!('stack' in pool)) continue; // Karpenter pools carry their user data raw, in provisioners.yaml
        const blob = /UserData: (H4sI[A-Za-z0-9+/=]+)/.exec(pool.stack.template)![1];
        expect(gunzipSync(Buffer.from(blob, 'base64')).toString('utf8')).toBe(pool.userData);
        checked++;
      }
    }
    expect(checked).toBe(8);
  });
});
