/**
 * `isolink open` and `isolink bulk`: links to contexts, through the same resolver as the
 * extension (refang, unwrap, check: a javascript: URL is refused before any request) and
 * the same batching (real targets with their own domain_allow, wrappers to follow apart).
 */
import { BULK_BATCH_SIZE, isApiError, type BulkCreateParams, type CreateContextParams } from '../../api';
import { WRAPPER_NAMES, type WrapperId } from '../../fang';
import { isEgressLocation } from '../../egress';
import { allowsOwnDomain, bulkGroups, linkInText, resolveLink, type Target, type UnwrapMode } from '../../target';
import { countFlag, stringFlag, type Command, type CommandContext } from '../command';
import { ENV, connect, required, setting } from '../config';
import { FEED_FORMATS, urlsInFeed, type FeedFormat } from '../feeds';
import { readInputs, textOf } from '../input';
import { CliError, EXIT, describe } from '../problems';

/** Flags every creating command takes. */
const CREATE_FLAGS = {
  username: { type: 'string' },
  'max-uses': { type: 'string' },
  'expires-in': { type: 'string' },
  'keep-wrapper': { type: 'boolean' },
} as const;

const CREATE_HELP = [
  '--username U   the user the context is for (default: ISOLINK_USERNAME)',
  '--max-uses N   launches allowed; --expires-in S  seconds until it expires',
  '--keep-wrapper isolate a rewritten link as it is instead of its real target',
];

/** What every context created here shares: identity, the configured defaults, the flags. */
type SharedParams = Pick<CreateContextParams, 'policy' | 'max_uses' | 'expires'> & { readonly username: string };

function shared(context: CommandContext): { params: SharedParams; autoDomainAllow: boolean; mode: UnwrapMode } {
  const { settings } = context;
  const defaults = settings.file.defaults ?? {};
  const username = required(
    setting(settings, stringFlag(context, 'username'), ENV.username, settings.file.username),
    'username',
    `--username or ${ENV.username}`,
  );
  const maxUses = countFlag(context, 'max-uses') ?? defaults.maxUses;
  const expiresIn = countFlag(context, 'expires-in') ?? defaults.expiresIn;
  const params: SharedParams = {
    username,
    ...(defaults.policy === undefined || defaults.policy.length === 0 ? {} : { policy: defaults.policy }),
    ...(maxUses === undefined ? {} : { max_uses: maxUses }),
    ...(expiresIn === undefined ? {} : { expires: { in_seconds: expiresIn } }),
  };
  const mode: UnwrapMode = context.flags['keep-wrapper'] === true ? 'keep' : (defaults.unwrap ?? 'unwrap');
  return { params, autoDomainAllow: defaults.autoDomainAllow ?? true, mode };
}

function refused(given: string, reason: string): CliError {
  return new CliError('urlRefused', given.length > 200 ? `${given.slice(0, 200)}…` : given, reason);
}

/** What a result says about a target beyond its URL: where it was unwrapped from. */
function targetFields(target: Target): Record<string, unknown> {
  const names = (ids: readonly WrapperId[]): string[] => ids.map((id) => WRAPPER_NAMES[id]);
  return {
    ...(target.layers.length === 0 ? {} : { given: target.given, unwrapped: names(target.layers) }),
    ...(target.wrapper === undefined ? {} : { wrapper: WRAPPER_NAMES[target.wrapper], ...(target.opaque ? { opaque: true } : {}) }),
  };
}

const open: Command = {
  summary: 'Create a context for a link and print its launch URL',
  usage: '<url>',
  help: [
    'The link may be defanged or rewritten (Safe Links, Proofpoint, …): the real target is isolated,',
    'with a domain_allow policy for its domain. The launch URL is the last line of stdout;',
    'notes go to stderr. --json prints {"url", "id", "launch", "expires", "max_uses", …}.',
    '--research --egress LOCATION  a research session leaving from LOCATION (see isolink egress);',
    '                              the URL is optional then.',
    ...CREATE_HELP,
    'Example: launch=$(isolink open "hxxps://evil[.]example/login")',
  ],
  flags: { ...CREATE_FLAGS, research: { type: 'boolean' }, egress: { type: 'string' } },
  args: { min: 0, max: 1, missing: '<url>' },
  async run(context) {
    const research = context.flags['research'] === true;
    const egress = stringFlag(context, 'egress');
    const given = context.args[0];
    if (given === undefined && !research) throw new CliError('missingArgument', '<url>', 'open');
    if (research && egress === undefined) throw new CliError('missingArgument', '--egress <location>', 'open');
    if (!research && egress !== undefined) throw new CliError('badFlag', '--egress goes with --research', 'open');
    if (egress !== undefined && !isEgressLocation(egress)) throw new CliError('unknownEgress', egress);
    const { params, autoDomainAllow, mode } = shared(context);
    let target: Target | undefined;
    if (given !== undefined) {
      const resolved = resolveLink(linkInText(given), mode);
      if (!resolved.ok) throw refused(resolved.given, resolved.reason);
      target = resolved.target;
    }
    const { client } = await connect(context.settings, context.out, context.fetch);
    const url = target?.url.href;
    const auto = target !== undefined && allowsOwnDomain(target) && autoDomainAllow;
    const created =
      egress !== undefined
        ? await client.createResearchContext({ ...params, egress_region: egress, ...(url === undefined ? {} : { url }), auto_domain_allow: auto })
        : await client.createContext({ ...params, url: url ?? '', auto_domain_allow: auto });
    // Checked against the launch base by the client, which was made with it.
    const launch = client.launchUrl(created.browse_context_id);
    if (target !== undefined && target.layers.length > 0)
      context.out.note(`Unwrapped from ${target.layers.map((id) => WRAPPER_NAMES[id]).join(' in ')}: ${target.url.href}`);
    if (target?.opaque)
      context.out.note(
        `This ${WRAPPER_NAMES[target.wrapper ?? 'mimecast']} link cannot be decoded offline: the isolated browser follows it, without a domain_allow entry.`,
      );
    if (context.out.json) {
      context.out.record({
        url: url ?? null,
        id: created.browse_context_id,
        launch,
        expires: created.expires,
        max_uses: created.max_uses,
        ...(research ? { session_type: 'toolbox-standalone', egress } : {}),
        ...(target === undefined ? {} : targetFields(target)),
      });
    } else context.out.line(launch);
    return EXIT.ok;
  },
};

