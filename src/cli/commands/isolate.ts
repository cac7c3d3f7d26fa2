/**
 * `isolink open` and `isolink bulk`: links to contexts, through the same resolver as the
 * extension (refang, unwrap, check: a javascript: URL is refused before any request) and
 * the same batching (real targets with their own domain_allow, wrappers to follow apart).
 */
import { BULK_BATCH_SIZE, isApiError, type CreateContextParams, type IsolinkClient } from '../../api';
import { WRAPPER_NAMES, type WrapperId } from '../../fang';
import { isEgressLocation } from '../../egress';
import { allowsOwnDomain, bulkGroups, resolveLinks, resolveText, type Target, type UnwrapMode } from '../../resolve';
import { countFlag, stringFlag, type Command, type CommandContext } from '../command';
import { ENV, connect, required, setting } from '../config';
import { FEED_FORMATS, isFeedFormat, urlsInFeed } from '../feeds';
import { readInputs, textOf } from '../input';
import { mailFormatFor, readMail } from '../mails';
import type { Output, Progress } from '../output';
import { CliError, EXIT, describe } from '../problems';

/** Flags every creating command takes. */
export const CREATE_FLAGS = {
  username: { type: 'string' },
  'max-uses': { type: 'string' },
  'expires-in': { type: 'string' },
  'keep-wrapper': { type: 'boolean' },
} as const;

export const CREATE_HELP = [
  '--username U   the user the context is for (default: ISOLINK_USERNAME)',
  '--max-uses N   launches allowed; --expires-in S  seconds until it expires',
  '--keep-wrapper isolate a rewritten link as it is instead of its real target',
];

/** What every context created here shares: identity, the configured defaults, the flags. */
type SharedParams = Pick<CreateContextParams, 'policy' | 'max_uses' | 'expires'> & { readonly username: string };

/** What to do with a wrapped link: --keep-wrapper, else the configuration's default, else unwrap. */
export function unwrapModeOf(context: Pick<CommandContext, 'flags' | 'settings'>): UnwrapMode {
  return context.flags['keep-wrapper'] === true ? 'keep' : (context.settings.file.defaults?.unwrap ?? 'unwrap');
}

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
  return { params, autoDomainAllow: defaults.autoDomainAllow ?? true, mode: unwrapModeOf(context) };
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
      const resolved = resolveText(given, mode);
      if (!resolved.ok) throw refused(resolved.given, resolved.reason);
      target = resolved.target;
    }
    const { client } = await connect(context.settings, context.out, context.fetch);
    const url = target?.url.href;
    const auto = target !== undefined && allowsOwnDomain(target) && autoDomainAllow;
    const created =
      egress !== undefined
        ? await client.createResearchContext({
            ...params,
            egress_region: egress,
            ...(target === undefined ? {} : { url: target.url }),
            auto_domain_allow: auto,
          })
        : await client.createContext({ ...params, url: target?.url ?? '', auto_domain_allow: auto });
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

/** One URL of bulk's input and what became of it. */
interface BulkLine {
  readonly url: string;
  /** What is created for it; none when it was refused. */
  readonly target?: Target;
  outcome?: { readonly launch: string; readonly id: string } | { readonly error: string; readonly code: string };
}

/** Every link resolved (src/resolve): a refusal is that link's outcome, and repeats of one target are one line. */
function bulkLines(links: readonly string[], mode: UnwrapMode): { lines: BulkLine[]; lineOf: Map<Target, BulkLine> } {
  const lines: BulkLine[] = [];
  const lineOf = new Map<Target, BulkLine>();
  for (const { link, resolved } of resolveLinks(links, mode)) {
    if (!resolved.ok) {
      lines.push({ url: link, outcome: { error: `refused: ${resolved.reason}`, code: resolved.code } });
      continue;
    }
    const line: BulkLine = { url: link, target: resolved.target };
    lines.push(line);
    lineOf.set(resolved.target, line);
  }
  return { lines, lineOf };
}

/**
 * Creates a context for every target, as the extension batches them (real targets with
 * their own domain_allow, wrappers to follow apart; 50 per request), recording each
 * line's outcome. A request that fails fails its URLs; the next ones still run.
 */
