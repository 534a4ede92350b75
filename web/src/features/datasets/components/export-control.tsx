import { Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuDownload } from 'react-icons/lu';
import type { DatasetExport, ExportFormat } from '#shared/schemas/api/exports.ts';
import { EXPORT_FORMATS } from '#shared/schemas/api/exports.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { JobProgress } from '#web/components/ui/job-progress.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { followExport, startExport } from '#web/features/datasets/api/exports.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatBytes, formatDateTime } from '#web/lib/format.ts';

const FORMAT_LABELS: Record<ExportFormat, string> = {
  bids: 'BIDS (NIfTI with sidecars, validated layout)',
  dicom: 'DICOM (the de-identified instances)',
  nifti: 'NIfTI (the converted volumes)',
  assets: 'Derived files (surfaces, tracts, report, thumbnails)',
};

/**
 * The dataset page's Export action (docs/exports.md): a format, then the export's progress while its job runs, then
 * the link to the ZIP and when it stops working. Series held for review are never exported; the ZIP's manifest names
 * them.
 */
export function ExportControl({ datasetId }: { datasetId: string }) {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('bids');
  const [current, setCurrent] = useState<DatasetExport>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    setError(undefined);
    setCurrent(undefined);
    try {
      const { jobId } = await startExport(datasetId, format);
      await followExport(datasetId, jobId, setCurrent);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const download = current?.download;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <LuDownload /> Export
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Export the dataset"
        footer={
          <HStack>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button onClick={() => void start()} loading={busy}>
              Start Export
            </Button>
          </HStack>
        }
      >
        <Stack gap="3">
          <Text>
            The export is built as a ZIP on the server; you also get its link by e-mail. Series held for review of
            possible burned-in text are left out, and the ZIP&apos;s manifest names them.
          </Text>
          <FormField label="Format">
            <Select
              aria-label="Export format"
              value={format}
              onChange={(v) => setFormat(v as ExportFormat)}
              options={EXPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
              disabled={busy}
            />
          </FormField>
          {current && <JobProgress job={current.job} label="Export" />}
          {current?.job.status === 'FAILED' && <Text color="fg.error">The export stopped ({current.job.error}).</Text>}
          {download && (
            <Stack gap="1" data-testid="export-download">
              <Link href={download.url} colorPalette="blue" download={download.fileName}>
                <LuDownload /> {download.fileName} ({formatBytes(download.byteSize)})
              </Link>
              <Text textStyle="sm" color="fg.muted">
                The link works until {formatDateTime(download.expiresAt)}.
              </Text>
            </Stack>
          )}
          {error && <Text color="fg.error">{error}</Text>}
        </Stack>
      </Modal>
    </>
  );
}
