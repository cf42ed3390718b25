/** Where the CLI writes and where it runs, so tests capture output and pick the working directory. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Relative paths in flags are resolved against this. */
  readonly cwd: string;
}

export function processIo(): CliIo {
  // `clm render --output json | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  return {
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    cwd: process.cwd(),
  };
}

/** Exit codes of every `clm` command. */
/**
 * Exit codes of every command: 0 done (or nothing to do), 1 a cluster failed, 2 usage error, 3 a cluster was skipped
 * or held at a safe point — its lease is held by another run, it is paused or aborted, or `cluster_update_block`
 * blocks it — and none failed; 130 stopped by Ctrl-C or SIGTERM at a safe point (the same command continues).
 */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, SKIPPED: 3, INTERRUPTED: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Thrown by a command to end with a code after it has written its output. */
export class CliExit extends Error {
  override name = 'CliExit';
  constructor(
    readonly code: ExitCode,
    message = `exit ${code}`,
  ) {
    super(message);
  }
}

/** A bad flag or argument: the message is printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