/** One line of bulk's result. */
type BulkLine = { readonly url: string } & (
  { readonly target: Target; launch?: string; id?: string; error?: string; code?: string } | { readonly error: string; readonly code: string }
);

const bulk: Command = {
  summary: 'Create a context for every URL in a report, a list, a CSV file or a STIX bundle',
  usage: '[file]',
  help: [
    'Reads the file or stdin. --format auto|text|csv|stix (auto: a JSON bundle is STIX, a .csv',
    'file or lines with the same number of commas are CSV, anything else is text). In STIX, only',
    "indicator patterns [url:value = '…'] and url observables count. Links are refanged and",
    'unwrapped as by open; repeats are created once. Up to 50 contexts per request.',
    'Prints "url<TAB>launch" (or "url<TAB>error: …") per URL; --json prints NDJSON objects with',
    '"url" and either "launch" (and "id") or "error" (and "code"). A progress bar shows on a',
    'terminal only. Exit status 1 when any URL failed; the others are created all the same.',
    ...CREATE_HELP,
  ],
  flags: { ...CREATE_FLAGS, format: { type: 'string' } },
  args: { min: 0, max: 1 },
  async run(context) {
    const format = stringFlag(context, 'format') ?? 'auto';
    if (!(FEED_FORMATS as readonly string[]).includes(format)) throw new CliError('badFlag', `--format takes ${FEED_FORMATS.join(', ')}`, 'bulk');
    const { params, autoDomainAllow, mode } = shared(context);
    const [input] = await readInputs(context.io, context.out, context.args);
    if (input === undefined) return EXIT.ok;
    const links = urlsInFeed(textOf(input), input.source, format as FeedFormat);
    if (links.length === 0) throw new CliError('noUrls', input.source);
    // Resolve every link; a refusal is that link's result, and repeats of one target are one.
    const lines: BulkLine[] = [];
    const byKey = new Map<string, BulkLine & { target: Target }>();
    const targets: Target[] = [];
    for (const link of links) {
      const resolved = resolveLink(link, mode);
      if (!resolved.ok) {
        lines.push({ url: link, error: `refused: ${resolved.reason}`, code: resolved.code });
        continue;
      }
      const key = `${resolved.target.url.href} ${resolved.target.wrapper ?? ''}`;
      if (byKey.has(key)) continue;
      const line = { url: link, target: resolved.target };
      byKey.set(key, line);
      lines.push(line);
      targets.push(resolved.target);
    }
    const { client } = await connect(context.settings, context.out, context.fetch);
    const progress = context.out.progress('Creating contexts', targets.length);
    let done = 0;
    const lineOf = new Map<Target, BulkLine & { target: Target }>([...byKey.values()].map((line) => [line.target, line]));
    for (const { targets: group, ownDomain } of bulkGroups(targets)) {
      for (let start = 0; start < group.length; start += BULK_BATCH_SIZE) {
        const batch = group.slice(start, start + BULK_BATCH_SIZE);
        const request: BulkCreateParams = { ...params, auto_domain_allow: ownDomain && autoDomainAllow, urls: batch.map((target) => target.url.href) };
        try {
          const result = await client.bulkCreateContexts(request);
          for (const item of result.created) {
            const line = lineOf.get(batch[item.index] as Target);
            if (!line) continue;
            // The client checked each launch URL against the launch base (a failure otherwise).
            Object.assign(line, { launch: item.launch_url, id: item.browse_context_id });
          }
          for (const failure of result.failures) {
            const line = lineOf.get(batch[failure.index] as Target);
            if (line) Object.assign(line, { error: failure.error, code: failure.code });
          }
        } catch (error) {
          if (!isApiError(error)) throw error;
          // The whole request failed: every URL in it failed, the next batches still run.
          for (const target of batch) {
            const line = lineOf.get(target);
            if (line) Object.assign(line, { error: describe(error), code: error.code });
          }
        }
        done += batch.length;
        progress.update(done);
      }
    }
    progress.end();
    let failed = 0;
    const rows: string[][] = [];
    for (const line of lines) {
      const launch = 'launch' in line ? line.launch : undefined;
      if (launch === undefined) failed++;
      if (context.out.json) {
        const base = { url: line.url, ...('target' in line && line.target.url.href !== line.url ? { target: line.target.url.href } : {}) };
        context.out.record(
          launch !== undefined
            ? { ...base, id: 'id' in line ? line.id : undefined, launch }
            : { ...base, error: line.error ?? 'not created', code: line.code ?? 'unknown' },
        );
      } else rows.push([line.url, launch ?? `error: ${line.error ?? 'not created'}`]);
    }
    if (!context.out.json) context.out.table(rows, ['URL', 'LAUNCH']);
    context.out.note(`isolink: ${lines.length - failed} of ${lines.length} created${failed > 0 ? `; ${failed} failed` : ''}.`);
    return failed > 0 ? EXIT.failed : EXIT.ok;
  },
};

export const isolateCommands: Readonly<Record<string, Command>> = { open, bulk };
