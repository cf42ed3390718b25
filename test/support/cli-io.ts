import type { CliIo } from '../../lambdas/cli/io';

/** A CliIo that keeps what a command prints, for assertions. */
export function captureIo(cwd: string): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd,
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}
