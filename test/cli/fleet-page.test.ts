import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd: process.cwd(),
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}

/** S3 on loopback with one bucket: HEAD of an object it holds answers 200, of anything else 404 (as S3 does). */
function s3WithObjects(objects: ReadonlySet<string>): Promise<Server> {
  const server = createServer((request, response) => {
    const known = request.method === 'HEAD' && objects.has(new URL(request.url!, 'http://x').pathname);
    response.writeHead(known ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end();
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

describe('clm fleet-page', () => {
  const saved = { ...process.env };
  let server: Server;
  beforeAll(async () => {
    server = await s3WithObjects(new Set(['/clm-artifacts/fleet/index.html']));
    Object.assign(process.env, {
      CLM_AWS_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE123',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    delete process.env.CLM_ARTIFACT_BUCKET;
  });
  afterAll(() => {
    process.env = saved;
    server.close();
  });

  it('prints a pre-signed URL of the page', async () => {
    const io = capture();
    const code = await main(
      ['fleet-page', '--bucket', 'clm-artifacts', '--region', 'eu-central-1', '--expires', '2h'],
      io,
    );
    expect({ code, err: io.err }).toEqual({ code: 0, err: 's3://clm-artifacts/fleet/index.html, valid for 2h\n' });
    const url = new URL(io.out.trim());
    expect(url.pathname).toBe('/clm-artifacts/fleet/index.html');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('7200');
  });

  it('names the setting when the bucket is unknown', async () => {
    const io = capture();
    const code = await main(['fleet-page'], io);
    expect(code).toBe(2);
    expect(io.err).toContain('the artefact bucket is unknown: give --bucket NAME or set CLM_ARTIFACT_BUCKET');
  });

  it('says there is no page yet and how to have one', async () => {
    const io = capture();
    const code = await main(['fleet-page', '--bucket', 'other-bucket'], io);
    expect(code).toBe(1);
    expect(io.err).toContain('no fleet page at s3://other-bucket/fleet/index.html yet');
    expect(io.err).toContain('"trigger":"schedule"');
    expect(io.out).toBe('');
  });

  it('refuses an expiry S3 would refuse', async () => {
    const io = capture();
    expect(await main(['fleet-page', '--bucket', 'clm-artifacts', '--expires', '8d'], io)).toBe(2);
    expect(io.err).toContain('--expires "8d" is not a duration');
    expect(await main(['fleet-page', '--bucket', 'clm-artifacts', '--expires', '200h'], io)).toBe(2);
    expect(io.err).toContain('longer than 7 days');
  });
});
