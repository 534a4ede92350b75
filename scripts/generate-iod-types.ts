/**
 * Regenerates `shared/dicom/deidentify/iod-types.json`: the attribute types (1, 1C, 2, 2C, 3) that PS3.15 E.3.1
 * needs to resolve the composite actions of Table E.1-1 (X/Z, X/D, Z/D, X/Z/D, X/Z/U*), per module of DICOM PS3.3,
 * with the modules of each IOD and the IOD of each Storage SOP Class. Kept compact: only paths that end on an
 * attribute with a composite action are written.
 *
 * Source: the machine-readable rendering of PS3.3 (module, macro and IOD tables, with the type of each attribute)
 * and of PS3.4 (SOP Class to IOD) that GDCM ships, Debian package libgdcm3.0 (installed with libgdcm-tools):
 * /usr/share/gdcm-3.0/XML/Part3.xml and Part4.xml. A tool, not part of the engine: it runs when the source changes.
 * Run: npx tsx scripts/generate-iod-types.ts [--out <file>] (the default is the committed file).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(repo, 'shared/dicom/deidentify');
const XML = process.env.IWS_GDCM_XML ?? '/usr/share/gdcm-3.0/XML';
const part3 = readFileSync(join(XML, 'Part3.xml'), 'utf8');
const part4 = readFileSync(join(XML, 'Part4.xml'), 'utf8');
const packageVersion = (() => {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'libgdcm3.0'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();

type AnnexRow = { tag: string; action: string };
const annex = JSON.parse(readFileSync(join(here, 'annex-e-2024b.json'), 'utf8')) as { attributes: AnnexRow[] };
const COMPOSITE = new Set(['X/Z', 'X/D', 'Z/D', 'X/Z/D', 'X/Z/U*']);
const composite = new Set(
  annex.attributes.filter((row) => COMPOSITE.has(row.action)).map((row) => row.tag.replace(/[(),]/g, '')),
);

const RANK: Record<string, number> = { '1': 0, '1C': 1, '2': 2, '2C': 3, '3': 4 };
/** Where one attribute has two types (two modules, or two invocations of a macro), the more demanding one holds. */
const stricter = (a: string | undefined, b: string) => (a === undefined || RANK[b]! < RANK[a]! ? b : a);

const decode = (text: string) =>
  text
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const attribute = (tag: string, name: string) => decode(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');

/** One row of a module or macro table: an attribute at a nesting depth, or the inclusion of a macro. */
type Row = { depth: number; tag: string; type: string } | { depth: number; include: string };
type Table = { name: string; rows: Row[] };

const tables = new Map<string, Table>();
const modulesBySection = new Map<string, Table>();
for (const block of part3.matchAll(/<(module|macro)\b([^>]*)>([\s\S]*?)<\/\1>/g)) {
  const [, kind, head, body] = block;
  const name = attribute(head!, 'name')
    .replace(/\s+(Module\s+)?Attributes$/i, '')
    .replace(/\s+Module$/i, '')
    .trim();
  const rows: Row[] = [];
  for (const row of body!.matchAll(/<(entry|include)\b([^>]*?)\/?>/g)) {
    const text = row[2]!;
    if (row[1] === 'entry') {
      const group = attribute(text, 'group');
      const element = attribute(text, 'element');
      const type = attribute(text, 'type').toUpperCase();
      if (!/^[0-9A-F]{4}$/i.test(group) || !/^[0-9A-F]{4}$/i.test(element) || !(type in RANK)) continue;
      const depth = /^>*/.exec(attribute(text, 'name'))![0].length;
      rows.push({ depth, tag: `${group}${element}`.toUpperCase(), type });
    } else {
      const ref = attribute(text, 'ref');
      const table = /Table\s*\(?\s*([A-Z]?[\d.]+-[\d]+[a-z]?)/.exec(ref)?.[1];
      if (table) rows.push({ depth: /^>*/.exec(ref)![0].length, include: table });
    }
  }
  const table: Table = { name, rows };
  const id = attribute(head!, 'table');
  if (id && !tables.has(id)) tables.set(id, table);
  if (kind === 'module') modulesBySection.set(attribute(head!, 'ref'), table);
}

/** Every attribute path of a table, its macros expanded (cycles and runaway nesting cut). */
function expand(table: Table, base: string[], seen: Set<Table>, out: (path: string[], type: string) => void): void {
  if (seen.has(table) || base.length > 6) return;
  const inner = new Set(seen).add(table);
  const stack = [...base];
  for (const row of table.rows) {
    stack.length = base.length + row.depth;
    if ('include' in row) {
      const macro = tables.get(row.include);
      if (macro) expand(macro, stack.slice(0, base.length + row.depth), inner, out);
      continue;
    }
    // A row deeper than the sequence above it (a malformed table) is skipped rather than guessed.
    if (stack.some((tag) => tag === undefined)) continue;
    const path = [...stack, row.tag];
    out(path, row.type);
    stack.push(row.tag);
  }
}

/** A module's or macro's composite-action attributes by path (tags joined by '/'), ancestors included in the key. */
function compositePaths(table: Table): Record<string, string> {
  const types: Record<string, string> = {};
  expand(table, [], new Set(), (path, type) => {
    if (!composite.has(path[path.length - 1]!)) return;
    const key = path.join('/');
    types[key] = stricter(types[key], type);
  });
  return Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b)));
}

