/**
 * One structured logger. It takes our ids only (hospitalId, datasetId, runId, route): never events, bodies,
 * DICOM values or error messages from the engine, which could carry PHI.
 */
type Fields = Record<string, string | number | boolean | undefined>;

function write(level: 'INFO' | 'WARN' | 'ERROR', message: string, fields: Fields): void {
  if (process.env.IWS_SILENT_LOGS === '1') return;
  const line = JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...fields });
  (level === 'ERROR' ? console.error : console.log)(line);
}

export const logger = {
  info: (message: string, fields: Fields = {}) => write('INFO', message, fields),
  warn: (message: string, fields: Fields = {}) => write('WARN', message, fields),
  error: (message: string, fields: Fields = {}) => write('ERROR', message, fields),
};

/** Where an unexpected error came from (error name and first stack frame), without its message. */
export function errorOrigin(error: unknown): Fields {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const frame = error.stack
    ?.split('\n')
    .find((line) => line.trim().startsWith('at '))
    ?.trim();
  return { errorName: error.name, errorAt: frame };
}
