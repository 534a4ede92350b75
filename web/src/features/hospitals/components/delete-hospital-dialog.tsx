import { Alert, Button, HStack, Input, List, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { DeleteHospitalRequest, Hospital } from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { useDialogSubmit } from '#web/lib/use-dialog-submit.ts';
import { afterNameStep, nameMatches } from '#web/features/hospitals/utils/delete-flow.ts';

type Props = {
  hospital: Pick<Hospital, 'id' | 'name' | 'userCount' | 'datasetCount'>;
  onClose(): void;
  onDelete(request: DeleteHospitalRequest): Promise<unknown>;
};

/**
 * Delete Hospital (docs/screens.md#delete-hospital): step 1 asks for the typed name; with users or datasets a second,
 * high-impact step follows with Back and "Yes, Delete Hospital". It deactivates: data stays and it can be restored.
 */
export function DeleteHospitalDialog({ hospital, onClose, onDelete }: Props) {
  const [step, setStep] = useState<'name' | 'impact'>('name');
  const [typed, setTyped] = useState('');
  const { busy, error, submit } = useDialogSubmit();

  const run = (acknowledgeImpact: boolean) =>
    submit(() => onDelete({ confirmName: typed, acknowledgeImpact }), onClose);
  const confirmName = () => (afterNameStep(hospital) === 'impact' ? setStep('impact') : run(false));

  return (
    <Modal
      open
      onClose={onClose}
      title="Delete Hospital"
      footer={
        step === 'name' ? (
          <HStack>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button colorPalette="red" disabled={!nameMatches(hospital, typed)} loading={busy} onClick={confirmName}>
              Delete Hospital
            </Button>
          </HStack>
        ) : (
          <HStack>
            <Button variant="outline" onClick={() => setStep('name')}>
              Back
            </Button>
            <Button colorPalette="red" loading={busy} onClick={() => run(true)}>
              Yes, Delete Hospital
            </Button>
          </HStack>
        )
      }
    >
      {step === 'name' ? (
        <Stack gap="3">
          <Text>
            This deactivates <strong>{hospital.name}</strong>: its users can no longer sign in. Its data stays and the
            hospital can be restored.
          </Text>
          <FormField label={`Type "${hospital.name}" to confirm`}>
            <Input name="confirmName" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          </FormField>
          {error && <ErrorBox message={error} />}
        </Stack>
      ) : (
        <Stack gap="3">
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>High-impact action</Alert.Title>
              <Alert.Description>
                <List.Root ps="4">
                  <List.Item>
                    {hospital.userCount} user{hospital.userCount === 1 ? '' : 's'} will lose access
                  </List.Item>
                  <List.Item>
                    {hospital.datasetCount} dataset{hospital.datasetCount === 1 ? '' : 's'} will become unavailable
                    until the hospital is restored
                  </List.Item>
                </List.Root>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Text>Are you sure you want to delete {hospital.name}?</Text>
          {error && <ErrorBox message={error} />}
        </Stack>
      )}
    </Modal>
  );
}