// The IODs of PS3.3 Annex A and the modules each is made of.
const iods: Record<string, string[]> = {};
const modules: Record<string, Record<string, string>> = {};
for (const block of part3.matchAll(/<iod\b([^>]*)>([\s\S]*?)<\/iod>/g)) {
  const table = attribute(block[1]!, 'table');
  if (!/^A\./.test(table)) continue;
  const name = attribute(block[1]!, 'name').replace(/\s+IOD Modules$/, '');
  const names: string[] = [];
  for (const entry of block[2]!.matchAll(/<entry\b([^>]*)\/>/g)) {
    const module = modulesBySection.get(attribute(entry[1]!, 'ref'));
    if (!module) continue;
    const paths = compositePaths(module);
    if (Object.keys(paths).length === 0) continue;
    modules[module.name] = paths;
    if (!names.includes(module.name)) names.push(module.name);
  }
  iods[name] = names.sort();
}

// Items of sequences whose content a module leaves open (the functional group macros of PS3.3 C.7.6.16 are named by
// each IOD's functional group table, which the source does not list): each macro whose first row is a sequence gives
// the types of the attributes inside that sequence's items.
const items: Record<string, Record<string, string>> = {};
for (const table of new Set(tables.values())) {
  const first = table.rows[0];
  if (!first || 'include' in first || first.depth !== 0) continue;
  expand(table, [], new Set(), (path, type) => {
    if (path.length < 2 || path[0] !== first.tag || !composite.has(path[path.length - 1]!)) return;
    const parent = path[path.length - 2]!;
    const child = path[path.length - 1]!;
    items[parent] ??= {};
    items[parent][child] = stricter(items[parent][child], type);
  });
}

// Storage SOP Classes of PS3.4 (Part4.xml) to the IODs above, by name: "MR Image Storage" → "MR Image".
const normal = (text: string) =>
  text
    .toLowerCase()
    .replace(/secondary capture/g, 'sc')
    .replace(/positron emission tomography/g, 'pet')
    .replace(/x-ray/g, 'x ray')
    .replace(/multi-frame/g, 'multi frame')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const iodByName = new Map(Object.keys(iods).map((name) => [normal(name), name]));
const sopClasses: Record<string, string> = {};
for (const mapping of part4.matchAll(/<mapping\b([^>]*)\/>/g)) {
  const uid = attribute(mapping[1]!, 'sop-class-uid');
  if (!/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.[\d.]+$/.test(uid)) continue;
  const name = normal(attribute(mapping[1]!, 'sop-class-name').replace(/\s+Storage\b.*$/i, ''));
  const iod = iodByName.get(name) ?? iodByName.get(`${name} image`) ?? iodByName.get(name.replace(/ image$/, ''));
  if (iod && !(uid in sopClasses)) sopClasses[uid] = iod;
}

const edition = /<tables edition="([^"]+)"/.exec(part3)?.[1] ?? 'unknown';
const output = {
  comment:
    `Attribute types per IOD module for the composite actions of PS3.15 Table E.1-1, generated by ` +
    `scripts/generate-iod-types.ts from GDCM's machine-readable rendering of DICOM PS3.3 (edition ${edition}) and ` +
    `PS3.4: Debian package libgdcm3.0 ${packageVersion}, /usr/share/gdcm-3.0/XML/Part3.xml and Part4.xml. Paths are ` +
    `tags (GGGGEEEE) joined by '/', outermost sequence first; 'items' gives the types inside a sequence's items ` +
    `wherever a module leaves its content open (functional groups).`,
  source: { package: 'libgdcm3.0', version: packageVersion, files: ['Part3.xml', 'Part4.xml'], edition },
  sopClasses: Object.fromEntries(Object.entries(sopClasses).sort(([a], [b]) => a.localeCompare(b))),
  iods: Object.fromEntries(Object.entries(iods).sort(([a], [b]) => a.localeCompare(b))),
  modules: Object.fromEntries(Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))),
  items: Object.fromEntries(
    Object.entries(items)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([parent, children]) => [
        parent,
        Object.fromEntries(Object.entries(children).sort(([a], [b]) => a.localeCompare(b))),
      ]),
  ),
};
const outFlag = process.argv.indexOf('--out');
const outPath =
  outFlag > 0 && process.argv[outFlag + 1] ? resolve(process.argv[outFlag + 1]!) : join(here, 'iod-types.json');
writeFileSync(outPath, `${JSON.stringify(output)}\n`);
process.stdout.write(
  `iod-types.json: ${Object.keys(sopClasses).length} SOP classes, ${Object.keys(iods).length} IODs, ` +
    `${Object.keys(modules).length} modules, ${Object.keys(items).length} open sequences (PS3.3 ${edition})\n`,
);
