/**
 * The commands that need no service: refang, defang, extract, unwrap. Line by line from
 * the files named or stdin; the same code the extension runs.
 */
import { WRAPPER_NAMES, defang, extractUrls, refang, unwrap, unwrapText, type Unwrapped } from '../../fang';
import type { Command, CommandContext } from '../command';
import { EXIT } from '../problems';
import { linesOf, readInputs, textOf } from '../input';

const FILES = { min: 0, max: Infinity } as const;

async function inputLines(context: CommandContext): Promise<string[]> {
  const inputs = await readInputs(context.io, context.out, context.args);
  return inputs.flatMap((input) => linesOf(textOf(input)));
}

function lineByLine(transform: (line: string) => string, what: string): Command {
  return {
    summary: `${what} every line`,
    usage: '[file…]',
    help: ['Reads the files named, or stdin; prints each line changed, in order.', '--json prints one {"input", "output"} object per line.'],
    args: FILES,
    offline: true,
    async run(context) {
      for (const line of await inputLines(context)) {
        const output = transform(line);
        if (context.out.json) context.out.record({ input: line, output });
        else context.out.line(output);
      }
      return EXIT.ok;
    },
  };
}

function unwrapRecord(url: string, found: Unwrapped): Record<string, unknown> {
  return {
    url: found.url,
    given: url,
    wrappers: found.layers.map((id) => WRAPPER_NAMES[id]),
    ...(found.opaque === undefined ? {} : { opaque: WRAPPER_NAMES[found.opaque] }),
  };
}

export const fangCommands: Readonly<Record<string, Command>> = {
  refang: lineByLine(refang, 'Refang'),
  defang: lineByLine(defang, 'Defang'),
  extract: {
    summary: 'Print every URL found, defanged or not, refanged',
    usage: '[file…]',
    help: [
      'Prints each http(s) URL found in the input once, refanged, one per line, in order.',
      '--unwrap prints the real target of a link a mail gateway or chat rewrote.',
      '--json prints one {"url"} object per URL (with "given" and "wrappers" under --unwrap).',
    ],
    flags: { unwrap: { type: 'boolean' } },
    args: FILES,
    offline: true,
    async run(context) {
      const inputs = await readInputs(context.io, context.out, context.args);
      const seen = new Set<string>();
      for (const input of inputs) {
        for (const url of extractUrls(textOf(input))) {
          const found = context.flags['unwrap'] === true ? unwrap(url) : undefined;
          const shown = found?.url ?? url;
          if (seen.has(shown)) continue;
          seen.add(shown);
          if (!context.out.json) context.out.line(shown);
          else context.out.record(found === undefined ? { url } : unwrapRecord(url, found));
        }
      }
      return EXIT.ok;
    },
  },
  unwrap: {
    summary: 'Print the real target of every rewritten link',
    usage: '[file…]',
    help: [
      'Each line is refanged and every URL in it replaced by its real target: Microsoft Safe Links,',
      'Proofpoint, Barracuda, Trend Micro, Sophos, Cisco, Symantec, Google, Slack, Facebook,',
      'LinkedIn and others, nested up to 8 layers. A link that cannot be decoded offline (Mimecast)',
      'is printed as it is. --json prints one {"url", "given", "wrappers", "opaque"?} object per URL.',
    ],
    args: FILES,
    offline: true,
    async run(context) {
      for (const line of await inputLines(context)) {
        const refanged = refang(line);
        if (!context.out.json) {
          context.out.line(unwrapText(refanged));
          continue;
        }
        for (const url of extractUrls(refanged)) context.out.record(unwrapRecord(url, unwrap(url)));
      }
      return EXIT.ok;
    },
  },
};
