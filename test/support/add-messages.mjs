// Adds or updates entries in public/_locales/en/messages.json without clobbering others:
//   node test/support/add-messages.mjs path/to/new-entries.json
// The input is { key: { message, description } }. Keys are kept sorted by insertion.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const target = new URL('../../public/_locales/en/messages.json', import.meta.url);
const additions = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const current = JSON.parse(readFileSync(target, 'utf8'));
for (const [key, value] of Object.entries(additions)) {
  if (!/^\w+$/.test(key)) throw new Error(`bad message key ${key}`);
  if (typeof value?.message !== 'string') throw new Error(`${key} has no message`);
  current[key] = value;
}
const tmp = new URL(`../../public/_locales/en/messages.json.${process.pid}.tmp`, import.meta.url);
writeFileSync(tmp, `${JSON.stringify(current, null, 2)}\n`);
renameSync(tmp, target);
console.log(`messages.json: ${Object.keys(additions).length} entries added or updated`);
