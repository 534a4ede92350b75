/**
 * QIDO-RS at hospital scale (docs/capacity.md, docs/dicom-intake.md#the-dicomweb-index): a hospital of 1,000 and one of
 * 100,000 studies seeded straight into the twin's DynamoDB stand-in (dynalite, in memory, with BatchWriteItem in
 * parallel batches), then the same QIDO-RS searches against each through searchDicom, the function the DICOMweb
 * handler calls, over the real table adapters. For each search: the index and table items read (Query ScannedCount,
 * GetItem items), the requests made, and the latency p50 and p99 of N runs. Each study is one dataset (its dataset
 * item and series item, as the read guards check them) with one series of INSTANCES instances in the index.
 * Run: npm run bench:qido-scale [-- --sizes 1000,100000 --runs 30 --instances 1]
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { createDocumentClient, createDynamoClient, type Table } from '#functions/adapters/dynamo/client.ts';
import { createDicomIndex } from '#functions/adapters/dynamo/dicom-index.ts';
import { instanceItem, seriesItem, studyItem } from '#functions/adapters/dynamo/dicom-index-items.ts';
import { listenDynamo } from '#infra/local/dynamo.ts';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import {
  copyRank,
  type IndexedInstance,
  type IndexedSeries,
  type IndexedStudy,
} from '#shared/domain/intake/dicom-index.ts';
import { searchDicom, type QidoRequest, type ReadDeps } from '#shared/domain/intake/dicomweb-read.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('sizes') ?? '1000,100000').split(',').map(Number);
const RUNS = Number(arg('runs') ?? 30);
const INSTANCES = Number(arg('instances') ?? 1);
const HOSPITAL = 'hosp-bench';
const TABLE = 'qido-scale';
/** Parallel BatchWriteItem requests of 25 items in flight while seeding. */
const WRITERS = 16;
const DESCRIPTIONS = ['MRI BRAIN W/O CONTRAST', 'CT CHEST', 'MRI KNEE LEFT', 'CT ABDOMEN PELVIS', 'XR CHEST 2 VIEWS'];
const ROOT = '1.2.826.0.1.3680043.9.7777';

type Counts = { requests: number; items: number };

/** A document client that counts requests and the items they read (Query's ScannedCount, a GetItem's item). */
function countingTable(endpoint: string): { table: Table; counts: Counts } {
  const counts: Counts = { requests: 0, items: 0 };
  const doc: DynamoDBDocumentClient = createDocumentClient(
    { region: 'eu-west-1', endpoint },
    createDynamoClient({ region: 'eu-west-1', endpoint }),
  );
  doc.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as {
        ScannedCount?: number;
        Item?: unknown;
        Items?: unknown[];
        Responses?: Record<string, unknown[]>;
      };
      counts.requests++;
      counts.items +=
        output.ScannedCount ?? (output.Item ? 1 : (output.Items?.length ?? output.Responses?.[TABLE]?.length ?? 0));
      return result;
    },
    { step: 'initialize', name: 'countReads' },
  );
  return { table: { doc, tableName: TABLE }, counts };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The study `i` of a hospital of `size`: dates over ten years, two studies per patient, five descriptions. */
function study(i: number, size: number) {
  const day = new Date(Date.UTC(2015, 0, 1) + Math.floor((i * 3650) / size) * 86_400_000);
  const studyDate = day.toISOString().slice(0, 10).replaceAll('-', '');
  const datasetId = `ds-${pad(i, 6)}`;
  const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const studyUID = `${ROOT}.1.${i}`;
  const seriesUID = `${ROOT}.2.${i}`;
  const rank = copyRank({ id: datasetId, createdAt });
  const patientId = `IWS-${pad(i >> 1, 8)}`;
  const base = { hospitalId: HOSPITAL, datasetId, rank, studyUID };
  const objectKey = (n: number) => `${HOSPITAL}/${datasetId}/${seriesUID}/${ROOT}.3.${i}.${n}.dcm`;
  const s: IndexedStudy = {
    ...base,
    attributes: {
      '00080020': { vr: 'DA', Value: [studyDate] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: patientId }] },
      '00100020': { vr: 'LO', Value: [patientId] },
      '0020000D': { vr: 'UI', Value: [studyUID] },
      '00081030': { vr: 'LO', Value: [DESCRIPTIONS[i % DESCRIPTIONS.length]!] },
    },
    objectKey: objectKey(1),
    series: { [seriesUID]: { modality: 'MR', instances: INSTANCES } },
  };
  const series: IndexedSeries = {
    ...base,
    seriesUID,
    attributes: {
      '00080060': { vr: 'CS', Value: ['MR'] },
      '0020000E': { vr: 'UI', Value: [seriesUID] },
      '00200011': { vr: 'IS', Value: [1] },
    },
    objectKey: objectKey(1),
    instances: INSTANCES,
  };
  const instances: IndexedInstance[] = Array.from({ length: INSTANCES }, (_, n) => ({
    ...base,
    seriesUID,
    sopUID: `${ROOT}.3.${i}.${n + 1}`,
    attributes: {
      '00080016': { vr: 'UI', Value: ['1.2.840.10008.5.1.4.1.1.4'] },
      '00080018': { vr: 'UI', Value: [`${ROOT}.3.${i}.${n + 1}`] },
      '00200013': { vr: 'IS', Value: [n + 1] },
    },
    objectKey: objectKey(n + 1),
    size: 540_000,
    transferSyntaxUID: '1.2.840.10008.1.2.1',
  }));
  const dataset = {
    ...keys.dataset(HOSPITAL, datasetId),
    ...keys.datasetIndexes({ hospitalId: HOSPITAL, id: datasetId, createdAt, status: 'COMPLETE', teamId: null }),
    entity: 'dataset',
    id: datasetId,
    hospitalId: HOSPITAL,
    status: 'COMPLETE',
    teamId: null,
    createdAt,
    deidentifiedAt: createdAt,
  };
  const seriesRecord = {
    ...keys.series(HOSPITAL, datasetId, seriesUID),
    entity: 'series',
    id: seriesUID,
    datasetId,
    hospitalId: HOSPITAL,
    seriesInstanceUID: seriesUID,
    studyInstanceUID: studyUID,
    modality: 'MR',
    fileCount: INSTANCES,
  };
  return {
    studyUID,
    studyDate,
    patientId,
    items: [dataset, seriesRecord, studyItem(s), seriesItem(series), ...instances.map(instanceItem)],
  };
}

