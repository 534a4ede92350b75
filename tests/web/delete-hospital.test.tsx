// @vitest-environment jsdom
import '#tests/web/dom-polyfills.ts';
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '#web/components/ui/provider.tsx';
import { DeleteHospitalDialog } from '#web/features/hospitals/components/delete-hospital-dialog.tsx';
import { afterNameStep, nameMatches } from '#web/features/hospitals/utils/delete-flow.ts';

afterEach(cleanup);

function renderDialog(counts: { userCount: number; datasetCount: number }) {
  const onDelete = vi.fn(async () => {});
  const onClose = vi.fn();
  render(
    <ChakraProvider value={system}>
      <DeleteHospitalDialog
        hospital={{ id: 'h1', name: 'Riverside Clinic', ...counts }}
        onClose={onClose}
        onDelete={onDelete}
      />
    </ChakraProvider>,
  );
  const typeName = (value: string) =>
    fireEvent.change(document.querySelector('input[name="confirmName"]')!, { target: { value } });
  const deleteButton = () => screen.getByRole('button', { name: 'Delete Hospital' }) as HTMLButtonElement;
  return { onDelete, onClose, typeName, deleteButton };
}

describe('delete hospital', () => {
  it('needs the exact name, and a second step only with users or datasets', () => {
    expect(nameMatches({ name: 'Riverside Clinic' }, 'riverside clinic')).toBe(false);
    expect(nameMatches({ name: 'Riverside Clinic' }, 'Riverside Clinic')).toBe(true);
    expect(afterNameStep({ userCount: 0, datasetCount: 0 })).toBe('delete');
    expect(afterNameStep({ userCount: 0, datasetCount: 2 })).toBe('impact');
    expect(afterNameStep({ userCount: 1, datasetCount: 0 })).toBe('impact');
  });

  it('deletes an empty hospital directly once the typed name matches', async () => {
    // Prepare
    const { onDelete, onClose, typeName, deleteButton } = renderDialog({ userCount: 0, datasetCount: 0 });
    // Act
    typeName('Riverside');
    const disabledOnMismatch = deleteButton().disabled;
    typeName('Riverside Clinic');
    fireEvent.click(deleteButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // Assess
    expect(disabledOnMismatch).toBe(true);
    expect(onDelete).toHaveBeenCalledWith({ confirmName: 'Riverside Clinic', acknowledgeImpact: false });
    expect(screen.queryByText('Yes, Delete Hospital')).toBeNull();
  });

  it('asks a second, high-impact confirmation with Back when the hospital has users or datasets', async () => {
    // Prepare
    const { onDelete, onClose, typeName, deleteButton } = renderDialog({ userCount: 3, datasetCount: 5 });
    // Act
    typeName('Riverside Clinic');
    fireEvent.click(deleteButton());
    const impact = await screen.findByText('3 users will lose access');
    const deletedBeforeConfirm = onDelete.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    const backToName = (document.querySelector('input[name="confirmName"]') as HTMLInputElement).value;
    fireEvent.click(deleteButton());
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, Delete Hospital' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // Assess
    expect(impact).toBeTruthy();
    expect(deletedBeforeConfirm).toBe(0);
    expect(backToName).toBe('Riverside Clinic');
    expect(onDelete).toHaveBeenCalledWith({ confirmName: 'Riverside Clinic', acknowledgeImpact: true });
  });
});
