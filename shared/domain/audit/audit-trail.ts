import Papa from 'papaparse';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { AuditChainHead, AuditEvent, AuditLog, AuditQuery, Clock, PageTokens } from '#shared/domain/ports.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { AuditFilter, AuditLogEntry, ListAuditQuery, VerifyAuditResponse } from '#shared/schemas/api/audit.ts';
import { EMPTY_HEAD, verifyChain, type ChainedAuditEvent, type ChainHead } from './chain.ts';
import { checkDigests, type DigestCheck, type DigestDeps } from './digests.ts';

type AuditDeps = { audit: AuditLog; directory: Directory; clock: Clock };

/**
 * Whose audit log the caller may read (docs/roles-and-permissions.md#audit-trail): a hospital admin their own
 * hospital's, the super admin any hospital's (their own when none is named). Another hospital named by a hospital
 * admin answers as unknown (404), like any other tenant's id.
 */
export async function auditHospital(
  caller: Caller,
  requested: string | undefined,
  directory: Directory,
): Promise<string> {
  if (caller.role === 'SUPER_ADMIN') {
    if (!requested || requested === caller.hospitalId) return caller.hospitalId;
    if (!(await directory.getHospital(requested))) throw new NotFoundError('HOSPITAL_NOT_FOUND');
    return requested;
  }
  if (caller.role !== 'HOSPITAL_ADMIN') throw new AccessDeniedError();
  if (requested && requested !== caller.hospitalId) throw new NotFoundError('HOSPITAL_NOT_FOUND');
  return caller.hospitalId;
}

