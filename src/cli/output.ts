/**
 * Everything the command prints goes through here: results on stdout (lines, tables on a
 * terminal, JSON), notes, the verbose trace, progress and errors on stderr. Every piece of
 * text is cleared of the secrets in use, in any encoding, before it is written: the
 * client already keeps them out of its errors; this is the second wall.
 */
import { redactSecrets } from '../service/redact';

/** A stream the command writes to (process.stdout and stderr are ones). */
export interface OutStream {
  write(chunk: string | Uint8Array): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

/** Where the command reads and writes: the process's, or a test's. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  /** The directory relative paths are read from; the process's by default. */
  readonly cwd?: string;
}

export interface OutputOptions {
  readonly json: boolean;
  readonly verbose: boolean;
}

/** Styles used on a terminal that supports colour. */
const STYLES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39] } as const;
export type Style = keyof typeof STYLES;

export interface Progress {
  /** Sets how much is done (out of the total given). */
  update(done: number): void;
  /** Clears the bar. */
  end(): void;
}

/** Shortest secret searched for in the output. */
const MIN_SECRET_LENGTH = 8;

const NO_PROGRESS: Progress = { update: () => undefined, end: () => undefined };

export class Output {
  readonly #io: CliIo;
  readonly #secrets: string[] = [];
  readonly json: boolean;
  readonly verbose: boolean;

  constructor(io: CliIo, options: OutputOptions) {
    this.#io = io;
    this.json = options.json;
    this.verbose = options.verbose;
  }

  /**
   * A secret to keep out of everything written from now on. One shorter than
   * MIN_SECRET_LENGTH is not searched for: it would blank out ordinary words of the
   * output, and no real token is that short.
   */
  addSecret(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH && !this.#secrets.includes(secret)) this.#secrets.push(secret);
  }

  #clean(text: string): string {
    return this.#secrets.length === 0 ? text : redactSecrets(text, this.#secrets);
  }

  /** Whether stdout shows colour: a terminal, NO_COLOR unset, TERM not dumb. */
  get colour(): boolean {
    const env = this.#io.env;
    return this.#io.stdout.isTTY === true && (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb';
  }

  /** Whether stdout is a terminal (a person reads it). */
  get terminal(): boolean {
    return this.#io.stdout.isTTY === true;
  }

  style(style: Style, text: string): string {
    if (!this.colour) return text;
    const [on, off] = STYLES[style];
    return `\u001b[${on}m${text}\u001b[${off}m`;
  }

  /** One line of results on stdout. */
  line(text: string): void {
    this.#io.stdout.write(`${this.#clean(text)}\n`);
  }

  /** One JSON value on one line of stdout (a line of NDJSON). */
  record(value: unknown): void {
    this.line(JSON.stringify(value));
  }

  /** A JSON document on stdout, indented for people to review. */
  document(value: unknown): void {
    this.#io.stdout.write(`${this.#clean(JSON.stringify(value, null, 2))}\n`);
  }

  /** Raw bytes on stdout (a downloaded file). */
  bytes(data: Uint8Array): void {
    this.#io.stdout.write(data);
  }

  /**
   * Rows of cells: aligned columns on a terminal, tab-separated on a pipe (for cut and
   * awk). The header is shown on a terminal only.
   */
  table(rows: readonly (readonly string[])[], header?: readonly string[]): void {
    if (!this.terminal) {
      for (const row of rows) this.line(row.map((cell) => cell.replace(/[\t\n\r]/g, ' ')).join('\t'));
      return;
    }
    const all = header ? [header, ...rows] : rows;
    const widths: number[] = [];
    for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
    const render = (row: readonly string[]): string =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)))
        .join('  ')
        .trimEnd();
    if (header) this.line(this.style('bold', render(header)));
    for (const row of rows) this.line(render(row));
  }

  /** A note for the person at the terminal, on stderr; not shown with --json. */
  note(text: string): void {
    if (!this.json) this.#io.stderr.write(`${this.#clean(text)}\n`);
  }

  /** A line of the --verbose trace, on stderr. */
  trace(text: string): void {
    if (this.verbose) this.#io.stderr.write(`${this.#clean(`isolink: ${text}`)}\n`);
  }

  /** An error line on stderr. */
  error(text: string): void {
    this.#io.stderr.write(`${this.#clean(`isolink: ${text}`)}\n`);
  }

  /**
   * A running count on stderr (`Reading mails 120`), for work whose total is not known
   * ahead: only when stderr is a terminal, nothing on a pipe or a file.
   */
  counter(label: string): Progress {
    const stderr = this.#io.stderr;
    if (stderr.isTTY !== true) return NO_PROGRESS;
    return { update: (done) => stderr.write(`\r\u001b[K${this.#clean(label)} ${done}`), end: () => stderr.write('\r\u001b[K') };
  }

  /**
   * A progress bar on stderr, only when stderr is a terminal: nothing at all on a pipe or
   * a file (no carriage returns, no escape codes).
   */
  progress(label: string, total: number): Progress {
    const stderr = this.#io.stderr;
    if (stderr.isTTY !== true || total <= 0) return NO_PROGRESS;
    const width = Math.max(10, Math.min(40, (stderr.columns ?? 80) - label.length - 20));
    const draw = (done: number): void => {
      const filled = Math.round((width * Math.min(done, total)) / total);
      stderr.write(`\r\u001b[K${this.#clean(label)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
    };
    draw(0);
    return { update: draw, end: () => stderr.write('\r\u001b[K') };
  }
}
