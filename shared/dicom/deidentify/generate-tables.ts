/**
 * Regenerates the data files the engine loads: `annex-e-2024b.json` (PS3.15 2024b Table E.1-1, copied from
 * ../shared/data/standard/annex-e-table-e1-1.json) and `../dictionary-vr.json` (tag → VR of the standard data
 * dictionary, taken from dcmjs, needed for implicit VR files). Run: npx tsx shared/dicom/deidentify/generate-tables.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error dcmjs ships no type declarations
import dcmjs from 'dcmjs';

const here = dirname(fileURLToPath(import.meta.url));
const source = resolve(here, '../../../../shared/data/standard/annex-e-table-e1-1.json');
const table = JSON.parse(readFileSync(source, 'utf8')) as { edition: string; attributes: { tag: string }[] };
writeFileSync(join(here, 'annex-e-2024b.json'), `${JSON.stringify(table, null, 1)}\n`);

type Entry = { tag: string; vr: string };
const nameMap = (dcmjs.data.DicomMetaDictionary as unknown as { nameMap: Record<string, Entry> }).nameMap;
const vrs: Record<string, string> = {};
for (const entry of Object.values(nameMap)) {
  const match = /^\(([0-9A-Fa-fx]{4}),([0-9A-Fa-fx]{4})\)$/.exec(entry.tag);
  if (!match || /x/i.test(entry.tag)) continue;
  vrs[`${match[1]}${match[2]}`.toUpperCase()] = entry.vr.split('|')[0] ?? 'UN';
}
const sorted = Object.fromEntries(Object.entries(vrs).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(here, '../dictionary-vr.json'), `${JSON.stringify(sorted)}\n`);
process.stdout.write(
  `table: ${table.attributes.length} attributes (${table.edition}); dictionary: ${Object.keys(sorted).length} tags\n`,
);