/** A period bound as the index sort keys hold it: a day reaches from its first to its last millisecond. */
function bound(value: string | undefined, end: boolean): string | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`;
  return new Date(value).toISOString();
}

/**
 * The index's search, except for a period that ends before it starts: it holds no events (DynamoDB refuses a
 * BETWEEN whose lower bound is above its upper one, so it is never asked).
 */
export function searchAuditIndex(
  audit: AuditDeps['audit'],
  query: AuditQuery,
): ReturnType<AuditDeps['audit']['search']> {
  if (query.from && query.to && query.from > query.to) return Promise.resolve({ items: [] });
  return audit.search(query);
}

/** The index query of a filter (its period bounds widened to whole days). */
export function auditQuery(hospitalId: string, filter: AuditFilter, limit: number): AuditQuery {
  return {
    hospitalId,
    actorUserId: filter.actor,
    targetId: filter.target,
    action: filter.action,
    from: bound(filter.from, false),
    to: bound(filter.to, true),
    limit,
  };
}

export function toAuditLogEntry(event: AuditEvent): AuditLogEntry {
  return {
    id: event.id,
    at: event.at,
    action: event.action,
    outcome: event.outcome ?? 'SUCCESS',
    actorUserId: event.actorUserId,
    actorName: event.actorName,
    ...(event.datasetId ? { datasetId: event.datasetId } : {}),
    ...(event.targetUserId ? { targetUserId: event.targetUserId } : {}),
    details: event.details,
    ...(event.seq !== undefined ? { seq: event.seq } : {}),
    ...(event.hash ? { hash: event.hash } : {}),
  };
}

/** One page of the audit log, newest first, with a continuation token sealed to the hospital and the filters. */
export async function searchAudit(
  input: ListAuditQuery,
  caller: Caller,
  deps: AuditDeps & { pageTokens: PageTokens },
): Promise<{ items: AuditLogEntry[]; nextToken: string | null }> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  const query = auditQuery(hospitalId, input, input.limit);
  const scope = JSON.stringify([
    'audit',
    hospitalId,
    query.actorUserId ?? '',
    query.targetId ?? '',
    query.action ?? '',
    query.from ?? '',
    query.to ?? '',
  ]);
  const startKey = input.nextToken ? await deps.pageTokens.open(scope, input.nextToken) : undefined;
  const page = await searchAuditIndex(deps.audit, { ...query, startKey });
  return {
    items: page.items.map(toAuditLogEntry),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}

/** Rows an export holds at most; a longer period is exported in parts (narrow the period). */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

export const AUDIT_CSV_COLUMNS = [
  'Time',
  'Action',
  'Outcome',
  'Actor',
  'Actor ID',
  'Dataset',
  'Target user',
  'Details',
  'Sequence',
  'Hash',
] as const;

const CSV_OPTIONS = { escapeFormulae: true, newline: '\r\n' } as const;

/**
 * Events as CSV rows without the header, in the columns of AUDIT_CSV_COLUMNS; cells that a spreadsheet would run as a
 * formula are escaped (a leading =, +, -, @, tab or carriage return is quoted with a single quote).
 */
export function auditCsvRows(events: readonly AuditEvent[]): string {
  if (events.length === 0) return '';
  return Papa.unparse(
    {
      fields: [...AUDIT_CSV_COLUMNS],
      data: events.map((e) => [
        e.at,
        e.action,
        e.outcome ?? 'SUCCESS',
        e.actorName,
        e.actorUserId,
        e.datasetId ?? '',
        e.targetUserId ?? '',
        JSON.stringify(e.details ?? {}),
        e.seq ?? '',
        e.hash ?? '',
      ]),
    },
    { ...CSV_OPTIONS, header: false },
  );
}

/** The CSV file: the header, then the row blocks (each from auditCsvRows, none empty) in order. */
export function auditCsv(rowBlocks: readonly string[]): string {
  const header = Papa.unparse([[...AUDIT_CSV_COLUMNS]], CSV_OPTIONS);
  // Without rows, Papa's own output for an empty table: the header and a line break.
  if (rowBlocks.length === 0) return `${header}${CSV_OPTIONS.newline}`;
  return [header, ...rowBlocks].join(CSV_OPTIONS.newline);
}

/**
 * The filtered audit log as CSV (newest first, at most AUDIT_EXPORT_MAX_ROWS rows). Cells that a spreadsheet would
 * run as a formula are escaped. The export itself is an audited event (AUDIT_EXPORTED).
 */
export async function exportAuditCsv(
  input: AuditFilter,
  caller: Caller,
  deps: AuditDeps,
): Promise<{ csv: string; rows: number; hospitalId: string }> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  const query = auditQuery(hospitalId, input, 100);
  const events: AuditEvent[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await searchAuditIndex(deps.audit, {
      ...query,
      limit: Math.min(100, AUDIT_EXPORT_MAX_ROWS - events.length),
      startKey,
    });
    events.push(...page.items);
    startKey = page.lastKey;
  } while (startKey && events.length < AUDIT_EXPORT_MAX_ROWS);
  const csv = auditCsv([auditCsvRows(events)].filter((rows) => rows.length > 0));
  await deps.audit.record({
    hospitalId,
    action: 'AUDIT_EXPORTED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: {
      rows: events.length,
      ...Object.fromEntries(Object.entries(input).filter(([k, v]) => k !== 'hospitalId' && v !== undefined)),
    },
  });
  return { csv, rows: events.length, hospitalId };
}

async function* chainPages(
  audit: AuditLog,
  hospitalId: string,
  afterSeq: number,
): AsyncIterable<readonly ChainedAuditEvent[]> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await audit.chainPage(hospitalId, startKey, afterSeq || undefined);
    yield page.items;
    startKey = page.lastKey;
  } while (startKey);
}

/**
 * Where the walk starts (docs/domain.md#verification): after the last verification's checkpoint when that one found
 * the chain intact and the head has not gone back behind it; from the first event otherwise.
 */
export function checkpointOf(head: AuditChainHead | undefined): ChainHead {
  const last = head?.lastVerification;
  if (!head || !last?.verified || !last.verifiedSeq || !last.verifiedHash || last.verifiedSeq > head.seq)
    return EMPTY_HEAD;
  return { seq: last.verifiedSeq, hash: last.verifiedHash };
}

/** The event at position `seq`, or undefined when the chain no longer holds it. */
async function eventAt(audit: AuditLog, hospitalId: string, seq: number): Promise<ChainedAuditEvent | undefined> {
  const page = await audit.chainPage(hospitalId, undefined, seq - 1 || undefined);
  const event = page.items[0];
  return event?.seq === seq ? event : undefined;
}

/** Passes the pages on, noting the first event at a digest's position whose hash is not the one the digest signed. */
async function* watchAnchors(
  pages: AsyncIterable<readonly ChainedAuditEvent[]>,
  anchors: ReadonlyMap<number, string>,
  found: { seq?: number },
): AsyncIterable<readonly ChainedAuditEvent[]> {
  for await (const page of pages) {
    for (const event of page) {
      const signed = anchors.get(event.seq);
      if (signed !== undefined && signed !== event.hash && found.seq === undefined) found.seq = event.seq;
    }
    yield page;
  }
}

type VerifyDeps = AuditDeps & Partial<Pick<DigestDeps, 'digests'>>;

/**
 * Where the walk starts and which digests vouch for what (docs/domain.md#verification): with signed digests, the
 * digests newer than the last checkpoint are checked (signature with the public key, link to the one before), every
 * one of them must find its signed head hash on the stored event at its position, and the chain is walked from the
 * newest digest on; with `full`, every digest is checked and the chain walked from the first event, each digest's
 * position compared on the way. Without digests, the walk starts at the last checkpoint as before.
 */
async function digestsOf(
  hospitalId: string,
  head: ChainHead,
  full: boolean,
  checkpoint: ChainHead,
  deps: VerifyDeps,
): Promise<{ check?: DigestCheck; start: ChainHead; mismatchAt?: number }> {
  if (!deps.digests) return { start: full ? EMPTY_HEAD : checkpoint };
  const check = await checkDigests(hospitalId, head, full ? 0 : checkpoint.seq, { digests: deps.digests });
  if (full || !check.verified || check.anchors.length === 0) return { check, start: full ? EMPTY_HEAD : checkpoint };
  // Every digest checked vouches for its position: one read each (a few since the last verification).
  for (const anchor of check.anchors) {
    const event = await eventAt(deps.audit, hospitalId, anchor.toSeq);
    if (event?.hash !== anchor.headHash) return { check, start: checkpoint, mismatchAt: anchor.toSeq };
  }
  const newest = check.anchors[0]!;
  return { check, start: { seq: newest.toSeq, hash: newest.headHash } };
}

/**
 * Chains what is still pending, then checks the hospital's signed digests and walks its chain from the newest one
 * (from the first event when `full`; from the last checkpoint when the hospital has no digest yet) and reports the
 * first broken link or digest; the outcome (with the new checkpoint when intact) is kept on the chain's head (the
 * compliance center shows it) and appended as an AUDIT_CHAIN_VERIFIED event. `checkedEvents` counts every position
 * found intact, those before the start included, so it reads the same as a walk from the first event.
 */
export async function verifyAuditTrail(
  input: { hospitalId?: string; full?: boolean },
  caller: Caller,
  deps: VerifyDeps,
): Promise<VerifyAuditResponse> {
  const hospitalId = await auditHospital(caller, input.hospitalId, deps.directory);
  await deps.audit.settle?.(hospitalId);
  const head = await deps.audit.head(hospitalId);
  const full = input.full === true;
  const anchored = await digestsOf(hospitalId, head ?? EMPTY_HEAD, full, checkpointOf(head), deps);
  const start = anchored.start;
  const anchors = new Map((full ? (anchored.check?.anchors ?? []) : []).map((a) => [a.toSeq, a.headHash] as const));
  const found: { seq?: number } = { seq: anchored.mismatchAt };
  const walked = await verifyChain(
    watchAnchors(chainPages(deps.audit, hospitalId, start.seq), anchors, found),
    head,
    start,
  );
  const digestBreak =
    anchored.check?.brokenAt ??
    (found.seq !== undefined ? { toSeq: found.seq, key: '', reason: 'HEAD_HASH_MISMATCH' as const } : undefined);
  const verified = walked.verified && !digestBreak;
  const result = { ...walked, verified, checkedEvents: start.seq + walked.checkedEvents };
  const brokenAtSeq = walked.brokenAt?.seq ?? digestBreak?.toSeq;
  const at = deps.clock.now();
  const checkpoint = verified && head ? { verifiedSeq: head.seq, verifiedHash: head.hash } : {};
  await deps.audit.recordVerification(hospitalId, {
    at,
    verified,
    checkedEvents: result.checkedEvents,
    ...(brokenAtSeq !== undefined && !verified ? { brokenAtSeq } : {}),
    ...checkpoint,
  });
  const digests = anchored.check
    ? {
        verified: anchored.check.verified && !digestBreak,
        checked: anchored.check.checked,
        lastDigestSeq: anchored.check.lastDigestSeq,
        ...(digestBreak ? { brokenAt: { toSeq: digestBreak.toSeq, reason: digestBreak.reason } } : {}),
      }
    : undefined;
  await deps.audit.record({
    hospitalId,
    action: 'AUDIT_CHAIN_VERIFIED',
    outcome: verified ? 'SUCCESS' : 'FAILURE',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: {
      checkedEvents: result.checkedEvents,
      walkedEvents: walked.checkedEvents,
      ...(full ? { full: true } : {}),
      ...(walked.brokenAt ? { brokenAtSeq: walked.brokenAt.seq, reason: walked.brokenAt.reason } : {}),
      ...(digests ? { digestsChecked: digests.checked } : {}),
      ...(digestBreak ? { digestBrokenAtSeq: digestBreak.toSeq, digestReason: digestBreak.reason } : {}),
    },
  });
  return { ...result, ...(digests ? { digests } : {}), at };
}
