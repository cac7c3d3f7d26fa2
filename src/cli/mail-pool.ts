/**
 * Reading many mails on the machine's cores: a pool of worker threads (./mail-worker), each
 * handed one mail at a time. At most `2 × threads` mails are in flight, so memory stays flat
 * however many mails there are, and the readings come back in the order the mails were given,
 * the first as soon as it is read.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { nodeDecoder } from '../decoders';
import { nodePdfReader } from '../decoders/pdf';
import { linksInMail, type MailReading } from '../readers';
import type { FoundMail } from './mailbox';

/** One mail handed to a worker. */
export interface MailJob {
  readonly id: number;
  readonly bytes: ArrayBuffer;
  readonly unwrap: 'unwrap' | 'keep';
}

/** A worker's answer: the reading, or why the reader itself broke. */
export type MailAnswer = { readonly id: number; readonly reading: MailReading } | { readonly id: number; readonly crash: string };

/** A mail found and what came of it. */
export interface MailOutcome {
  readonly name: string;
  readonly size: number;
  /** The reading, or why the mail could not be read at all. */
  readonly reading: MailReading | { readonly ok: false; readonly reason: string };
}

/** The threads to use when none is asked for: one per core. */
export function defaultThreads(): number {
  return availableParallelism();
}

/** The worker's file beside this module (dist/); absent when run from the sources, where mails are read in this thread. */
const WORKER = fileURLToPath(new URL('./mail-worker.js', import.meta.url));

function own(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes.buffer
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

/** A reading in this thread, for a run from the sources (tests of the sources, tsx). */
async function readHere(mail: FoundMail & { bytes: Uint8Array }, unwrap: 'unwrap' | 'keep'): Promise<MailReading> {
  return linksInMail(mail.bytes, { unwrap, decoder: nodeDecoder, pdf: nodePdfReader });
}

/**
 * Every mail's outcome, in the order the mails come, read on `threads` worker threads.
 * The mails are pulled only as threads free up.
 */
export async function* readAll(mails: AsyncIterable<FoundMail>, threads: number, unwrap: 'unwrap' | 'keep'): AsyncGenerator<MailOutcome> {
  const useWorkers = existsSync(WORKER);
  const workers = new Set<Worker>();
  const idle: Worker[] = [];
  /** The job each busy worker holds, answered when the worker answers or dies. */
  const holding = new Map<Worker, { readonly id: number; readonly resolve: (answer: MailAnswer) => void }>();
  function spawn(): void {
    const worker = new Worker(WORKER);
    worker.unref();
    workers.add(worker);
    idle.push(worker);
    worker.on('message', (answer: MailAnswer) => {
      holding.get(worker)?.resolve(answer);
      holding.delete(worker);
      idle.push(worker);
      next();
    });
    // A thread that dies (out of memory on a hostile mail) answers its mail as failed and is replaced.
    worker.on('error', (error) => {
      const job = holding.get(worker);
      holding.delete(worker);
      workers.delete(worker);
      if (idle.includes(worker)) idle.splice(idle.indexOf(worker), 1);
      job?.resolve({ id: job.id, crash: error.message });
      spawn();
      next();
    });
  }
  if (useWorkers) for (let index = 0; index < threads; index++) spawn();
  const queue: { id: number; bytes: ArrayBuffer; resolve: (answer: MailAnswer) => void }[] = [];
  function next(): void {
    while (idle.length > 0 && queue.length > 0) {
      const job = queue.shift();
      const worker = idle.pop();
      if (job === undefined || worker === undefined) return;
      holding.set(worker, job);
      worker.postMessage({ id: job.id, bytes: job.bytes, unwrap } satisfies MailJob, [job.bytes]);
    }
  }
  function read(id: number, mail: FoundMail & { bytes: Uint8Array }): Promise<MailReading | { ok: false; reason: string }> {
    if (!useWorkers) return readHere(mail, unwrap);
    return new Promise<MailAnswer>((resolve) => {
      queue.push({ id, bytes: own(mail.bytes), resolve });
      next();
    }).then((answer) => ('reading' in answer ? answer.reading : { ok: false as const, reason: `could not be read: ${answer.crash}` }));
  }

  const window = Math.max(1, threads) * 2;
  const pending: Promise<MailOutcome>[] = [];
  let id = 0;
  try {
    for await (const mail of mails) {
      id++;
      const outcome: Promise<MailOutcome> =
        'error' in mail
          ? Promise.resolve({ name: mail.name, size: mail.size, reading: { ok: false, reason: mail.error } })
          : read(id, mail).then((reading) => ({ name: mail.name, size: mail.size, reading }));
      pending.push(outcome);
      while (pending.length >= window) yield await (pending.shift() as Promise<MailOutcome>);
    }
    while (pending.length > 0) yield await (pending.shift() as Promise<MailOutcome>);
  } finally {
    await Promise.all([...workers].map((worker) => worker.terminate()));
  }
}
