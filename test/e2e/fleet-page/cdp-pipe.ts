// A minimal DevTools-protocol client over Chromium's --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated
// JSON): enough to emulate a phone's viewport (which --window-size cannot: headless windows are at least 500 px
// wide), load a page, evaluate a script and take a screenshot. No dependency, loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

interface Message {
  readonly id?: number;
  readonly method?: string;
  readonly sessionId?: string;
  readonly result?: Record<string, unknown>;
  readonly error?: { message: string };
}

export class CdpBrowser {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  private readonly listeners: ((m: Message) => void)[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly input: Writable,
  ) {
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => this.receive(chunk.toString('utf8')));
    child.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error('chromium exited'));
      this.pending.clear();
    });
  }

  static launch(executable: string, profileDir: string): CdpBrowser {
    const child = spawn(
      executable,
      ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--remote-debugging-pipe'].concat([
        `--user-data-dir=${profileDir}`,
        'about:blank',
      ]),
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
    );
    return new CdpBrowser(child, child.stdio[3] as Writable);
  }

  private receive(text: string): void {
    this.buffer += text;
    let end;
    while ((end = this.buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(this.buffer.slice(0, end)) as Message;
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message);
      } else for (const listener of this.listeners) listener(message);
    }
  }

  /** One protocol call; `sessionId` addresses a page attached with `flatten`. */
  async send(method: string, params: Record<string, unknown> = {}, sessionId?: string) {
    const id = this.nextId++;
    const reply = new Promise<Message>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return (await reply).result ?? {};
  }

  /** The next event of `method` (on `sessionId`). */
  event(method: string, sessionId: string): Promise<Message> {
    return new Promise((resolve) => {
      const listener = (m: Message) => {
        if (m.method !== method || m.sessionId !== sessionId) return;
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        resolve(m);
      };
      this.listeners.push(listener);
    });
  }

  /** A new page with a `width` × `height` viewport (mobile when narrow), at `url`, loaded. */
  async open(url: string, width: number, height: number): Promise<string> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    await this.send('Page.enable', {}, sessionId);
    const metrics = { width, height, deviceScaleFactor: 1, mobile: width < 600 };
    await this.send('Emulation.setDeviceMetricsOverride', metrics, sessionId);
    const loaded = this.event('Page.loadEventFired', sessionId);
    await this.send('Page.navigate', { url }, sessionId);
    await loaded;
    return sessionId;
  }

  async evaluate<T>(sessionId: string, expression: string): Promise<T> {
    const { result } = (await this.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as {
      result: { value: T };
    };
    return result.value;
  }

  async screenshot(sessionId: string): Promise<Buffer> {
    const { data } = (await this.send('Page.captureScreenshot', { format: 'png' }, sessionId)) as { data: string };
    return Buffer.from(data, 'base64');
  }

  async close(): Promise<void> {
    const exited = new Promise((done) => this.child.once('exit', done));
    await this.send('Browser.close').catch(() => undefined);
    await exited;
  }
}
