/**
 * A worker thread of `isolink mail`: reads the mails it is handed with the library's reader
 * (the image decoder loaded once per thread, on its first image) and answers each reading.
 * Built beside the command as `dist/mail-worker.js` (tsup.config.ts).
 */
import { parentPort } from 'node:worker_threads';

import { nodeDecoder } from '../decoders';
import { nodePdfReader } from '../decoders/pdf';
import { linksInMail } from '../readers';
import type { MailJob, MailAnswer } from './mail-pool';

const port = parentPort;
if (port !== null) {
  port.on('message', (job: MailJob) => {
    void linksInMail(new Uint8Array(job.bytes), { unwrap: job.unwrap, decoder: nodeDecoder, pdf: nodePdfReader }).then(
      (reading) => {
        port.postMessage({ id: job.id, reading } satisfies MailAnswer);
      },
      (error: unknown) => {
        port.postMessage({ id: job.id, crash: error instanceof Error ? error.message : String(error) } satisfies MailAnswer);
      },
    );
  });
}