async function seed(table: Table, size: number): Promise<{ ms: number; items: number }> {
  const start = performance.now();
  let next = 0;
  let written = 0;
  let batch: Record<string, unknown>[] = [];
  const batches: Record<string, unknown>[][] = [];
  const takeBatch = (): Record<string, unknown>[] | undefined => {
    while (batches.length === 0 && next < size) {
      for (const item of study(next++, size).items) {
        batch.push(item);
        if (batch.length === 25) {
          batches.push(batch);
          batch = [];
        }
      }
      if (next === size && batch.length > 0) {
        batches.push(batch);
        batch = [];
      }
    }
    return batches.shift();
  };
  const writer = async () => {
    for (let requests = takeBatch(); requests; requests = takeBatch()) {
      let pending = requests.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await table.doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
        pending = (result.UnprocessedItems?.[TABLE] ?? []) as typeof pending;
      }
      written += requests.length;
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return { ms: performance.now() - start, items: written };
}

type Row = { name: string; items: number; requests: number; results: number; p50: number; p99: number };

async function measure(size: number): Promise<{ seed: { ms: number; items: number }; rows: Row[] }> {
  const dynamo = await listenDynamo();
  try {
    const { table, counts } = countingTable(dynamo.endpoint);
    await createDynamoClient({ region: 'eu-west-1', endpoint: dynamo.endpoint }).send(
      new CreateTableCommand(createTableInput(TABLE)),
    );
    const seeded = await seed(table, size);
    const deps: ReadDeps = {
      objects: {
        get: () => Promise.reject(new Error('No object is read by these searches')),
      },
      directory: { getTeam: () => Promise.resolve(undefined) },
      dicomIndex: createDicomIndex(table),
    };
    const middle = study(Math.floor(size / 2), size);
    const month = middle.studyDate.slice(0, 6);
    const searches: [string, Record<string, string[]>][] = [
      ['StudyInstanceUID', { StudyInstanceUID: [middle.studyUID] }],
      ['StudyDate, one month', { StudyDate: [`${month}01-${month}31`] }],
      ['PatientID', { PatientID: [middle.patientId] }],
      ['StudyDescription=*BRAIN*', { StudyDescription: ['*BRAIN*'] }],
      ['no match (*NOTHING*)', { StudyDescription: ['*NOTHING*'] }],
    ];
    const client = { id: 'bench-client', hospitalId: HOSPITAL, teamId: undefined };
    const rows: Row[] = [];
    for (const [name, params] of searches) {
      const request: QidoRequest = { level: 'study', params, baseUrl: 'https://bench/dicomweb' };
      const times: number[] = [];
      let first: Row | undefined;
      for (let run = 0; run < RUNS; run++) {
        counts.requests = 0;
        counts.items = 0;
        const start = performance.now();
        const results = await searchDicom(client, request, deps);
        times.push(performance.now() - start);
        first ??= { name, items: counts.items, requests: counts.requests, results: results.length, p50: 0, p99: 0 };
      }
      times.sort((a, b) => a - b);
      rows.push({
        ...first!,
        p50: times[Math.floor(times.length * 0.5)]!,
        p99: times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!,
      });
    }
    return { seed: seeded, rows };
  } finally {
    await dynamo.close();
  }
}

const results = [];
for (const size of SIZES) {
  const result = await measure(size);
  process.stdout.write(
    `${size} studies: seeded ${result.seed.items} items in ${(result.seed.ms / 1000).toFixed(1)} s ` +
      `(${Math.round(result.seed.items / (result.seed.ms / 1000))} items/s, ${WRITERS} BatchWriteItem in flight)\n`,
  );
  results.push({ size, ...result });
}
const header = ['search'.padEnd(26)];
for (const { size } of results)
  header.push(` | ${`${size} studies:`.padEnd(15)} results  items  requests  p50 ms  p99 ms`);
process.stdout.write(`\n${header.join('')}\n`);
for (let i = 0; i < results[0]!.rows.length; i++) {
  const line = [results[0]!.rows[i]!.name.padEnd(26)];
  for (const { rows } of results) {
    const r = rows[i]!;
    line.push(
      ` | ${''.padEnd(15)} ${String(r.results).padStart(7)}${String(r.items).padStart(7)}${String(r.requests).padStart(10)}` +
        `${r.p50.toFixed(1).padStart(8)}${r.p99.toFixed(1).padStart(8)}`,
    );
  }
  process.stdout.write(`${line.join('')}\n`);
}
process.stdout.write(`\n${RUNS} runs per search; items: index and table items read (Query ScannedCount, GetItem)\n`);
