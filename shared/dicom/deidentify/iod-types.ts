import iodTypes from './iod-types.json' with { type: 'json' };

/**
 * The composite actions of PS3.15 Table E.1-1 (X/Z, X/D, Z/D, X/Z/D, X/Z/U*) resolved by the attribute's type in the
 * IOD the object is an instance of (PS3.15 E.3.1): a dummy (D) where it is Type 1, zero length (Z) where Type 2,
 * removal (X) where Type 3 or not in the IOD. The types come from iod-types.json, generated from a machine-readable
 * rendering of PS3.3 by scripts/generate-iod-types.ts (docs/domain.md, "Composite actions").
 */
export type AttributeType = '1' | '1C' | '2' | '2C' | '3';
/** What the table says of an attribute at one place: its type, absent from the IOD, or unknown (no table for it). */
export type TypeLookup = AttributeType | 'absent' | 'unknown';
export type CompositeAction = 'remove' | 'empty' | 'dummy' | 'uid' | 'items';

type IodTypesFile = {
  sopClasses: Record<string, string>;
  iods: Record<string, string[]>;
  modules: Record<string, Record<string, AttributeType>>;
  items: Record<string, Record<string, AttributeType>>;
};
const TABLE = iodTypes as unknown as IodTypesFile;
export const IOD_TYPES_SOURCE = (
  iodTypes as unknown as { source: { package: string; version: string; edition: string } }
).source;

export const COMPOSITE_ACTIONS: ReadonlySet<string> = new Set(['X/Z', 'X/D', 'Z/D', 'X/Z/D', 'X/Z/U*']);

/** Sequences of composite rows whose items only reference other SOP instances (class and instance UIDs). */
const REFERENCE_SEQUENCES: ReadonlySet<string> = new Set([
  '00081111', // Referenced Performed Procedure Step Sequence
  '00081140', // Referenced Image Sequence
  '00082112', // Source Image Sequence
]);

const RANK: Record<AttributeType, number> = { '1': 0, '1C': 1, '2': 2, '2C': 3, '3': 4 };

/** The types of one SOP Class, by path (tags joined by '/'): its IOD's modules merged, the stricter type winning. */
export type IodTypes = { iod: string; paths: ReadonlyMap<string, AttributeType> };

const BY_SOP_CLASS = new Map<string, IodTypes | undefined>();

export function iodTypesFor(sopClassUID: string): IodTypes | undefined {
  if (BY_SOP_CLASS.has(sopClassUID)) return BY_SOP_CLASS.get(sopClassUID);
  const iod = TABLE.sopClasses[sopClassUID];
  let types: IodTypes | undefined;
  if (iod) {
    const paths = new Map<string, AttributeType>();
    for (const module of TABLE.iods[iod] ?? []) {
      for (const [path, type] of Object.entries(TABLE.modules[module] ?? {})) {
        const known = paths.get(path);
        if (known === undefined || RANK[type] < RANK[known]) paths.set(path, type);
      }
    }
    types = { iod, paths };
  }
  BY_SOP_CLASS.set(sopClassUID, types);
  return types;
}

/**
 * The type of the attribute `tag` inside the sequences `path` (outermost first; empty at the top level). The IOD's own
 * path is looked up first; inside a sequence whose items a module leaves open (functional groups) the macro that
 * defines that sequence's items answers. A top-level attribute the IOD does not name is absent; anything else the
 * table cannot place is unknown.
 */
export function attributeType(types: IodTypes | undefined, path: readonly string[], tag: string): TypeLookup {
  if (!types) return 'unknown';
  const own = types.paths.get(path.length === 0 ? tag : `${path.join('/')}/${tag}`);
  if (own) return own;
  if (path.length === 0) return 'absent';
  return TABLE.items[path[path.length - 1]!]?.[tag] ?? 'unknown';
}

/**
 * One composite action resolved (PS3.15 E.3.1). Type 1 (1C, the attribute being present) → D: a dummy value, or for a
 * reference sequence its items, each de-identified (their UIDs mapped like every other). Type 2 (2C) → Z. Type 3 or
 * absent from the IOD → X. Where the row lacks that letter, the next in order of validity: Type 1 D, Z, X; Type 2 Z,
 * D, X; Type 3 X, Z, D. Unknown type → as Type 1 (a value is valid whatever the type), never the original value.
 * X/Z/U* → U for every type (below).
 */
export function resolveComposite(
  action: string,
  type: TypeLookup,
  vr: string,
  sequence: boolean,
  tag: string,
): CompositeAction {
  const allowed = new Set(action.replace('*', '').split('/'));
  // X/Z/U* (references to other instances): U, whatever the type. A UID is replaced, a sequence keeps its items with
  // their UIDs replaced like every other, so references stay whole and valid for every type, and what points at them
  // (the Common Instance Reference Module, PS3.3 C.12.2) stays true.
  if (allowed.has('U') && (vr === 'UI' || sequence)) return sequence ? 'items' : 'uid';
  // D on a sequence keeps its items (each de-identified like the rest of the file) only for the references to other
  // instances; the other D sequences (Institution Code, Operator Identification) name an institution or a person in
  // their items' codes, which no row of the table cleans: they are emptied or removed, never kept.
  const keeps = allowed.has('D') && (!sequence || REFERENCE_SEQUENCES.has(tag));
  const order =
    type === '1' || type === '1C' || type === 'unknown'
      ? (['D', 'Z', 'X'] as const)
      : type === '2' || type === '2C'
        ? (['Z', 'D', 'X'] as const)
        : (['X', 'Z', 'D'] as const);
  for (const letter of order) {
    if (letter === 'D' && keeps) return sequence ? 'items' : 'dummy';
    if (letter === 'Z' && allowed.has('Z')) return 'empty';
    if (letter === 'X' && allowed.has('X')) return 'remove';
  }
  return 'empty';
}
