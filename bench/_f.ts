import { readFileSync, writeFileSync } from 'node:fs';
import { deidentifyDicom } from '#shared/dicom/deidentify/index.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
const b = deidentifyDicom(new Uint8Array(readFileSync(process.argv[2]!)), { secret: 's', hospitalId: 'h', options: AnonymizationOptionsSchema.parse({}) });
writeFileSync('/tmp/deid/out.dcm', b.bytes);
