import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import { DEMO_HOSPITALS, DEMO_USERS } from '#infra/local/seed/demo-data.ts';
import { arbitraryOf } from '#tests/helpers/openapi-arbitrary.ts';
import { contract, type Operation } from '#tests/helpers/openapi-contract.ts';
import { createResearchDataset, startHarness, subOf, type Harness } from './datasets-harness.ts';

/**
 * The OpenAPI document as the contract (docs/api-contract.md): requests generated from each operation's parameter and
 * body schemas, sent as a team member and as a hospital admin through the real handlers. Every answer must be inside
 * the document (the harness checks each one), none may be a server error, and a request the document allows is never
 * refused as invalid input. DICOMweb (`client`) routes speak DICOM media types and are covered by their own tests.
 */
const RUNS = 6;
/**
 * One seed a run, so CI replays the same requests and a failure names how to repeat it; set IWS_PROPERTY_SEED to
 * explore others (fast-check prints the seed of a failing run).
 */
const SEED = Number(process.env.IWS_PROPERTY_SEED ?? 20261127);
const ACTORS = ['member@northside.demo.local', 'admin@northside.demo.local'];
const HOSPITAL = DEMO_HOSPITALS.find((h) => h.slug === 'northside')!;

let h: Harness;
/** Ids that exist, by path parameter name, so generated requests reach records as well as missing ones. */
const known: Record<string, string[]> = {};

beforeAll(async () => {
  h = await startHarness();
  const datasetId = await createResearchDataset(h, 'member@northside.demo.local', 'Contract');
  known.id = [datasetId];
  known.hospitalId = [HOSPITAL.id];
  known.teamId = HOSPITAL.teams.map((t) => t.id);
  known.departmentId = HOSPITAL.departments.map((d) => d.id);
  known.userId = DEMO_USERS.filter((u) => u.hospitalId === HOSPITAL.id).map((u) => subOf(u.email));
  known.memberId = known.userId;
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

type Request = { path: string; query: Record<string, string>; body?: unknown };

function requestOf(route: RouteDefinition, operation: Operation): fc.Arbitrary<Request> {
  const path: Record<string, fc.Arbitrary<unknown>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  for (const parameter of operation.parameters) {
    // A page token is only ever echoed from an answer (x-opaque): a made-up one is rightly refused.
    if (parameter.schema['x-opaque']) continue;
    const generated = arbitraryOf(parameter.schema);
    if (parameter.in === 'path') {
      const ids = known[parameter.name] ?? [];
      path[parameter.name] = ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), generated) : generated;
    } else {
      query[parameter.name] = generated;
      if (parameter.required) requiredQuery.push(parameter.name);
    }
  }
  const schema = operation.requestBody?.content['application/json']?.schema;
  return fc.record({
    path: fc
      .record(path)
      .map((values) =>
        route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(values[name]))),
      ),
    query: fc
      .record(query, { requiredKeys: requiredQuery })
      .map((values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]))),
    body: schema ? arbitraryOf(schema, known) : fc.constant(undefined),
  });
}

// Gets first and deletions last, so what a run deletes has been read by then.
const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const operations = (ROUTES as readonly RouteDefinition[])
  .filter((r) => r.auth !== 'client' && r.auth !== 'scim')
  .sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));

describe('requests generated from the OpenAPI document', () => {
  it('cover every operation of the document except DICOMweb and SCIM', () => {
    const documented = Object.entries(contract().document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.filter((k) => !k.includes(' /dicomweb') && !k.includes(' /scim/')).sort()).toEqual(
      operations.map(routeKey).sort(),
    );
  });

  for (const route of operations) {
    it(`${routeKey(route)}: answers inside the document, never a server error, never refuses a valid request`, async () => {
      const operation = contract().operation(route.method, route.path)!;
      // Rules between fields that JSON Schema cannot state are named in `x-rules`; a request may break them.
      const unstated = JSON.stringify(operation.requestBody ?? {}).includes('"x-rules"');
      for (const as of route.auth === 'public' ? [undefined] : ACTORS) {
        // Prepare: requests the document allows.
        await fc.assert(
          fc.asyncProperty(requestOf(route, operation), async (request) => {
            // Act: the harness holds the answer against the document.
            const answer = await h.call(route.method, request.path, { as, query: request.query, body: request.body });
            // Assess
            expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
            if (answer.status === 400 && !unstated)
              expect(answer.body.error.code, JSON.stringify(answer.body)).not.toBe('VALIDATION_FAILED');
          }),
          { numRuns: RUNS, seed: SEED },
        );
        // A parameter the document does not name is refused, not ignored.
        const request = fc.sample(requestOf(route, operation), { numRuns: 1, seed: 1 })[0]!;
        const refused = await h.call(route.method, request.path, {
          as,
          query: { ...request.query, unlisted: '1' },
          body: request.body,
        });
        expect(refused.status).toBeGreaterThanOrEqual(400);
        if (refused.status === 400) expect(refused.body.error.code).toBe('VALIDATION_FAILED');
      }
    });
  }
});
