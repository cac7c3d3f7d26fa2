/**
 * The service's other resources: contexts by id, users, the organisation, egress
 * locations, and files.
 */
import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';

import type { ContextDetails, UpdateContextChanges } from '../../api';
import { EGRESS_REGIONS } from '../../egress';
import { ORG_FLAG, arg, countFlag, orgOf, stringFlag, type Command, type CommandContext, type CommandGroup } from '../command';
import { ENV, connect, fileToken, required, setting } from '../config';
import { readInput } from '../input';
import { CliError, EXIT, errnoOf } from '../problems';

function printValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && value > 1_000_000_000 && value < 10_000_000_000) return `${value} (${new Date(value * 1000).toISOString()})`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A record: one object with --json; aligned "key  value" lines otherwise. */
function printRecord(context: CommandContext, record: Readonly<Record<string, unknown>>): void {
  if (context.out.json) {
    context.out.record(record);
    return;
  }
  context.out.table(Object.entries(record).map(([key, value]) => [key, printValue(value)]));
}

function printContext(context: CommandContext, details: ContextDetails): void {
  printRecord(context, details);
}

export const contexts: CommandGroup = {
  summary: 'Get, update or delete a context by id',
  commands: {
    get: {
      summary: 'Show a context',
      usage: '<id>',
      help: ['Prints the context\'s fields ("key<TAB>value"); --json prints the object.'],
      args: { min: 1, max: 1, missing: '<id>' },
      async run(context) {
        const { client } = await connect(context.settings, context.out, context.fetch);
        printContext(context, await client.getContext(arg(context, 0)));
        return EXIT.ok;
      },
    },
    update: {
      summary: 'Change a context: uses, expiry, name, enabled',
      usage: '<id>',
      help: ['--max-uses N, --expires-in SECONDS, --name NAME, --enable or --disable. Prints the context as changed.'],
      flags: {
        'max-uses': { type: 'string' },
        'expires-in': { type: 'string' },
        name: { type: 'string' },
        enable: { type: 'boolean' },
        disable: { type: 'boolean' },
      },
      args: { min: 1, max: 1, missing: '<id>' },
      async run(context) {
        if (context.flags['enable'] === true && context.flags['disable'] === true)
          throw new CliError('badFlag', '--enable and --disable exclude each other', context.name);
        const maxUses = countFlag(context, 'max-uses');
        const expiresIn = countFlag(context, 'expires-in');
        const name = stringFlag(context, 'name');
        const enabled = context.flags['enable'] === true ? true : context.flags['disable'] === true ? false : undefined;
        const changes: UpdateContextChanges = {
          ...(maxUses === undefined ? {} : { max_uses: maxUses }),
          ...(expiresIn === undefined ? {} : { expires: { in_seconds: expiresIn } }),
          ...(name === undefined ? {} : { name }),
          ...(enabled === undefined ? {} : { enabled }),
        };
        if (Object.keys(changes).length === 0)
          throw new CliError('missingArgument', 'a change (--max-uses, --expires-in, --name, --enable or --disable)', context.name);
        const { client } = await connect(context.settings, context.out, context.fetch);
        printContext(context, await client.updateContext(arg(context, 0), changes));
        return EXIT.ok;
      },
    },
    delete: {
      summary: 'Delete a context',
      usage: '<id>',
      help: ['Prints "deleted <id>"; --json prints {"id", "deleted"}. Exit status 1 when the service did not delete it.'],
      args: { min: 1, max: 1, missing: '<id>' },
      async run(context) {
        const id = arg(context, 0);
        const { client } = await connect(context.settings, context.out, context.fetch);
        const deleted = await client.deleteContext(id);
        if (context.out.json) context.out.record({ id, deleted });
        else if (deleted) context.out.line(`deleted ${id}`);
        else context.out.error(`The service did not delete ${id}. Check the id with 'isolink contexts get ${id}'.`);
        return deleted ? EXIT.ok : EXIT.failed;
      },
    },
  },
};

const users: Command = {
  summary: "List the organisation's users",
  usage: '',
  help: ['Prints "username<TAB>email<TAB>name<TAB>status" per user; --json prints one object per user (NDJSON).'],
  flags: ORG_FLAG,
  args: { min: 0, max: 0 },
  async run(context) {
    const org = orgOf(context);
    const { client } = await connect(context.settings, context.out, context.fetch);
    const list = await client.listUsers(org);
    if (context.out.json) {
      for (const user of list) context.out.record(user);
      return EXIT.ok;
    }
    const rows = list.map((user) => [
      user.username,
      user.email ?? '',
      [user.given_name, user.surname].filter((part) => part !== null && part !== undefined && part !== '').join(' '),
      user.is_suspended === true ? 'suspended' : 'active',
    ]);
    context.out.table(rows, ['USERNAME', 'EMAIL', 'NAME', 'STATUS']);
    return EXIT.ok;
  },
};

