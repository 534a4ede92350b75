/**
 * Regenerates the data files the engine loads: `shared/dicom/deidentify/annex-e-2024b.json` (PS3.15 2024b Table
 * E.1-1, copied from the reference data folder's standard/annex-e-table-e1-1.json) and `shared/dicom/dictionary-vr.json`
 * (tag → VR of the standard data dictionary, taken from dcmjs, needed for implicit VR files). A tool, not part of
 * the engine: it runs once per edition of the standard. Run: npx tsx scripts/generate-deidentify-tables.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error dcmjs ships no type declarations
import dcmjs from 'dcmjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(repo, 'shared/dicom/deidentify');
const source = resolve(repo, '../shared/data/standard/annex-e-table-e1-1.json');
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
