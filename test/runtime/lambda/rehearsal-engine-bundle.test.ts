// The rehearsal twin as the functions that rehearse carry it (PlanUpdate, ReviewUpdate): a file of its own beside the
// handler, bundled as the handler is (infra/constructs/task-bundle.ts), required by the rehearsals port module on the
// first rehearsal. The handler's bundle names the file and carries none of the twin; the engine loads in a Lambda-like
// process (the SDK through NODE_PATH only) and brings the state machines' ASL with it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleHandler, lambdaLikeEnv } from '../../../bench/lambda.bench';
import { bundleRehearsalEngine } from '../../../infra/constructs/task-bundle';
import { writeHandlerEntry } from '../../../infra/handler-entries';
import { REHEARSAL_ENGINE_FILE } from '../../../lambdas/runtime/rehearsal/rehearsal-engine-file';
import { findTask } from '../../../lambdas/tasks/catalogue';

const ROOT = join(__dirname, '..', '..', '..');

describe('the rehearsal engine beside a rehearsing handler', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-rehearsal-engine-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the simulator and the ASL, which the PlanUpdate handler leaves to it', async () => {
    const handler = await bundleHandler(writeHandlerEntry(findTask('PlanUpdate')!, ROOT), dir);
    const engine = await bundleRehearsalEngine(dir);

    expect(engine.file).toBe(join(dir, REHEARSAL_ENGINE_FILE));
    const inputs = (metafile: typeof engine.metafile) => Object.keys(metafile.inputs);
    expect(inputs(engine.metafile).some((f) => f.includes('lambdas/sim/'))).toBe(true);
    expect(inputs(engine.metafile)).toEqual(expect.arrayContaining(['statemachines/cluster-update.asl.json']));
    expect(inputs(handler.metafile).filter((f) => f.includes('lambdas/sim/') || f.includes('rehearse-update'))).toEqual(
      [],
    );
    expect(readFileSync(handler.file, 'utf8')).toContain(REHEARSAL_ENGINE_FILE);

    const script = `const e = require(${JSON.stringify(engine.file)}); process.stdout.write(typeof e.rehearsals.rehearse);`;
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: lambdaLikeEnv('clm-test') })).toBe(
      'function',
    );
  }, 120_000);
});
