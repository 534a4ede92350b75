import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_DOMAINS, ROUTES } from '#shared/definitions/api/routes.ts';
import { apiFunctionDeclarations, domainEntry } from '#infra/function-declarations.ts';

/**
 * One name per API domain from the route table to the adapter (docs/architecture.md#one-name-per-domain): the route
 * table's domain is the Lambda's name, the folder of its handlers, the folder of its core in shared/domain when it has
 * one of its own, the adapter that stores it, and the site's feature that shows it.
 */
const ROOT = process.cwd();

/**
 * Entry folders of functions/ that are not API domains: pipeline tasks, triggers, the listener, the adapters. The jobs
 * folder is the `jobs` API domain (docs/jobs.md), and holds the scheduled jobs and the job worker beside its handlers.
 */
const NOT_API = ['adapters', 'lib', 'pipeline', 'triggers', 'dicom-listener'];

/**
 * API domains whose core is a wider domain of shared/domain, and why. Every other API domain that has a core has it
 * under its own name.
 */
const CORE_OF: Partial<Record<(typeof API_DOMAINS)[number], string>> = {
  // Hospitals, departments, teams and users are one organisation tree, stored and counted together.
  hospitals: 'organisation',
  departments: 'organisation',
  teams: 'organisation',
  users: 'organisation',
  // DICOMweb is one way studies come in; C-STORE and the quiet-study job are the others.
  dicomweb: 'intake',
  // A patient opening a link is the other side of a patient share.
  'patient-access': 'shares',
};

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function coresImportedBy(dir: string): Set<string> {
  const cores = new Set<string>();
  for (const file of files(dir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/#shared\/domain\/([a-z-]+)\//g)) cores.add(match[1]!);
  }
  return cores;
}

const coreFolders = readdirSync(join(ROOT, 'shared/domain'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('one name per API domain', () => {
  it('names the Lambda, its entry and its handler folder after the route table domain, and nothing else', () => {
    const declared = apiFunctionDeclarations();
    const handlerFolders = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_API.includes(entry.name))
      .map((entry) => entry.name)
      .sort();
    expect(handlerFolders).toEqual([...API_DOMAINS].sort());
    for (const domain of API_DOMAINS) {
      expect(domainEntry(domain)).toBe(`functions/${domain}/handler.ts`);
      expect(existsSync(join(ROOT, domainEntry(domain))), domain).toBe(true);
      expect(declared[domain]?.entry, domain).toBe(domainEntry(domain));
    }
  });

  it("has each API domain's handlers call the core of its own name, or the wider core it belongs to", () => {
    const wrong: string[] = [];
    for (const domain of API_DOMAINS) {
      const core = coreFolders.includes(domain) ? domain : CORE_OF[domain];
      if (core === undefined) continue;
      if (CORE_OF[domain] !== undefined && coreFolders.includes(domain))
        wrong.push(`${domain}: both a core of its own and ${core}`);
      if (!coresImportedBy(join(ROOT, 'functions', domain)).has(core))
        wrong.push(`${domain} never calls shared/domain/${core}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names a core that only one API domain calls after that domain', () => {
    const callers = new Map<string, Set<string>>();
    for (const entry of readdirSync(join(ROOT, 'functions'), { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'adapters' || entry.name === 'lib') continue;
      for (const core of coresImportedBy(join(ROOT, 'functions', entry.name))) {
        callers.set(core, (callers.get(core) ?? new Set()).add(entry.name));
      }
    }
    const misnamed = [...callers]
      .filter(([, by]) => by.size === 1 && (API_DOMAINS as readonly string[]).includes([...by][0]!))
      .filter(([core, by]) => core !== [...by][0] && CORE_OF[[...by][0] as keyof typeof CORE_OF] !== core)
      .map(([core, by]) => `shared/domain/${core} is called only by functions/${[...by][0]}`);
    expect(misnamed).toEqual([]);
  });

  it('names each table adapter after the port field it fills', () => {
    const index = readFileSync(join(ROOT, 'functions/adapters/index.ts'), 'utf8');
    const fileOf = new Map<string, string>();
    for (const match of index.matchAll(/import \{([^}]*)\} from '\.\/dynamo\/([a-z-]+)\.ts'/g)) {
      for (const name of match[1]!.split(',').map((part) => part.trim())) fileOf.set(name, match[2]!);
    }
    const wrong: string[] = [];
    for (const match of index.matchAll(/^\s+([a-zA-Z]+): (create[A-Za-z]+)\(table/gm)) {
      const [, field, factory] = match;
      const file = fileOf.get(factory!);
      if (file === undefined) continue;
      const stem = file.replace(/-(store|repository|log)$/, '').replace(/s$/, '');
      const kebab = field!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      if (!kebab.startsWith(stem)) wrong.push(`${field} is filled from dynamo/${file}.ts`);
    }
    expect(wrong).toEqual([]);
    expect(fileOf.size).toBeGreaterThan(10);
  });

  it("shows hospital settings under the one name 'settings': route domain, handlers, core, adapter and feature", () => {
    const settingsRoutes = ROUTES.filter((route) => route.path === '/api/hospital-admin/settings');
    expect(settingsRoutes.map((route) => route.domain)).toEqual(['settings', 'settings']);
    expect(existsSync(join(ROOT, 'functions/settings/handler.ts'))).toBe(true);
    expect(coresImportedBy(join(ROOT, 'functions/settings'))).toContain('settings');
    expect(existsSync(join(ROOT, 'functions/adapters/dynamo/settings-store.ts'))).toBe(true);
    const feature = files(join(ROOT, 'web/src/features')).filter((file) =>
      readFileSync(file, 'utf8').includes("'/api/hospital-admin/settings'"),
    );
    expect(feature.length).toBeGreaterThan(0);
    for (const file of feature) expect(file).toContain(join('web/src/features/settings'));
  });
});
