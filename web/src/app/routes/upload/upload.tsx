import { Alert, Box, Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { toaster } from '#web/components/ui/toaster.tsx';
import { paths } from '#web/config/paths.ts';
import { getDataset, useDataset } from '#web/features/datasets/api/get-dataset.ts';
import { useNotifications } from '#web/features/notifications/hooks/use-notifications.tsx';
import { createDataset, updateDataset } from '#web/features/uploads/api/create-dataset.ts';
import { getUploadSession } from '#web/features/uploads/api/get-upload-session.ts';
import { AnonymizationStep } from '#web/features/uploads/components/anonymization-step.tsx';
import { FileDiscoveryStep } from '#web/features/uploads/components/file-discovery-step.tsx';
import { FilePicker } from '#web/features/uploads/components/file-picker.tsx';
import { PatientContextStep } from '#web/features/uploads/components/patient-context-step.tsx';
import { SeriesSelectionStep } from '#web/features/uploads/components/series-selection-step.tsx';
import { StepIndicator } from '#web/features/uploads/components/step-indicator.tsx';
import { UploadStep } from '#web/features/uploads/components/upload-step.tsx';
import { useStudyUpload, type UploadingFile } from '#web/features/uploads/hooks/use-study-upload.ts';
import type { PickedFile } from '#web/features/uploads/utils/discover-files.ts';
import { validatePatientContext } from '#web/features/uploads/utils/patient-context.ts';
import {
  clearPendingUpload,
  loadPendingUpload,
  matchSessionFiles,
} from '#web/features/uploads/utils/pending-upload.ts';
import {
  initialWizardState,
  selectedFiles,
  selectedSeries,
  seriesOfPath,
  wizardReducer,
} from '#web/features/uploads/utils/wizard-state.ts';
import { errorMessage } from '#web/lib/api-error.ts';

/** /upload: the five-step wizard (docs/states.md#upload-wizard), every step real. */
export function UploadRoute() {
  const navigate = useNavigate();
  const { notify } = useNotifications();
  const [state, dispatch] = useReducer(wizardReducer, undefined, () => initialWizardState(loadPendingUpload()));
  const { step, context, anonymization, pending, datasetId } = state;
  const upload = useStudyUpload();
  const { data: dataset } = useDataset(upload.phase === 'uploaded' ? datasetId : undefined, { pollMs: 2000 });
  const announced = useRef<string>(undefined);
  // Once per discovery, not per wizard action: a 5,000-file study's map is rebuilt only when the files change.
  const { discovery } = state;
  const seriesOf = useMemo(() => seriesOfPath({ discovery }), [discovery]);

  // A pending upload resumes only while its dataset still waits for files; its description comes from the server.
  useEffect(() => {
    if (!pending) return;
    const drop = () => {
      clearPendingUpload();
      dispatch({ type: 'pending-dropped' });
    };
    getDataset(pending.datasetId)
      .then((d) =>
        d.status === 'UPLOADING' ? dispatch({ type: 'pending-confirmed', description: d.studyDescription }) : drop(),
      )
      .catch(drop);
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

  const saveDraft = async () => {
    const result = validatePatientContext(context);
    if (!result.ok) return dispatch({ type: 'context-rejected', errors: result.errors });
    dispatch({ type: 'draft-saving' });
    try {
      const saved = state.draftId
        ? await updateDataset(state.draftId, { ...result.value, anonymization })
        : await createDataset({ ...result.value, anonymization });
      dispatch({ type: 'draft-saved', datasetId: saved.id });
      toaster.create({ type: 'success', title: 'Draft saved', description: 'The dataset is ready for upload.' });
    } catch (e) {
      dispatch({ type: 'draft-failed' });
      toaster.create({ type: 'error', title: errorMessage(e) });
    }
  };

  const downloadZip = async () => {
    const series = selectedSeries(state);
    if (series.length === 0)
      return dispatch({ type: 'selection-rejected', message: 'Please select at least one series to export.' });
    dispatch({ type: 'zip-started' });
    try {
      const byPath = new Map(state.picked.map((p) => [p.path, p.file]));
      const selection = await Promise.all(
        series.map(async (s) => ({
          series: s,
          category: state.choices[s.seriesInstanceUID]!.bids.category,
          subcategory: state.choices[s.seriesInstanceUID]!.bids.subcategory,
          files: await Promise.all(
            s.files.map(async (f) => ({ bytes: new Uint8Array(await byPath.get(f.fileName)!.arrayBuffer()) })),
          ),
        })),
      );
      // The de-identification engine and its tables load only when someone exports.
      const { buildDeidentifiedLayoutZip } = await import('#web/features/uploads/utils/deidentified-export.ts');
      const zip = await buildDeidentifiedLayoutZip(selection, anonymization);
      const url = URL.createObjectURL(new Blob([zip.bytes as BlobPart], { type: 'application/zip' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = zip.fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      if (zip.withheld > 0)
        toaster.create({
          type: 'warning',
          title: `${zip.withheld} files left out of the ZIP`,
          description: 'They are marked as having text burned into the image.',
        });
      dispatch({ type: 'zip-finished' });
    } catch (e) {
      dispatch({ type: 'zip-finished', error: `Error exporting ZIP: ${errorMessage(e)}` });
    }
  };

  const runUpload = async (id: string, studyDescription: string, files: UploadingFile[], salt?: string) => {
    const result = await upload.start({ datasetId: id, files, salt, seriesOf: (p) => seriesOf.get(p) });
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

  const startUpload = async () => {
    const result = validatePatientContext(context);
    if (!result.ok) return dispatch({ type: 'context-rejected', errors: result.errors });
    const files = selectedFiles(state);
    try {
      const created = state.draftId
        ? await updateDataset(state.draftId, { ...result.value, anonymization })
        : await createDataset({ ...result.value, anonymization });
      dispatch({ type: 'upload-started', datasetId: created.id, files });
      await runUpload(created.id, result.value.studyDescription, files);
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    }
  };

  const resume = async (picked: PickedFile[]) => {
    if (!pending) return;
    try {
      const session = await getUploadSession(pending.sessionId);
      const sessionFiles = [...session.files].sort((a, b) => a.fileIndex - b.fileIndex);
      const { matched, missing } = await matchSessionFiles(sessionFiles, picked, pending.salt);
      if (missing > 0)
        return dispatch({
          type: 'resume-rejected',
          message: `${missing} of ${sessionFiles.length} files were not found in what you picked. Choose the same folder as before.`,
        });
      // The session was opened with the keys of then: send the same keys, in the same order, with the same salt.
      dispatch({ type: 'resume-started', files: matched });
      await runUpload(pending.datasetId, state.pendingDescription ?? 'Study', matched, pending.salt);
    } catch (e) {
      dispatch({ type: 'resume-rejected', message: errorMessage(e) });
    }
  };

  return (
    <Stack gap="6">
      <Heading size="2xl">Upload DICOM Study</Heading>
      {pending && state.pendingDescription !== undefined && step === 0 && (
        <Card.Root borderColor="orange.muted" data-testid="resume-upload">
          <Card.Body>
            <Stack gap="3">
              <Alert.Root status="warning">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>An upload did not finish: {state.pendingDescription}</Alert.Title>
                  <Alert.Description>
                    {pending.fileCount} files. Choose the same folder or files again: only the parts the server does not
                    hold yet are sent.
                  </Alert.Description>
                </Alert.Content>
              </Alert.Root>
              <FilePicker onPicked={(files) => void resume(files)} />
              {state.resumeError && (
                <Text color="fg.error" role="alert">
                  {state.resumeError}
                </Text>
              )}
              <HStack>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    clearPendingUpload();
                    dispatch({ type: 'pending-dropped' });
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
                errors={state.contextErrors}
                onChange={(value) => dispatch({ type: 'context-changed', context: value })}
                onSaveDraft={() => void saveDraft()}
                savingDraft={state.savingDraft}
                draftSaved={!!state.draftId}
                onContinue={() => dispatch({ type: 'context-submitted' })}
              />
            )}
            {step === 1 && (
              <FileDiscoveryStep
                enhanced={state.enhanced}
                onEnhancedChange={(enhanced) => dispatch({ type: 'enhanced-changed', enhanced })}
                discovery={state.discovery}
                onDiscovered={(discovery, picked) => dispatch({ type: 'files-discovered', discovery, picked })}
                onBack={() => dispatch({ type: 'went-back' })}
                onContinue={() => dispatch({ type: 'went-forward' })}
              />
            )}
            {step === 2 && state.discovery && (
              <SeriesSelectionStep
                series={state.discovery.series}
                choices={state.choices}
                onChange={(choices) => dispatch({ type: 'choices-changed', choices })}
                enhanced={state.enhanced}
                onDownloadZip={downloadZip}
                zipBusy={state.zipBusy}
                error={state.selectionError}
                onBack={() => dispatch({ type: 'went-back' })}
                onContinue={() => dispatch({ type: 'went-forward' })}
              />
            )}
            {step === 3 && (
              <AnonymizationStep
                value={anonymization}
                onChange={(options) => dispatch({ type: 'anonymization-changed', options })}
                onBack={() => dispatch({ type: 'went-back' })}
                onContinue={() => void startUpload()}
              />
            )}
            {step === 4 && (
              <UploadStep
                phase={upload.phase}
                overall={upload.overall}
                fileCount={state.uploadFiles.length}
                inFlight={upload.inFlight}
                error={upload.error}
                status={dataset?.status}
                failureReason={dataset?.failureReason}
                onRetry={() =>
                  datasetId && void runUpload(datasetId, context.studyDescription || 'Study', state.uploadFiles)
                }
                onViewDatasets={() => navigate(paths.datasets.getHref())}
                onOpenDataset={() => datasetId && navigate(paths.dataset.getHref(datasetId))}
                onUploadAnother={() => {
                  announced.current = undefined;
                  dispatch({ type: 'reset' });
                }}
              />
            )}
          </Box>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
