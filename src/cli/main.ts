#!/usr/bin/env node
/**
 * The `isolink` executable: runs the command with the process's arguments, streams and
 * environment, and exits with its status.
 */
import { run } from './run';

// A reader that stops early (`isolink extract | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await run(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
