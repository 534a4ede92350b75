import { Alert, Box, Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { buildDicomLayoutZip } from '#shared/dicom/bids/dicom-layout.ts';
import { AnonymizationOptionsSchema, type AnonymizationOptions } from '#shared/schemas/api/datasets.ts';
import { toaster } from '#web/components/ui/toaster.tsx';
import { paths } from '#web/config/paths.ts';
import { getDataset, useDataset } from '#web/features/datasets/api/get-dataset.ts';
import { useNotifications } from '#web/features/notifications/hooks/use-notifications.tsx';
import { createDataset, updateDataset } from '#web/features/uploads/api/create-dataset.ts';
import { AnonymizationStep } from '#web/features/uploads/components/anonymization-step.tsx';
import { FileDiscoveryStep } from '#web/features/uploads/components/file-discovery-step.tsx';
import { FilePicker } from '#web/features/uploads/components/file-picker.tsx';
import { PatientContextStep } from '#web/features/uploads/components/patient-context-step.tsx';
import { SeriesSelectionStep, type SeriesChoice } from '#web/features/uploads/components/series-selection-step.tsx';
import { StepIndicator } from '#web/features/uploads/components/step-indicator.tsx';
import { UploadStep } from '#web/features/uploads/components/upload-step.tsx';
import { useStudyUpload } from '#web/features/uploads/hooks/use-study-upload.ts';
import { normaliseBidsChoice } from '#web/features/uploads/utils/bids-categories.ts';
import type { Discovery, PickedFile } from '#web/features/uploads/utils/discover-files.ts';
import {
  EMPTY_PATIENT_CONTEXT,
  validatePatientContext,
  type PatientContextDraft,
} from '#web/features/uploads/utils/patient-context.ts';
import {
  clearPendingUpload,
  loadPendingUpload,
  matchPendingFiles,
  type PendingUpload,
} from '#web/features/uploads/utils/pending-upload.ts';
import { errorMessage } from '#web/lib/api-error.ts';

const DEFAULT_ANONYMIZATION = AnonymizationOptionsSchema.parse({});

/** /upload: the five-step wizard of record section 2, every step real. */
export function UploadRoute() {
  const navigate = useNavigate();
  const { notify } = useNotifications();
  const [step, setStep] = useState(0);
  const [context, setContext] = useState<PatientContextDraft>(EMPTY_PATIENT_CONTEXT);
  const [contextErrors, setContextErrors] = useState<Partial<Record<keyof PatientContextDraft, string>>>({});
  const [draftId, setDraftId] = useState<string>();
  const [savingDraft, setSavingDraft] = useState(false);
  const [enhanced, setEnhanced] = useState(false);
  const [discovery, setDiscovery] = useState<Discovery>();
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [choices, setChoices] = useState<Record<string, SeriesChoice>>({});
  const [selectionError, setSelectionError] = useState<string>();
  const [zipBusy, setZipBusy] = useState(false);
  const [anonymization, setAnonymization] = useState<AnonymizationOptions>(DEFAULT_ANONYMIZATION);
  const [datasetId, setDatasetId] = useState<string>();
  const [uploadFiles, setUploadFiles] = useState<PickedFile[]>([]);
  const [pending, setPending] = useState<PendingUpload | undefined>(() => loadPendingUpload());
  const [resumeError, setResumeError] = useState<string>();
  const upload = useStudyUpload();
  const { data: dataset } = useDataset(upload.phase === 'uploaded' ? datasetId : undefined, { pollMs: 2000 });
  const announced = useRef<string>(undefined);

  // A pending upload whose dataset moved on (pipeline started) or vanished needs no resume.
  useEffect(() => {
    if (!pending) return;
    getDataset(pending.datasetId)
      .then((d) => {
        if (d.status !== 'CREATED' && d.status !== 'UPLOADING') {
          clearPendingUpload();
          setPending(undefined);
        }
      })
      .catch(() => {
        clearPendingUpload();
        setPending(undefined);
      });
  }, [pending]);

  useEffect(() => {
    if (!dataset || announced.current === `${dataset.id}:${dataset.status}`) return;
    if (dataset.status === 'COMPLETE' || dataset.status === 'FAILED') {
      announced.current = `${dataset.id}:${dataset.status}`;
      notify({
        title: dataset.status === 'COMPLETE' ? 'Processing complete' : 'Processing failed',
        description: `${dataset.studyDescription}: ${dataset.status === 'COMPLETE' ? 'Ready for analysis' : (dataset.failureReason ?? 'Processing failed')}`,
        type: dataset.status === 'COMPLETE' ? 'success' : 'error',
        href: paths.dataset.getHref(dataset.id),
      });
    }
  }, [dataset, notify]);

  const seriesOfPath = useMemo(() => {
    const map = new Map<string, string>();
    for (const s of discovery?.series ?? []) for (const f of s.files) map.set(f.fileName, s.seriesInstanceUID);
    return map;
  }, [discovery]);

  const onDiscovered = (result: Discovery | undefined, files: PickedFile[]) => {
    setDiscovery(result);
    setPicked(files);
    setChoices(
      Object.fromEntries(
        (result?.series ?? []).map((s) => [
          s.seriesInstanceUID,
          { selected: true, bids: normaliseBidsChoice(s.bidsSuggestion.datatype, s.bidsSuggestion.suffix) },
        ]),
      ),
    );
  };

  const saveDraft = async () => {
    const result = validatePatientContext(context);
    if (!result.ok) return setContextErrors(result.errors);
    setContextErrors({});
    setSavingDraft(true);
    try {
      const saved = draftId
        ? await updateDataset(draftId, { ...result.value, anonymization })
        : await createDataset({ ...result.value, anonymization });
      setDraftId(saved.id);
      toaster.create({ type: 'success', title: 'Draft saved', description: 'The dataset is ready for upload.' });
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setSavingDraft(false);
    }
  };

  const selectedFiles = (): PickedFile[] => {
    const byPath = new Map(picked.map((p) => [p.path, p]));
    return (discovery?.series ?? [])
      .filter((s) => choices[s.seriesInstanceUID]?.selected)
      .flatMap((s) => s.files.map((f) => byPath.get(f.fileName)))
      .filter((p): p is PickedFile => p !== undefined);
  };

  const downloadZip = async () => {
    const selected = (discovery?.series ?? []).filter((s) => choices[s.seriesInstanceUID]?.selected);
    if (selected.length === 0) return setSelectionError('Please select at least one series to export.');
    setSelectionError(undefined);
    setZipBusy(true);
    try {
      const byPath = new Map(picked.map((p) => [p.path, p.file]));
      const selection = await Promise.all(
        selected.map(async (s) => ({
          series: s,
          category: choices[s.seriesInstanceUID]!.bids.category,
          subcategory: choices[s.seriesInstanceUID]!.bids.subcategory,
          files: await Promise.all(
            s.files.map(async (f) => ({
              fileName: f.fileName,
              bytes: new Uint8Array(await byPath.get(f.fileName)!.arrayBuffer()),
            })),
          ),
        })),
      );
      const zip = await buildDicomLayoutZip(selection);
      const url = URL.createObjectURL(new Blob([zip.bytes as BlobPart], { type: 'application/zip' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = zip.fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setSelectionError(`Error exporting ZIP: ${errorMessage(e)}`);
    } finally {
      setZipBusy(false);
    }
  };

  const startUpload = async () => {
    const result = validatePatientContext(context);
    if (!result.ok) {
      setContextErrors(result.errors);
      return setStep(0);
    }
    const files = selectedFiles();
    try {
      const created = draftId
        ? await updateDataset(draftId, { ...result.value, anonymization })
        : await createDataset({ ...result.value, anonymization });
      setDraftId(created.id);
      setDatasetId(created.id);
      setUploadFiles(files);
      setStep(4);
      await runUpload(created.id, result.value.studyDescription, files);
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    }
  };

  const runUpload = async (id: string, studyDescription: string, files: PickedFile[]) => {
    const result = await upload.start({ datasetId: id, studyDescription, files, seriesOf: (p) => seriesOfPath.get(p) });
    if (result) {
      notify({
        title: 'Upload finished',
        description: `${studyDescription}: ${files.length} files uploaded, processing started.`,
        type: 'success',
        href: paths.dataset.getHref(id),
      });
      toaster.create({ type: 'success', title: 'Upload finished', description: 'Processing has started.' });
    }
  };

  const resume = async (files: PickedFile[]) => {
    if (!pending) return;
    const { matched, missing } = matchPendingFiles(pending, files);
    if (missing.length > 0) {
      setResumeError(
        `${missing.length} of ${pending.files.length} files were not found in what you picked. Choose the same folder as before.`,
      );
      return;
    }
    // The session was opened with the paths recorded then: send the same identities, in the same order.
    const ordered = pending.files.map((w, i) => ({ path: w.path, file: matched[i]!.file }));
    setResumeError(undefined);
    setPending(undefined);
    setDatasetId(pending.datasetId);
    setUploadFiles(ordered);
    setStep(4);
    await runUpload(pending.datasetId, pending.studyDescription, ordered);
  };

  const reset = () => {
    setStep(0);
    setContext(EMPTY_PATIENT_CONTEXT);
    setDraftId(undefined);
    setDiscovery(undefined);
    setPicked([]);
    setChoices({});
    setAnonymization(DEFAULT_ANONYMIZATION);
    setDatasetId(undefined);
    setUploadFiles([]);
    announced.current = undefined;
  };

  return (
    <Stack gap="6">
      <Heading size="2xl">Upload DICOM Study</Heading>
      {pending && step === 0 && (
        <Card.Root borderColor="orange.muted" data-testid="resume-upload">
          <Card.Body>
            <Stack gap="3">
              <Alert.Root status="warning">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>An upload did not finish: {pending.studyDescription}</Alert.Title>
                  <Alert.Description>
                    {pending.files.length} files. Choose the same folder or files again: only the parts the server does
                    not hold yet are sent.
                  </Alert.Description>
                </Alert.Content>
              </Alert.Root>
              <FilePicker onPicked={(files) => void resume(files)} />
              {resumeError && (
                <Text color="fg.error" role="alert">
                  {resumeError}
                </Text>
              )}
              <HStack>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    clearPendingUpload();
                    setPending(undefined);
                  }}
                >
                  Discard and start a new upload
                </Button>
              </HStack>
            </Stack>
          </Card.Body>
        </Card.Root>
      )}
      <StepIndicator current={step} />
      <Card.Root>
        <Card.Body>
          <Box>
            {step === 0 && (
              <PatientContextStep
                value={context}
                errors={contextErrors}
                onChange={setContext}
                onSaveDraft={() => void saveDraft()}
                savingDraft={savingDraft}
                draftSaved={!!draftId}
                onContinue={() => {
                  const result = validatePatientContext(context);
                  if (!result.ok) return setContextErrors(result.errors);
                  setContextErrors({});
                  setStep(1);
                }}
              />
            )}
            {step === 1 && (
              <FileDiscoveryStep
                enhanced={enhanced}
                onEnhancedChange={setEnhanced}
                discovery={discovery}
                onDiscovered={onDiscovered}
                onBack={() => setStep(0)}
                onContinue={() => setStep(2)}
              />
            )}
            {step === 2 && discovery && (
              <SeriesSelectionStep
                series={discovery.series}
                choices={choices}
                onChange={(c) => {
                  setChoices(c);
                  setSelectionError(undefined);
                }}
                enhanced={enhanced}
                onDownloadZip={downloadZip}
                zipBusy={zipBusy}
                error={selectionError}
                onBack={() => setStep(1)}
                onContinue={() => setStep(3)}
              />
            )}
            {step === 3 && (
              <AnonymizationStep
                value={anonymization}
                onChange={setAnonymization}
                onBack={() => setStep(2)}
                onContinue={() => void startUpload()}
              />
            )}
            {step === 4 && (
              <UploadStep
                phase={upload.phase}
                overall={upload.overall}
                files={upload.files}
                error={upload.error}
                status={dataset?.status}
                failureReason={dataset?.failureReason}
                onRetry={() => datasetId && void runUpload(datasetId, context.studyDescription || 'Study', uploadFiles)}
                onViewDatasets={() => navigate(paths.datasets.getHref())}
                onOpenDataset={() => datasetId && navigate(paths.dataset.getHref(datasetId))}
                onUploadAnother={reset}
              />
            )}
          </Box>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
