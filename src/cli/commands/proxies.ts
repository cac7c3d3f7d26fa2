/**
 * The organisation's proxy list as a file under review: `export` prints it, `diff` compares
 * a file with the service, `apply` makes the service match the file (the whole list is
 * replaced, in the file's order). The file is a JSON array of
 * `{ "name", "location": { "address", "port", "type" } }`, the format export prints.
 */
import { PROXY_FIELDS } from '../../service/wire';
import { isValidationError, prepareProxies, type IsolinkClient, type Proxy, type ProxyRecord } from '../../api';
import { ORG_FLAG, arg, orgOf, type CommandContext, type CommandGroup } from '../command';
import { connect } from '../config';
import { readInput, textOf } from '../input';
import { CliError, EXIT } from '../problems';

/** The org's own proxies (not those inherited from a parent org), with ports and types filled in. */
async function currentProxies(client: IsolinkClient, org: string): Promise<Proxy[]> {
  const { proxies } = await client.getProxies(org);
  const own = proxies.filter((proxy: ProxyRecord) => proxy[PROXY_FIELDS.inheritedFrom] === undefined);
  return prepareProxies(
    own.map(({ name, location }) => ({ name, location })),
    'the service',
  ).proxies;
}

/** The proxies a file asks for, checked as the client checks them. */
async function fileProxies(context: CommandContext, path: string): Promise<{ proxies: Proxy[]; warnings: string[] }> {
  const input = await readInput(context.io, context.out, path);
  let value: unknown;
  try {
    value = JSON.parse(textOf(input));
  } catch {
    throw new CliError('inputInvalid', path, 'not JSON');
  }
  try {
    const { proxies, warnings } = prepareProxies(value, 'proxies');
    return { proxies, warnings: warnings.map((warning) => warning.message) };
  } catch (error) {
    if (isValidationError(error)) throw new CliError('inputInvalid', path, error.message);
    throw error;
  }
}

const ORDER = ['name', 'address', 'port', 'type'] as const;

function show(proxy: Proxy): string {
  return `${proxy.name} ${proxy.location.type}://${proxy.location.address}:${proxy.location.port}`;
}

export interface ProxyDiff {
  readonly added: Proxy[];
  readonly removed: Proxy[];
  readonly changed: { readonly name: string; readonly from: Proxy; readonly to: Proxy }[];
  /** Same proxies, another order. */
  readonly reordered: boolean;
}

/** What applying `wanted` would change in `current`, by proxy name. */
export function diffProxies(current: readonly Proxy[], wanted: readonly Proxy[]): ProxyDiff {
  const before = new Map(current.map((proxy) => [proxy.name, proxy]));
  const after = new Map(wanted.map((proxy) => [proxy.name, proxy]));
  const added = wanted.filter((proxy) => !before.has(proxy.name));
  const removed = current.filter((proxy) => !after.has(proxy.name));
  const changed: ProxyDiff['changed'] = [];
  for (const proxy of wanted) {
    const old = before.get(proxy.name);
    if (old !== undefined && ORDER.slice(1).some((key) => old.location[key as keyof Proxy['location']] !== proxy.location[key as keyof Proxy['location']])) {
      changed.push({ name: proxy.name, from: old, to: proxy });
    }
  }
  const kept = (list: readonly Proxy[], other: Map<string, Proxy>): string[] => list.filter((proxy) => other.has(proxy.name)).map((proxy) => proxy.name);
  const reordered = kept(current, after).join('\n') !== kept(wanted, before).join('\n');
  return { added, removed, changed, reordered };
}

function isEqual(diff: ProxyDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0 && !diff.reordered;
}

function printDiff(context: CommandContext, diff: ProxyDiff, extra: Record<string, unknown> = {}): void {
  const { out } = context;
  if (out.json) {
    out.record({ equal: isEqual(diff), ...diff, ...extra });
    return;
  }
  for (const proxy of diff.added) out.line(out.style('green', `+ ${show(proxy)}`));
  for (const proxy of diff.removed) out.line(out.style('red', `- ${show(proxy)}`));
  for (const { from, to } of diff.changed) out.line(out.style('yellow', `~ ${show(from)} -> ${to.location.type}://${to.location.address}:${to.location.port}`));
  if (diff.reordered) out.line(out.style('yellow', '~ order changed'));
}

export const proxies: CommandGroup = {
  summary: "Export, diff or apply the organisation's proxy list",
  commands: {
    export: {
      summary: "Print the organisation's own proxy list as JSON",
      usage: '',
      help: ['A JSON array of {"name", "location": {"address", "port", "type"}}: the format diff and apply read.'],
      flags: ORG_FLAG,
      args: { min: 0, max: 0 },
      async run(context) {
        const org = orgOf(context);
        const { client } = await connect(context.settings, context.out, context.fetch);
        context.out.document(await currentProxies(client, org));
        return EXIT.ok;
      },
    },
    diff: {
      summary: 'Compare a proxy file with the service',
      usage: '<file>',
      help: ['Prints "+ added", "- removed", "~ changed" lines; --json prints one object. Exit status 0 when equal, 1 when they differ.'],
      flags: ORG_FLAG,
      args: { min: 1, max: 1, missing: '<file>' },
      async run(context) {
        const org = orgOf(context);
        const wanted = await fileProxies(context, arg(context, 0));
        const { client } = await connect(context.settings, context.out, context.fetch);
        const diff = diffProxies(await currentProxies(client, org), wanted.proxies);
        printDiff(context, diff);
        return isEqual(diff) ? EXIT.ok : EXIT.failed;
      },
    },
    apply: {
      summary: 'Make the service match a proxy file',
      usage: '<file>',
      help: [
        "Replaces the organisation's own list with the file's (its order kept) when they differ, and",
        'prints what changed. --dry-run prints it and sends no change. --json prints one object.',
      ],
      flags: { ...ORG_FLAG, 'dry-run': { type: 'boolean' } },
      args: { min: 1, max: 1, missing: '<file>' },
      async run(context) {
        const org = orgOf(context);
        const dryRun = context.flags['dry-run'] === true;
        const wanted = await fileProxies(context, arg(context, 0));
        const { client } = await connect(context.settings, context.out, context.fetch);
        const diff = diffProxies(await currentProxies(client, org), wanted.proxies);
        for (const warning of wanted.warnings) context.out.note(`isolink: warning: ${warning}`);
        if (isEqual(diff) || dryRun) {
          printDiff(context, diff, { applied: false, dryRun });
          context.out.note(isEqual(diff) ? 'isolink: the service already matches the file; nothing sent.' : 'isolink: dry run; nothing sent.');
          return EXIT.ok;
        }
        await client.setProxies(org, wanted.proxies);
        printDiff(context, diff, { applied: true, dryRun });
        context.out.note(`isolink: applied; ${org} now has ${wanted.proxies.length} proxies of its own.`);
        return EXIT.ok;
      },
    },
  },
};
