/**
 * Conversion time: the engine's DICOM → NIfTI (shared/dicom/convert.ts convertToNifti: dcm2niix's WASM build, loaded
 * once per process, then gzip) next to the native Debian dcm2niix (-z y, pigz) on the same files. Reading the files is
 * inside each timed engine run, as the native tool reads them inside its own. Runs are interleaved.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDcm2niix } from '#shared/dicom/convert-dcm2niix.ts';
import { convertToNifti, type NiftiOutput } from '#shared/dicom/convert.ts';
import {
  listFolderFiles,
  NATIVE_DCM2NIIX,
  readFolderFiles,
  timeAsync,
  timeSync,
  toolPresent,
  toolVersion,
  totalBytes,
} from './data.ts';

export type ConvertMeasurement = {
  files: number;
  bytes: number;
  runs: number;
  /** Loading and instantiating the WASM module, once per process (0 when it was loaded before). */
  wasmLoadMs: number;
  wasmMs: number[];
  /** Absent when /usr/bin/dcm2niix is not installed. */
  nativeMs?: number[];
  nativeVersion?: string;
  outputs: { baseName: string; niftiBytes: number }[];
};

let wasmLoaded = false;

/** Loads the WASM module; returns the time it took (0 if this process loaded it already). */
export async function loadWasmOnce(): Promise<number> {
  if (wasmLoaded) return 0;
  const loadMs = await timeAsync(() => loadDcm2niix());
  wasmLoaded = true;
  return loadMs;
}

export async function wasmConvert(folder: string): Promise<NiftiOutput[]> {
  return convertToNifti(readFolderFiles(folder));
}

/** One native dcm2niix run into a throw-away folder; returns its wall-clock time in ms. */
export function nativeConvertMs(folder: string): number {
  const out = mkdtempSync(join(tmpdir(), 'iws-bench-dcm2niix-'));
  try {
    return timeSync(() =>
      execFileSync(NATIVE_DCM2NIIX, ['-z', 'y', '-b', 'y', '-f', '%s_%d', '-o', out, folder], { stdio: 'ignore' }),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function nativeDcm2niixVersion(): string {
  return toolVersion(NATIVE_DCM2NIIX, ['-v'], /v\d+(?:\.\d+)+/);
}

export async function measureConversion(folder: string, runs = 3): Promise<ConvertMeasurement> {
  const paths = listFolderFiles(folder);
  const withNative = toolPresent(NATIVE_DCM2NIIX);
  const result: ConvertMeasurement = {
    files: paths.length,
    bytes: totalBytes(paths),
    runs,
    wasmLoadMs: await loadWasmOnce(),
    wasmMs: [],
    outputs: [],
    ...(withNative ? { nativeMs: [], nativeVersion: nativeDcm2niixVersion() } : {}),
  };
  for (let run = 0; run < runs; run += 1) {
    let outputs: NiftiOutput[] = [];
    result.wasmMs.push(
      await timeAsync(async () => {
        outputs = await wasmConvert(folder);
      }),
    );
    result.outputs = outputs.map((output) => ({ baseName: output.baseName, niftiBytes: output.nifti.length }));
    if (result.nativeMs) result.nativeMs.push(nativeConvertMs(folder));
  }
  return result;
}