async function createAll(
  client: IsolinkClient,
  params: SharedParams,
  autoDomainAllow: boolean,
  lineOf: ReadonlyMap<Target, BulkLine>,
  progress: Progress,
): Promise<void> {
  let done = 0;
  for (const { targets, ownDomain } of bulkGroups([...lineOf.keys()])) {
    for (let start = 0; start < targets.length; start += BULK_BATCH_SIZE) {
      const batch = targets.slice(start, start + BULK_BATCH_SIZE);
      const lineAt = (index: number): BulkLine | undefined => {
        const target = batch[index];
        return target === undefined ? undefined : lineOf.get(target);
      };
      try {
        const result = await client.bulkCreateContexts({
          ...params,
          auto_domain_allow: ownDomain && autoDomainAllow,
          urls: batch.map((target) => target.url),
        });
        // The client checked each launch URL against the launch base (a failure otherwise).
        for (const item of result.created) {
          const line = lineAt(item.index);
          if (line) line.outcome = { launch: item.launch_url, id: item.browse_context_id };
        }
        for (const failure of result.failures) {
          const line = lineAt(failure.index);
          if (line) line.outcome = { error: failure.error, code: failure.code };
        }
      } catch (error) {
        if (!isApiError(error)) throw error;
        for (const target of batch) {
          const line = lineOf.get(target);
          if (line) line.outcome = { error: describe(error), code: error.code };
        }
      }
      done += batch.length;
      progress.update(done);
    }
  }
  progress.end();
}

/** Prints one result per line (NDJSON with --json, a table otherwise); returns how many failed. */
function printBulk(out: Output, lines: readonly BulkLine[]): number {
  let failed = 0;
  const rows: string[][] = [];
  for (const line of lines) {
    const outcome = line.outcome ?? { error: 'not created', code: 'unknown' };
    if ('error' in outcome) failed++;
    if (out.json) {
      const target = line.target !== undefined && line.target.url.href !== line.url ? { target: line.target.url.href } : {};
      out.record({ url: line.url, ...target, ...outcome });
    } else rows.push([line.url, 'error' in outcome ? `error: ${outcome.error}` : outcome.launch]);
  }
  if (!out.json) out.table(rows, ['URL', 'LAUNCH']);
  out.note(`isolink: ${lines.length - failed} of ${lines.length} created${failed > 0 ? `; ${failed} failed` : ''}.`);
  return failed;
}

const bulk: Command = {
  summary: 'Create a context for every URL in a report, a list, a CSV file, a STIX bundle or a mail',
  usage: '[file]',
  help: [
    'Reads the file or stdin. --format auto|text|csv|stix|eml|msg (auto: a reported mail, .eml or',
    '.msg, is read as isolink mail reads it; a JSON bundle is STIX, a .csv file or lines with the',
    'same number of commas are CSV, anything else is text). In STIX, only',
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
    if (!isFeedFormat(format) && format !== 'eml' && format !== 'msg')
      throw new CliError('badFlag', `--format takes ${[...FEED_FORMATS, 'eml', 'msg'].join(', ')}`, 'bulk');
    const mode = unwrapModeOf(context);
    const [input] = await readInputs(context.io, context.out, context.args);
    if (input === undefined) return EXIT.ok;
    const mailFormat = mailFormatFor(input, format);
    let links: string[];
    if (mailFormat === null) links = urlsInFeed(textOf(input), input.source, isFeedFormat(format) ? format : 'auto');
    else {
      // A mail's links as the mail reader lists them; the refused ones are named, not sent.
      const mail = await readMail(input, mailFormat, mode);
      links = mail.links.filter((link) => link.target !== null).map((link) => link.url);
      const refused = mail.links.length - links.length;
      if (refused > 0) context.out.note(`isolink: ${refused} link(s) of the mail cannot be isolated (see 'isolink mail ${input.source}').`);
    }
    if (links.length === 0) throw new CliError('noUrls', input.source);
    return createLinks(context, links);
  },
};

/**
 * Creates a context for every link (resolved again by the one resolver; a refusal is that
 * link's line), prints one result per link as `bulk` does, and returns the exit status.
 */
export async function createLinks(context: CommandContext, links: readonly string[]): Promise<number> {
  const { params, autoDomainAllow, mode } = shared(context);
  const { lines, lineOf } = bulkLines(links, mode);
  const { client } = await connect(context.settings, context.out, context.fetch);
  await createAll(client, params, autoDomainAllow, lineOf, context.out.progress('Creating contexts', lineOf.size));
  return printBulk(context.out, lines) > 0 ? EXIT.failed : EXIT.ok;
}

export const isolateCommands: Readonly<Record<string, Command>> = { open, bulk };