const org: Command = {
  summary: "Show the organisation's record",
  usage: '',
  help: ['Prints its fields ("key<TAB>value"); --json prints the object.'],
  flags: ORG_FLAG,
  args: { min: 0, max: 0 },
  async run(context) {
    const name = orgOf(context);
    const { client } = await connect(context.settings, context.out, context.fetch);
    printRecord(context, await client.getOrg(name));
    return EXIT.ok;
  },
};

const egress: Command = {
  summary: 'List the egress locations, by region',
  usage: '',
  help: ['Names for open --research --egress. --json prints {"region": ["location", …]}. Needs no service.'],
  args: { min: 0, max: 0 },
  offline: true,
  run(context) {
    if (context.out.json) context.out.record(EGRESS_REGIONS);
    else
      context.out.table(
        Object.entries(EGRESS_REGIONS).flatMap(([region, names]) => names.map((name) => [region, name])),
        ['REGION', 'LOCATION'],
      );
    return Promise.resolve(EXIT.ok);
  },
};

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const files: CommandGroup = {
  summary: 'Upload a file to a bucket, or download one',
  commands: {
    put: {
      summary: 'Upload a file into the bucket; prints its file id',
      usage: '<path>',
      help: [
        "--name N (default: the file's name), --dest-path P (where in the bucket), --bucket B",
        `(default: ${ENV.bucket}). The file token comes from ${ENV.fileToken} or ${ENV.fileTokenFile}.`,
        '--json prints {"id", "name", "bucket"}.',
      ],
      flags: { name: { type: 'string' }, 'dest-path': { type: 'string' }, bucket: { type: 'string' } },
      args: { min: 1, max: 1, missing: '<path>' },
      async run(context) {
        const path = arg(context, 0);
        const bucket = required(
          setting(context.settings, stringFlag(context, 'bucket'), ENV.bucket, context.settings.file.bucket),
          'bucket id',
          `--bucket or ${ENV.bucket}`,
        );
        const input = await readInput(context.io, context.out, path);
        const name = stringFlag(context, 'name') ?? basename(path);
        const destPath = stringFlag(context, 'dest-path');
        const token = await fileToken(context.settings, context.out);
        const { client } = await connect(context.settings, context.out, context.fetch);
        const progress = context.out.progress(`Uploading ${name} (${sizeOf(input.bytes.length)})`, 1);
        let result: { file_id: string };
        try {
          result = await client.putFile({
            file: input.bytes,
            name,
            bucket_id: bucket,
            file_token: token,
            ...(destPath === undefined ? {} : { path: destPath }),
          });
        } finally {
          progress.end();
        }
        if (context.out.json) context.out.record({ id: result.file_id, name, bucket });
        else context.out.line(result.file_id);
        return EXIT.ok;
      },
    },
    get: {
      summary: 'Download a file by id',
      usage: '<id>',
      help: [
        '-o PATH writes it there; without -o the bytes go to stdout (refused on a terminal).',
        `The file token comes from ${ENV.fileToken} or ${ENV.fileTokenFile}. --json (with -o) prints {"id", "path", "bytes"}.`,
      ],
      flags: { output: { type: 'string', short: 'o' } },
      args: { min: 1, max: 1, missing: '<id>' },
      async run(context) {
        const id = arg(context, 0);
        const target = stringFlag(context, 'output');
        if (target === undefined && context.out.terminal) throw new CliError('notTerminal');
        const token = await fileToken(context.settings, context.out);
        const { client } = await connect(context.settings, context.out, context.fetch);
        const progress = context.out.progress(`Downloading ${id}`, 1);
        let bytes: Uint8Array;
        try {
          bytes = await client.getFile({ id, file_token: token });
        } finally {
          progress.end();
        }
        if (target === undefined) {
          context.out.bytes(bytes);
          return EXIT.ok;
        }
        const path = resolve(context.io.cwd ?? process.cwd(), target);
        try {
          // What comes back may be a suspicious site's download: readable by its owner only.
          await writeFile(path, bytes, { mode: 0o600 });
        } catch (error) {
          throw new CliError('outputUnwritable', target, errnoOf(error));
        }
        if (context.out.json) context.out.record({ id, path: target, bytes: bytes.length });
        else context.out.note(`isolink: wrote ${sizeOf(bytes.length)} to ${target}`);
        return EXIT.ok;
      },
    },
  },
};

export const serviceCommands: Readonly<Record<string, Command>> = { users, org, egress };
