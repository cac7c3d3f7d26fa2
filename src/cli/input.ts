/**
 * Reading what the commands work on: the files named, or stdin when none is (or `-`).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

import { CliError, errnoOf } from './problems';
import type { CliIo, Output } from './output';

/** Largest input read: a feed or a report, not a disk image. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** One input: where it came from (a path, or "stdin") and its bytes. */
export interface Input {
  readonly source: string;
  readonly bytes: Uint8Array;
}

async function readStdin(io: CliIo, out: Output): Promise<Uint8Array> {
  if (io.stdin.isTTY === true) out.note('isolink: reading from the terminal; end with Ctrl-D.');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) throw new CliError('inputInvalid', 'stdin', `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
    chunks.push(bytes);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** The bytes of one file (or stdin for `-`). */
export async function readInput(io: CliIo, out: Output, path: string): Promise<Input> {
  if (path === '-') return { source: 'stdin', bytes: await readStdin(io, out) };
  try {
    const bytes = await readFile(resolve(io.cwd ?? process.cwd(), path));
    if (bytes.length > MAX_INPUT_BYTES) throw new CliError('inputInvalid', path, `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
    return { source: path, bytes };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('inputUnreadable', path, errnoOf(error));
  }
}

/** Every input named, in order; stdin when none is. */
export async function readInputs(io: CliIo, out: Output, paths: readonly string[]): Promise<Input[]> {
  const inputs: Input[] = [];
  for (const path of paths.length === 0 ? ['-'] : paths) inputs.push(await readInput(io, out, path));
  return inputs;
}

/** UTF-8 text of an input; a byte-order mark is dropped, malformed bytes become U+FFFD. */
export function textOf(input: Input): string {
  return new TextDecoder('utf-8').decode(input.bytes);
}

/** The lines of text, without their line ends; a final line end adds no empty line. */
export function linesOf(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
